import { afterAll, describe, expect, it } from "vitest";
import { fabricApi, haveFabricBinaries, waitFor, type FabricApi, type Json } from "../../test-support/fabric-api.js";
import { freePort } from "../../test-support/ports.js";
import { resolvePrometheus } from "./prometheus-binary.js";

const bins = await haveFabricBinaries("metrics e2e");
const prometheus = (() => {
  try {
    return resolvePrometheus();
  } catch (err) {
    console.warn(`skipping the metrics e2e test: ${(err as Error).message}`);
    return undefined;
  }
})();

let harness: FabricApi | undefined;
afterAll(async () => {
  await harness?.call("POST", "/metrics/undeploy");
  await harness?.close();
});

describe("the managed Prometheus on a real channel", () => {
  it.skipIf(!bins || !prometheus)(
    "scrapes the real peer and orderer, answers the peer's height as the peer reports it, and follows nodes added and deleted",
    { timeout: 400_000 },
    async () => {
      const h = await fabricApi();
      harness = h;
      // Two orgs, one node each, on a channel at height >= 2 (block 0 and an anchor-peer config block).
      const { org, peer, orderer } = await h.peerOrdererChannel({
        code: "Mt",
        prefix: "mt",
        channel: "mtchannel",
      });
      const height = await waitFor(
        "the peer at height >= 2",
        async () => {
          const r = await h.ok("GET", `/nodes/${peer.id}/channels/mtchannel/height`);
          return (r.height as number) >= 2 ? (r.height as number) : undefined;
        },
        60_000,
      );

      const port = await freePort();
      await h.ok("POST", "/metrics/deploy", {
        prometheus_port: port,
        prometheus_version: "v2.42.0",
        scrape_interval: 1,
      });
      const targets = async (): Promise<Json[]> => (await h.ok("GET", "/metrics/targets")).activeTargets as Json[];
      const up = await waitFor(
        "the peer and the orderer scraped",
        async () => {
          const t = await targets();
          return t.length === 2 && t.every((x) => x.health === "up") ? t : undefined;
        },
        60_000,
      );
      expect(up.map((x) => x.labels.node_id).sort()).toEqual([String(peer.id), String(orderer.id)].sort());

      // The height Prometheus scraped from the peer's operations endpoint is the height the peer reports.
      const scraped = await waitFor(
        "ledger_blockchain_height of the peer",
        async () => {
          const r = await h.ok("POST", `/metrics/node/${peer.id}/query`, {
            query: 'ledger_blockchain_height{channel="mtchannel"}',
          });
          const series = r.data.result as Json[];
          const v = series[0] ? Number(series[0].value[1]) : undefined;
          return v === height ? series : undefined;
        },
        30_000,
      );
      expect(scraped).toHaveLength(1);
      expect(scraped[0]?.metric).toMatchObject({ channel: "mtchannel", node_id: String(peer.id) });
      const reported = await h.ok("GET", `/nodes/${peer.id}/channels/mtchannel/height`);
      expect(Number(scraped[0]?.value[1])).toBe(reported.height);

      // The orderer's series exist (same metric) but never reach the peer's queries.
      const ordererHeight = await h.ok("POST", `/metrics/node/${orderer.id}/query`, {
        query: "ledger_blockchain_height",
      });
      expect(ordererHeight.data.result.length).toBe(1);
      for (const query of [
        "up or on() vector(1)",
        `ledger_blockchain_height{job="${orderer.name}"}`,
        '{__name__=~"ledger_.*"}',
      ]) {
        const r = await h.ok("POST", `/metrics/node/${peer.id}/query`, { query });
        for (const s of r.data.result as Json[]) expect(s.metric.node_id ?? String(peer.id)).toBe(String(peer.id));
      }
      const bad = await h.call("POST", `/metrics/node/${peer.id}/query`, { query: "sum(ledger_blockchain_height" });
      expect(bad.status).toBe(400);

      // Upstream's node, filtered, job and search reads on the same real peer (decision 38's scoping).
      const all = await h.ok("GET", `/metrics/node/${peer.id}`);
      const names = new Set((all.data.result as Json[]).map((s) => s.metric.__name__));
      expect(names.has("ledger_blockchain_height")).toBe(true);
      for (const s of all.data.result as Json[]) expect(s.metric.job).toBe(peer.name);
      const filtered = await h.ok(
        "GET",
        `/metrics/node/${peer.id}/filtered?filters=${encodeURIComponent("__name__:eq:ledger_blockchain_height,channel:eq:mtchannel")}`,
      );
      expect(filtered.pagination.total).toBe(1);
      expect(Number(filtered.data.result[0].value[1])).toBe(height);
      const now = Math.floor(Date.now() / 1000);
      const ranged = await h.ok("POST", `/metrics/node/${peer.id}/query/filtered`, {
        query: "ledger_blockchain_height",
        filters: [{ property: "channel", operator: "in", value: ["mtchannel"] }],
        start: new Date((now - 60) * 1000).toISOString(),
        end: new Date((now + 5) * 1000).toISOString(),
        step: "5s",
      });
      expect(ranged.metadata.result_type).toBe("matrix");
      expect(ranged.data.result).toHaveLength(1);
      const injected = await h.call("POST", `/metrics/node/${peer.id}/query/filtered`, {
        filters: [{ property: 'channel="x"} or {job=~".+', operator: "eq", value: "x" }],
      });
      expect(injected.status).toBe(400);
      const channels = await h.ok("GET", `/metrics/job/${peer.name}/label/channel/values`);
      expect(channels.data).toContain("mtchannel");
      const found = await h.ok(
        "GET",
        `/metrics/search?q=blockchain_height&filters=${encodeURIComponent(`job:eq:${orderer.name}`)}`,
      );
      expect((found.data as Json[]).map((s) => s.job)).toEqual([orderer.name]);
      const meta = await h.ok("GET", "/metrics/metadata?metric=ledger_blockchain_height");
      expect(meta.data.ledger_blockchain_height[0].type).toBe("gauge");

      // A node added is scraped without a reload by hand; a node deleted is dropped.
      const [extra] = await h.createNodes(org, 1, 0, "mtx-");
      await waitFor(
        "the new peer scraped",
        async () => {
          const t = await targets();
          return t.some((x) => x.labels.node_id === String(extra.id) && x.health === "up") ? true : undefined;
        },
        60_000,
      );
      await h.ok("DELETE", `/nodes/${extra.id}`);
      await waitFor(
        "the deleted peer gone from the targets",
        async () => {
          const t = await targets();
          return t.length === 2 && !t.some((x) => x.labels.node_id === String(extra.id)) ? true : undefined;
        },
        30_000,
      );
    },
  );
});
