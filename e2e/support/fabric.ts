import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { basename } from "node:path";
import { apiCall } from "./api.js";

type Credentials = { username: string; password: string };

export interface FabricNode {
  id: number;
  name: string;
  status: string;
  errorMessage?: string;
  nodeType?: string;
  fabricPeer?: { externalEndpoint: string };
  fabricOrderer?: { externalEndpoint: string };
}

type Defaults = {
  peers: {
    listenAddress: string;
    chaincodeAddress: string;
    operationsListenAddress: string;
    externalEndpoint: string;
  }[];
  orderers: {
    listenAddress: string;
    adminAddress: string;
    operationsListenAddress: string;
    externalEndpoint: string;
  }[];
};

/** peer/orderer processes whose config (FABRIC_CFG_PATH's core.yaml/orderer.yaml) names one of these ports. */
export function fabricProcesses(ports: readonly string[]): number[] {
  const out: number[] = [];
  const read = (f: string): string => {
    try {
      return readFileSync(f, "latin1");
    } catch {
      return "";
    }
  };
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const exe = basename(readlinkSync(`/proc/${p}/exe`));
      if (exe !== "peer" && exe !== "orderer") continue;
      const env = read(`/proc/${p}/environ`);
      const cfg = /(?:^|\0)FABRIC_CFG_PATH=([^\0]*)/.exec(env)?.[1] ?? "";
      const text = [env, read(`/proc/${p}/cmdline`), read(`${cfg}/core.yaml`), read(`${cfg}/orderer.yaml`)].join("\n");
      if (ports.some((port) => new RegExp(`(^|\\D)${port}(\\D|$)`).test(text))) out.push(Number(p));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/** Polls a node until it has status `want` (fails fast on ERROR). */
export async function waitNodeStatus(
  baseUrl: string,
  user: Credentials,
  id: number,
  want = "RUNNING",
): Promise<FabricNode> {
  const until = Date.now() + 120_000;
  for (;;) {
    const n = await apiCall<FabricNode>(baseUrl, user, "GET", `/nodes/${id}`);
    if (n.data.status === want) return n.data;
    if (n.data.status === "ERROR") throw new Error(`${n.data.name}: ${n.data.errorMessage}`);
    if (Date.now() > until) throw new Error(`${n.data.name} not ${want}: ${n.data.status}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * Creates peers and orderers of an org through the API (one at a time: each proposal sees the
 * ports before it), waits until all run, and records their ports for the process check.
 */
export async function createFabricNodes(
  baseUrl: string,
  user: Credentials,
  org: { id: number; mspId: string },
  names: { peers: string[]; orderers: string[] },
  ports: string[],
): Promise<FabricNode[]> {
  const d = await apiCall<Defaults>(
    baseUrl,
    user,
    "GET",
    `/nodes/defaults/fabric?peerCount=${names.peers.length}&ordererCount=${names.orderers.length}`,
  );
  if (d.status !== 200) throw new Error(`defaults: ${d.status}`);
  const bodies = [
    ...names.orderers.map((name, i) => {
      const o = d.data.orderers[i]!;
      ports.push(...[o.listenAddress, o.adminAddress].map((a) => a.split(":").at(-1)!));
      return {
        name,
        blockchainPlatform: "FABRIC",
        fabricOrderer: {
          organizationId: org.id,
          mspId: org.mspId,
          listenAddress: o.listenAddress,
          adminAddress: o.adminAddress,
          operationsListenAddress: o.operationsListenAddress,
          externalEndpoint: o.externalEndpoint,
        },
      };
    }),
    ...names.peers.map((name, i) => {
      const p = d.data.peers[i]!;
      ports.push(...[p.listenAddress, p.chaincodeAddress].map((a) => a.split(":").at(-1)!));
      return {
        name,
        blockchainPlatform: "FABRIC",
        fabricPeer: {
          organizationId: org.id,
          mspId: org.mspId,
          listenAddress: p.listenAddress,
          chaincodeAddress: p.chaincodeAddress,
          operationsListenAddress: p.operationsListenAddress,
          externalEndpoint: p.externalEndpoint,
        },
      };
    }),
  ];
  const ids: number[] = [];
  for (const body of bodies) {
    const r = await apiCall<FabricNode>(baseUrl, user, "POST", "/nodes", body);
    if (r.status !== 201) throw new Error(`create ${body.name}: ${r.status} ${JSON.stringify(r.data)}`);
    ids.push(r.data.id);
  }
  const out: FabricNode[] = [];
  for (const id of ids) out.push(await waitNodeStatus(baseUrl, user, id));
  return out;
}

/** Deletes the named networks and every node of the org, then waits until none of their processes is left. */
export async function removeFabricFixtures(
  baseUrl: string,
  user: Credentials,
  opts: { channels: string[]; orgId: number; nodeIds: number[]; ports: string[] },
): Promise<number[]> {
  const nets = await apiCall<{ networks?: { id: number; name: string }[] }>(
    baseUrl,
    user,
    "GET",
    "/networks/fabric?limit=1000",
  );
  for (const n of (nets.data.networks ?? []).filter((x) => opts.channels.includes(x.name))) {
    await apiCall(baseUrl, user, "DELETE", `/networks/fabric/${n.id}`);
  }
  const left = await apiCall<{ items?: FabricNode[] }>(
    baseUrl,
    user,
    "GET",
    `/nodes?limit=1000&organizationId=${opts.orgId}`,
  );
  for (const id of new Set([...opts.nodeIds, ...(left.data.items ?? []).map((n) => n.id)])) {
    await apiCall(baseUrl, user, "DELETE", `/nodes/${id}`);
  }
  const until = Date.now() + 30_000;
  while (fabricProcesses(opts.ports).length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 500));
  return fabricProcesses(opts.ports);
}

/**
 * One org with an orderer and a peer, on a new channel both have joined (a 500 ms batch timeout keeps
 * specs quick): the fixture of the chaincode specs. Node ports are added to `ports` for the sweep.
 */
export async function createOneOrgChannel(
  baseUrl: string,
  user: Credentials,
  p: { mspId: string; orgName: string; channel: string; tag: string; ports: string[] },
): Promise<{ orgId: number; networkId: number; nodeIds: number[]; peerId: number }> {
  const org = await apiCall<{ id: number }>(baseUrl, user, "POST", "/organizations", {
    mspId: p.mspId,
    name: p.orgName,
  });
  if (org.status !== 201) throw new Error(`creating ${p.mspId}: ${org.status} ${JSON.stringify(org.data)}`);
  const [orderer, peer] = await createFabricNodes(
    baseUrl,
    user,
    { id: org.data.id, mspId: p.mspId },
    { orderers: [`orderer0-${p.tag}`], peers: [`peer0-${p.tag}`] },
    p.ports,
  );
  const net = await apiCall<{ id: number }>(baseUrl, user, "POST", "/networks/fabric", {
    name: p.channel,
    config: {
      peerOrganizations: [{ id: org.data.id, nodeIds: [peer!.id] }],
      ordererOrganizations: [{ id: org.data.id, nodeIds: [orderer!.id] }],
      batchTimeout: "500ms",
    },
  });
  if (net.status !== 201) throw new Error(`creating channel ${p.channel}: ${net.status} ${JSON.stringify(net.data)}`);
  for (const [role, id] of [
    ["orderers", orderer!.id],
    ["peers", peer!.id],
  ] as const) {
    const j = await apiCall(baseUrl, user, "POST", `/networks/fabric/${net.data.id}/${role}/${id}/join`);
    if (j.status !== 200) throw new Error(`joining ${role} ${id}: ${j.status} ${JSON.stringify(j.data)}`);
  }
  return { orgId: org.data.id, networkId: net.data.id, nodeIds: [orderer!.id, peer!.id], peerId: peer!.id };
}

/**
 * A chaincode on a one-peer channel, taken through the console's lifecycle by the API (create, a
 * definition from a source folder on this host, install, approve, commit, deploy). Returns its id.
 */
export async function deployChaincodeViaApi(
  baseUrl: string,
  user: Credentials,
  p: { name: string; networkId: number; peerId: number; mspId: string; source: string },
): Promise<number> {
  const ok = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const r = await apiCall<T>(baseUrl, user, method, path, body);
    if (r.status < 200 || r.status > 299) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.data)}`);
    return r.data;
  };
  const cc = await ok<{ chaincode: { id: number } }>("POST", "/sc/fabric/chaincodes", {
    name: p.name,
    network_id: p.networkId,
  });
  const def = await ok<{ definition: { id: number } }>("POST", `/sc/fabric/chaincodes/${cc.chaincode.id}/definitions`, {
    version: "1.0",
    sequence: 1,
    endorsement_policy: `OR('${p.mspId}.peer')`,
    source_path: p.source,
  });
  // A channel's orderer elects its Raft leader shortly after joining; until then broadcasts are
  // refused with SERVICE_UNAVAILABLE, so the transactions wait for it.
  const whenLeader = async (path: string, body: unknown): Promise<void> => {
    const end = Date.now() + 60_000;
    for (;;) {
      const r = await apiCall(baseUrl, user, "POST", path, body);
      if (r.status >= 200 && r.status < 300) return;
      if (!/no Raft leader|SERVICE_UNAVAILABLE/.test(JSON.stringify(r.data)) || Date.now() > end)
        throw new Error(`POST ${path}: ${r.status} ${JSON.stringify(r.data)}`);
      await new Promise((res) => setTimeout(res, 1000));
    }
  };
  const d = def.definition.id;
  await ok("POST", `/sc/fabric/definitions/${d}/install`, { peer_ids: [p.peerId] });
  await whenLeader(`/sc/fabric/definitions/${d}/approve`, { peer_id: p.peerId });
  await whenLeader(`/sc/fabric/definitions/${d}/commit`, { peer_id: p.peerId });
  await ok("POST", `/sc/fabric/definitions/${d}/deploy`, {});
  return cc.chaincode.id;
}
