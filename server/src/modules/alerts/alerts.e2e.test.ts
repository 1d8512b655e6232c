import { afterAll, describe, expect, it } from "vitest";
import { byLabel, parsePromText, samplesOf } from "../../runtime/prom-text.js";
import { freePort } from "../../test-support/ports.js";
import { fabricApi, haveFabricBinaries, waitFor, type FabricApi, type Json } from "../../test-support/fabric-api.js";
import { metricsUrl } from "./rules/fabric-snapshot.js";
import { HEIGHT } from "./rules/peer-lag.rule.js";
import { ACTIVE_NODES, CLUSTER_SIZE, IS_LEADER } from "./rules/raft.rules.js";

const bins = await haveFabricBinaries("alerts e2e");

let harness: FabricApi | undefined;
afterAll(async () => harness?.close());

async function metricsOf(h: FabricApi, nodeId: number): Promise<string> {
  const row = await h.t.database.db
    .selectFrom("nodes")
    .select("deployment")
    .where("id", "=", nodeId)
    .executeTakeFirstOrThrow();
  const res = await fetch(metricsUrl(row.deployment)!, { signal: AbortSignal.timeout(5000) });
  expect(res.status).toBe(200);
  return res.text();
}

describe("alerts on a real 1-orderer, 1-peer channel", () => {
  it.skipIf(!bins)(
    "reads the nodes' own metrics, raises nothing while the channel is healthy, and reports a peer behind and an orderer stopped once each",
    { timeout: 480_000 },
    async () => {
      const h = await fabricApi();
      harness = h;
      // Two orgs, one node each, on a channel at height >= 2 (block 0 and an anchor-peer config block).
      const { org, peer, orderer, net } = await h.peerOrdererChannel({
        code: "Al",
        prefix: "al",
        channel: "alchannel",
      });

      // The real exposition of both binaries parses, with the metric names the rules read.
      const heights = await waitFor(
        "peer and orderer at the same height >= 2",
        async () => {
          const p = byLabel(parsePromText(await metricsOf(h, peer.id)), HEIGHT, "channel").get("alchannel");
          const o = byLabel(parsePromText(await metricsOf(h, orderer.id)), HEIGHT, "channel").get("alchannel");
          return p !== undefined && p === o && p >= 2 ? { p, o } : undefined;
        },
        60_000,
      );
      expect(heights.p).toBeGreaterThanOrEqual(2);
      const ordererText = await metricsOf(h, orderer.id);
      const ordererSamples = parsePromText(ordererText);
      const raft = (name: string) => samplesOf(ordererSamples, name, { channel: "alchannel" })[0]?.value;
      expect(raft(IS_LEADER)).toBe(1);
      expect(raft(CLUSTER_SIZE)).toBe(1);
      // A one-node cluster never sets it (it comes with the leader's heartbeats): 0 is "not reported".
      expect(raft(ACTIVE_NODES)).toBe(0);

      const current = (await h.ok("GET", "/settings")).config;
      await h.ok("POST", "/settings", {
        config: {
          ...current,
          alertEvaluationInterval: "1s",
          alertRaftMinutes: 0,
          alertPeerLagMinutes: 0,
          alertPeerLagBlocks: 1,
        },
      });
      const notes = async (type: string): Promise<Json[]> =>
        (await h.ok("GET", "/user-notifications?limit=100")).notifications.filter((n: Json) => n.event_type === type);
      const alerts = async (): Promise<Json[]> => h.ok("GET", "/alerts");
      // Several cycles of a healthy channel: the peer and raft rules watch it and find nothing.
      await new Promise((r) => setTimeout(r, 3000));
      expect((await alerts()).filter((a: Json) => a.rule !== "certificate.expiry")).toEqual([]);
      for (const type of ["peer.lagging", "raft.no_leader", "raft.consenter_unreachable"]) {
        expect(await notes(type)).toEqual([]);
      }

      // The peer dials the orderer at a dead port (a real override of its config), so it gets no more
      // blocks while two config updates go on the chain: 2 blocks behind, more than the 1 allowed.
      // The override has no tlsCACert, as upstream's provider sends it: the channel's roots apply.
      const deadPort = await freePort();
      const override = (to: string) => ({
        fabricPeer: { ordererAddressOverrides: to ? [{ from: orderer.endpoint, to }] : [] },
      });
      await h.ok("PUT", `/nodes/${peer.id}`, override(`127.0.0.1:${deadPort}`));
      const running = async (): Promise<true | undefined> =>
        (await h.ok("GET", `/nodes/${peer.id}`)).status === "RUNNING" ? true : undefined;
      await new Promise((r) => setTimeout(r, 500));
      await waitFor("the peer running again", running, 60_000);
      const [host, peerPort] = (peer.endpoint as string).split(":");
      for (const extra of ["alerts-a.example", "alerts-b.example"]) {
        await h.ok("POST", `/networks/fabric/${net.id}/anchor-peers`, {
          organizationId: org.id,
          anchorPeers: [
            { host, port: Number(peerPort) },
            { host: extra, port: 7051 },
          ],
        });
      }
      const [lagging] = await waitFor(
        "peer.lagging",
        async () => {
          const n = await notes("peer.lagging");
          return n.length ? n : undefined;
        },
        30_000,
      );
      expect(lagging.event_data).toMatchObject({
        node_id: peer.id,
        node_name: peer.name,
        channel_name: "alchannel",
        network_id: net.id,
        orderer_height: heights.o + 2,
        peer_height: heights.p,
        lag: 2,
      });
      await new Promise((r) => setTimeout(r, 3000));
      expect(await notes("peer.lagging")).toHaveLength(1);
      // The override goes: the peer restarts, catches up, and that is announced.
      await h.ok("PUT", `/nodes/${peer.id}`, override(""));
      await new Promise((r) => setTimeout(r, 500));
      await waitFor("the peer running again", running, 60_000);
      // Fabric's own catching up first (a restarted peer waits out its gossip leader election before it
      // pulls blocks), so a slow machine fails here, naming the peer's height, not at the alert.
      await waitFor(
        "the peer back at the orderer's height",
        async () => {
          const r = await h.ok("GET", `/nodes/${peer.id}/channels/alchannel/height`);
          return (r.height as number) >= heights.o + 2 ? true : undefined;
        },
        180_000,
        1000,
      );
      const [caughtUp] = await waitFor(
        "peer.caught_up",
        async () => {
          const n = await notes("peer.caught_up");
          return n.length ? n : undefined;
        },
        60_000,
      ).catch(async (err: unknown) => {
        // What the engine holds at that moment, for whoever reads a failure.
        throw new Error(`${(err as Error).message}; alerts: ${JSON.stringify(await alerts())}`);
      });
      // Back within the threshold is caught up (it may still be fetching the last block).
      expect(caughtUp.event_data).toMatchObject({ node_id: peer.id, orderer_height: heights.o + 2 });
      expect(caughtUp.event_data.lag).toBeLessThanOrEqual(1);
      expect(await notes("node.downtime")).toEqual([]);

      // The orderer stops: its channel has lost its consenter. Reported once over many cycles.
      await h.ok("POST", `/nodes/${orderer.id}/stop`);
      const [down] = await waitFor(
        "raft.consenter_unreachable",
        async () => {
          const n = await notes("raft.consenter_unreachable");
          return n.length ? n : undefined;
        },
        30_000,
      );
      expect(down.event_data).toMatchObject({
        channel_name: "alchannel",
        network_id: net.id,
        unreachable: [orderer.name],
      });
      await new Promise((r) => setTimeout(r, 4000));
      expect(await notes("raft.consenter_unreachable")).toHaveLength(1);
      // With no orderer answering, the peer's lag is unknown, not a new alert; the stop is not downtime.
      expect(await notes("peer.lagging")).toHaveLength(1);
      expect(await notes("node.downtime")).toEqual([]);

      await h.ok("POST", `/nodes/${orderer.id}/start`);
      const [up] = await waitFor(
        "raft.recovered",
        async () => {
          const n = await notes("raft.recovered");
          return n.length ? n : undefined;
        },
        90_000,
      );
      expect(up.event_data).toMatchObject({ channel_name: "alchannel", problem: "consenter_unreachable" });
      await h.stopNodes([peer, orderer]);
    },
  );
});
