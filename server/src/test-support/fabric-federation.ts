import { expect } from "vitest";
import { fabricApi, waitFor, type FabricApi, type Json } from "./fabric-api.js";
import { listenAndSetEndpoint } from "./federation.js";

/** Chain height of a channel as a console's own joined peer reports it (-1 when it can't tell). */
export async function channelHeight(c: FabricApi, networkId: number): Promise<number> {
  const r = await c.call("GET", `/networks/fabric/${networkId}/info`);
  return r.status === 200 ? Number(r.body.height) : -1;
}

/**
 * Two consoles on one real channel, joined through federation (docs/federation.md): A holds the channel
 * with its peer org and orderer; B's org (one peer) is added from B's synced external-organization
 * record; A shares the network, B accepts it and its peer joins and catches up. Both consoles have
 * synced the other's nodes (A sees B's peer as an external node). `consoles` receives both for cleanup.
 */
export async function twoConsoleChannel(p: {
  ports: [number, number];
  code: string;
  prefix: string;
  channel: string;
  consoles: FabricApi[];
}) {
  const a = await fabricApi({ ports: p.ports[0] });
  p.consoles.push(a);
  const b = await fabricApi({ ports: p.ports[1] });
  p.consoles.push(b);
  await Promise.all([listenAndSetEndpoint(a.t), listenAndSetEndpoint(b.t)]);

  const [chan, bOrg] = await Promise.all([
    a.peerOrdererChannel({ code: `${p.code}A`, prefix: `${p.prefix}a`, channel: p.channel }),
    b.ok("POST", "/organizations", { mspId: `${p.code}BOrg1MSP`, name: `${p.code} B Org 1` }),
  ]);
  const [bPeer] = (await b.createNodes(bOrg, 1, 0, `${p.prefix}b-`)) as [Json];

  const aId = (await a.ok("GET", "/node/identity")).node_id as string;
  const bId = (await b.ok("GET", "/node/identity")).node_id as string;
  const inv = await a.ok("POST", "/node/generate-invitation", { bidirectional: true });
  await b.ok("POST", "/node/accept-invitation", { invitation_jwt: inv.invitation_jwt });
  const bSync = await b.ok("POST", "/node/sync-external-nodes", { peer_node_id: aId });
  await a.ok("POST", "/node/sync-external-nodes", { peer_node_id: bId });
  const aOrgs: Json[] = await a.ok("GET", "/external-nodes/fabric-organizations");
  const external = aOrgs.find((o) => o.mspId === bOrg.mspId);
  expect(external?.signCertificate).toBe(bOrg.signCertificate);
  await a.ok("POST", `/networks/fabric/${chan.net.id}/update-config`, {
    operations: [{ type: "add_org", payload: { external_organization_id: external.id } }],
  });

  const bOnA = ((await a.ok("GET", "/node/connected-peers")).connected_peers as Json[]).find((x) => x.node_id === bId);
  const aOnB = ((await b.ok("GET", "/node/connected-peers")).connected_peers as Json[]).find((x) => x.node_id === aId);
  const share = await a.ok("POST", "/pro/sharing/network", { networkId: chan.net.id, recipients: [bOnA.id] });
  expect(share.status).not.toBe("failed");
  const received = ((await b.ok("GET", "/pro/shared-networks?direction=received")).networks as Json[]).find(
    (n) => n.networkName === p.channel,
  );
  expect(received?.status).toBe("pending");
  const accepted = await b.ok("POST", `/pro/shared-networks/${received.id}/accept`);
  const bNetId = accepted.networkId as number;

  await b.ok("POST", `/networks/fabric/${bNetId}/peers/${bPeer.id}/join`);
  const target = await channelHeight(a, chan.net.id);
  await waitFor(
    `B's peer at A's height ${target}`,
    async () => ((await channelHeight(b, bNetId)) >= target ? true : undefined),
    90_000,
  );
  return {
    a,
    b,
    chan,
    bOrg,
    bPeer,
    bNetId,
    aId,
    bId,
    bOnA: bOnA.id as number,
    aOnB: aOnB.id as number,
    bSync,
    share,
    target,
  };
}
