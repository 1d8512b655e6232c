import { fabricApi, waitFor, type FabricApi, type Json } from "./fabric-api.js";
import { listenAndSetEndpoint } from "./federation.js";

/**
 * Test-only helpers for consoles that run real Fabric nodes and talk to each other: connect
 * them, add one console's orgs to another's channel, share the channel and join it.
 */

export type FederatedFabricApi = FabricApi & { nodeId: string };

/** A fabricApi console (SQLite, its own reserved node ports) listening on loopback with its federation endpoint set. */
export async function federatedFabricApi(track?: (c: FabricApi) => void): Promise<FederatedFabricApi> {
  const api = await fabricApi();
  track?.(api);
  await listenAndSetEndpoint(api.t);
  const nodeId = (await api.ok("GET", "/node/identity")).node_id as string;
  return Object.assign(api, { nodeId });
}

/** The id of the connection with `nodeId` on console `on`. */
export async function connectionIdOf(on: FabricApi, nodeId: string): Promise<number> {
  const peers = (await on.ok("GET", "/node/connected-peers")).connected_peers as Json[];
  const p = peers.find((x) => x.node_id === nodeId);
  if (!p) throw new Error(`${nodeId} is not connected`);
  return p.id as number;
}

/** `from` invites, `to` accepts (both directions); answers each side's connection id of the other. */
export async function connectFabric(
  from: FederatedFabricApi,
  to: FederatedFabricApi,
): Promise<{ toOnFrom: number; fromOnTo: number }> {
  const inv = await from.ok("POST", "/node/generate-invitation", { bidirectional: true });
  await to.ok("POST", "/node/accept-invitation", { invitation_jwt: inv.invitation_jwt });
  return { toOnFrom: await connectionIdOf(from, to.nodeId), fromOnTo: await connectionIdOf(to, from.nodeId) };
}

/** Chain height of a channel as a console's own joined peer reports it (-1 when it can't). */
export async function channelHeight(c: FabricApi, networkId: number): Promise<number> {
  const r = await c.call("GET", `/networks/fabric/${networkId}/info`);
  return r.status === 200 ? Number(r.body.height) : -1;
}

/**
 * `on` syncs the nodes of each console in `from` and adds their orgs (by MSP id) to its channel
 * from the external-organization records, in one config update (signed by `on`'s orgs: enough
 * while they are the channel's only application org). Answers the external-organization records.
 */
export async function addOrgsFromConsoles(
  on: FabricApi,
  networkId: number,
  from: { console: FederatedFabricApi; mspId: string }[],
): Promise<Json[]> {
  for (const f of from) await on.ok("POST", "/node/sync-external-nodes", { peer_node_id: f.console.nodeId });
  const records: Json[] = await on.ok("GET", "/external-nodes/fabric-organizations");
  const added = from.map((f) => {
    const r = records.find((o) => o.mspId === f.mspId);
    if (!r) throw new Error(`no external organization ${f.mspId} after the sync`);
    return r;
  });
  await on.ok("POST", `/networks/fabric/${networkId}/update-config`, {
    operations: added.map((r) => ({ type: "add_org", payload: { external_organization_id: r.id } })),
  });
  return added;
}

/**
 * `owner` shares its network with `to` (connection `toOnOwner`), `to` accepts it (an import of
 * block 0), joins its peers and waits until they reach the owner's height. Answers `to`'s
 * network id and the share id on the owner.
 */
export async function shareAndJoin(p: {
  owner: FabricApi;
  networkId: number;
  to: FabricApi;
  toOnOwner: number;
  channel: string;
  peerIds: number[];
}): Promise<{ networkId: number; shareId: string }> {
  const share = await p.owner.ok("POST", "/pro/sharing/network", {
    networkId: p.networkId,
    recipients: [p.toOnOwner],
  });
  if (share.status === "failed") throw new Error(`sharing ${p.channel} failed: ${JSON.stringify(share)}`);
  const received = ((await p.to.ok("GET", "/pro/shared-networks?direction=received")).networks as Json[]).find(
    (n) => n.networkName === p.channel && n.status === "pending",
  );
  if (!received) throw new Error(`no pending share of ${p.channel} on the recipient`);
  const accepted = await p.to.ok("POST", `/pro/shared-networks/${received.id}/accept`);
  const networkId = accepted.networkId as number;
  for (const id of p.peerIds) await p.to.ok("POST", `/networks/fabric/${networkId}/peers/${id}/join`);
  const target = await channelHeight(p.owner, p.networkId);
  await waitFor(
    `the recipient's peers at the owner's height ${target}`,
    async () => ((await channelHeight(p.to, networkId)) >= target ? true : undefined),
    90_000,
  );
  return { networkId, shareId: share.shareId as string };
}
