import { join } from "node:path";
import { createFabricBinaryResolver } from "../runtime/index.js";
import { describeProcess } from "../runtime/proc.js";
import { releasePorts, reservePorts } from "./ports.js";
import { processesUnder, supervisedUnder } from "./processes.js";
import { createTestApp, type TestDialect } from "./test-app.js";
import { Fatal, waitFor } from "./wait.js";

export { Fatal, waitFor };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;
type Method = "GET" | "POST" | "PUT" | "DELETE";

/**
 * The batch timeout of the channels tests create (Fabric's default is 2 s): every approve, commit,
 * invoke and config update waits for it when it is the block's only transaction. Tests about the
 * timeout itself keep the default.
 */
export const TEST_BATCH_TIMEOUT = "300ms";

/** The Fabric version the end-to-end tests run (the Makefile exports it). */
export const E2E_FABRIC_VERSION = process.env.CHAINLAUNCH_E2E_FABRIC_VERSION ?? "3.1.0";

/** Whether the test binaries are there; prints why a test is skipped when they are not. */
export async function haveFabricBinaries(what: string): Promise<boolean> {
  const bins = await createFabricBinaryResolver({ downloader: null }).findLocal(E2E_FABRIC_VERSION, [
    "peer",
    "orderer",
  ]);
  if (!bins) {
    console.warn(
      `${what} skipped: no Fabric ${E2E_FABRIC_VERSION} binaries; run scripts/fabric-build.sh ${E2E_FABRIC_VERSION}`,
    );
  }
  return Boolean(bins);
}

/** One node spec from GET /nodes/defaults/fabric (`d` is one of its peers or orderers). */
export function fabricNodeSpec(
  org: Json,
  kind: "peer" | "orderer",
  d: Json,
  name: string,
  version = E2E_FABRIC_VERSION,
) {
  const base = { organizationId: org.id, mspId: org.mspId, version };
  return kind === "peer"
    ? {
        name,
        blockchainPlatform: "FABRIC",
        fabricPeer: {
          ...base,
          listenAddress: d.listenAddress,
          chaincodeAddress: d.chaincodeAddress,
          operationsListenAddress: d.operationsListenAddress,
          externalEndpoint: d.externalEndpoint,
        },
      }
    : {
        name,
        blockchainPlatform: "FABRIC",
        fabricOrderer: {
          ...base,
          listenAddress: d.listenAddress,
          adminAddress: d.adminAddress,
          operationsListenAddress: d.operationsListenAddress,
          externalEndpoint: d.externalEndpoint,
        },
      };
}

/**
 * A whole console (createTestApp: SQLite or PostgreSQL) for API end-to-end tests on real Fabric
 * nodes: calls as admin, node creation through POST /nodes, its own block of `portCount` reserved
 * ports (test-support/ports.ts) as the console's node port range, and a sweep of its node
 * processes at close.
 */
export async function fabricApi(
  opts: {
    dialect?: TestDialect;
    /** How many ports the console's nodes may use (60 unless told). */
    portCount?: number;
    env?: Record<string, string>;
  } = {},
) {
  const portCount = opts.portCount ?? 60;
  const ports = await reservePorts(portCount);
  const t = await createTestApp(opts.dialect ?? "sqlite", opts.env ?? {});

  async function call(method: Method, url: string, payload?: object) {
    const res = await t.app.inject({ method, url: `/api/v1${url}`, headers: t.admin, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: (res.body ? res.json() : undefined) as Json };
  }
  async function ok(method: Method, url: string, payload?: object): Promise<Json> {
    const r = await call(method, url, payload);
    if (r.status >= 300) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  /** Processes whose working directory is a node folder of this console's data dir (only ours). */
  function nodeProcesses(folder = "nodes"): number[] {
    return processesUnder(join(t.config.dataDir, folder));
  }

  /**
   * Creates peers then orderers of `org` one at a time (each sees the ports before it); waits for RUNNING.
   * `mode: "docker"` runs them as containers; `host` is the address other nodes dial them on.
   */
  async function createNodes(
    org: Json,
    peers: number,
    orderers: number,
    prefix: string,
    opts: { mode?: "docker"; host?: string; dockerEngine?: string } = {},
  ): Promise<Json[]> {
    const d = await ok("GET", `/nodes/defaults/fabric?peerCount=${peers}&ordererCount=${orderers}`);
    const adjust = (spec: Json): Json => {
      const cfg = spec.fabricPeer ?? spec.fabricOrderer;
      if (opts.host) cfg.externalEndpoint = `${opts.host}:${String(cfg.externalEndpoint).split(":").pop()}`;
      if (opts.mode) cfg.mode = opts.mode;
      if (opts.dockerEngine) cfg.dockerEngine = opts.dockerEngine;
      return spec;
    };
    const specs = [
      ...d.peers.map((p: Json, i: number) => adjust(fabricNodeSpec(org, "peer", p, `${prefix}peer${i}`))),
      ...d.orderers.map((o: Json, i: number) => adjust(fabricNodeSpec(org, "orderer", o, `${prefix}orderer${i}`))),
    ];
    const created: Json[] = [];
    for (const s of specs) created.push(await ok("POST", "/nodes", s));
    return Promise.all(
      created.map((n) =>
        waitFor(
          `${n.name} RUNNING`,
          async () => {
            const cur = await ok("GET", `/nodes/${n.id}`);
            if (cur.status === "ERROR") throw new Fatal(`${n.name}: ${cur.errorMessage}`);
            return cur.status === "RUNNING" ? cur : undefined;
          },
          90_000,
        ),
      ),
    );
  }

  /**
   * A peer organization and an orderer organization (MSP ids `<code>Org1MSP` and `<code>OrdMSP`) with
   * one node each (names from `prefix`), on a new channel both have joined, plus an anchor-peer
   * config block so the channel is at height 2 or more.
   */
  async function peerOrdererChannel(p: { code: string; prefix: string; channel: string }) {
    const org = await ok("POST", "/organizations", { mspId: `${p.code}Org1MSP`, name: `${p.code} Org 1` });
    const ord = await ok("POST", "/organizations", { mspId: `${p.code}OrdMSP`, name: `${p.code} Orderers` });
    const [peer] = (await createNodes(org, 1, 0, `${p.prefix}-`)) as [Json];
    const [orderer] = (await createNodes(ord, 0, 1, `${p.prefix}o-`)) as [Json];
    const net = await ok("POST", "/networks/fabric", {
      name: p.channel,
      config: {
        batchTimeout: TEST_BATCH_TIMEOUT,
        peerOrganizations: [{ id: org.id, nodeIds: [peer.id] }],
        ordererOrganizations: [{ id: ord.id, nodeIds: [orderer.id] }],
      },
    });
    await ok("POST", `/networks/fabric/${net.id}/orderers/${orderer.id}/join`);
    await ok("POST", `/networks/fabric/${net.id}/peers/${peer.id}/join`);
    const [host, peerPort] = (peer.endpoint as string).split(":");
    await ok("POST", `/networks/fabric/${net.id}/anchor-peers`, {
      organizationId: org.id,
      anchorPeers: [{ host, port: Number(peerPort) }],
    });
    return { org, ord, peer, orderer, net };
  }

  const current = (await ok("GET", "/settings")).config;
  await ok("POST", "/settings", {
    config: { ...current, portRangeStart: ports, portRangeEnd: ports + portCount - 1 },
  });

  return {
    t,
    call,
    ok,
    nodeProcesses: () => nodeProcesses(),
    /** Chaincode servers of this console, one pid each (their folders are under <data>/chaincodes). */
    chaincodeProcesses: () => supervisedUnder(join(t.config.dataDir, "chaincodes")),
    createNodes,
    peerOrdererChannel,
    /** Stops the given nodes through the API and waits until none of this console's processes is left. */
    async stopNodes(nodes: Json[]): Promise<void> {
      await Promise.all(nodes.map((n) => ok("POST", `/nodes/${n.id}/stop`)));
      await waitFor(
        "no node process left",
        async () => (nodeProcesses().length === 0 ? true : undefined),
        30_000,
      ).catch(async (err: unknown) => {
        // Which processes stayed, in which state, and what the console says of each node.
        const left = await Promise.all(
          nodeProcesses().map(async (pid) => (await describeProcess(pid))?.text ?? `${pid} (gone)`),
        );
        const states = await Promise.all(
          nodes.map(async (n) => `${n.name}: ${(await ok("GET", `/nodes/${n.id}`)).status}`),
        );
        throw new Error(`${(err as Error).message}: ${left.join("; ")} (${states.join(", ")})`);
      });
    },
    /** First of the console's node ports (`portCount` of them). */
    ports,
    /** Kills leftovers, closes the app, removes its data dir and gives its ports back. */
    async close(): Promise<void> {
      for (const pid of [...nodeProcesses(), ...nodeProcesses("chaincodes")]) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // ended between the listing and the kill
        }
      }
      await t.close();
      releasePorts(ports, portCount);
    },
  };
}

export type FabricApi = Awaited<ReturnType<typeof fabricApi>>;
