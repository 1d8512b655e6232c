import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiOf } from "../../test-support/federation.js";
import { freePort } from "../../test-support/ports.js";
import { insertScrapedPeer, prometheusAvailable, startExporter } from "../../test-support/scrape-targets.js";
import { bootConsole, connect, type Console } from "../../test-support/sharing.js";
import { createUser, dialects } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const havePrometheus = prometheusAvailable("the connection metrics tests");

/**
 * /metrics/connection/{id}/metrics|range|filtered|query/filtered: B reads A's node metrics through
 * the signed channel (metrics federation, decision 42). A runs a real Prometheus scraping one node
 * of its own; B has no Prometheus at all, so everything B answers came from A.
 */
describe.skipIf(!havePrometheus).each(dialects())("connection metrics between two real consoles (%s)", (d) => {
  let a: Console;
  let b: Console;
  let connId: number;
  const exporters: Server[] = [];
  const series = (body: Json): Json[] => body.data.result as Json[];

  beforeAll(async () => {
    [a, b] = await Promise.all([bootConsole(d, "1"), bootConsole(d, "1")]);
    connId = await connect(a, b);
    const own = await startExporter(11, "gamma", ["# TYPE go_goroutines gauge", "go_goroutines 5"]);
    exporters.push(own.server);
    await insertScrapedPeer(a.t, "cmpeer0", own.address);
    const deployed = await a.api("POST", "/metrics/deploy", {
      prometheus_port: await freePort(),
      prometheus_version: "v2.42.0",
      scrape_interval: 1,
    });
    expect(deployed.statusCode, deployed.body).toBe(200);
    await waitFor(
      "A scrapes its node",
      async () => {
        const r = (await a.api("POST", "/metrics/query/filtered", { query: "ledger_blockchain_height" })).json();
        return r.pagination?.total === 1 ? true : undefined;
      },
      30_000,
    );
  }, 90_000);
  afterAll(async () => {
    if (a) await a.api("POST", "/metrics/undeploy");
    await Promise.all([a?.t.close(), b?.t.close()]);
    for (const s of exporters) s.close();
  });

  /** B's connection to A, as B numbers it. */
  const onB = async (): Promise<string> =>
    String(((await b.api("GET", "/node/connected-peers")).json().connected_peers as Json[])[0]?.id);

  it("answers A's 403 until A grants B, and 404 naming an unknown connection", async () => {
    expect(connId).toBeGreaterThan(0);
    const before = await b.api("GET", `/metrics/connection/${a.id.nodeId}/metrics`);
    expect(before.statusCode, before.body).toBe(403);
    expect(before.json().message).toMatch(/does not grant metrics federation/);
    for (const ref of ["9999", "cl-ffffffffffffffffffffffffffffffff"]) {
      const none = await b.api("GET", `/metrics/connection/${ref}/filtered`);
      expect(none.statusCode).toBe(404);
      expect(none.json().message).toMatch(new RegExp(`^id: no connection with id or node id ${ref}`));
    }
    const grant = await a.api("POST", "/node/metrics-federation", {
      peer_node_id: b.id.nodeId,
      metrics_federation: true,
    });
    expect(grant.statusCode, grant.body).toBe(200);
  });

  it("GET metrics: every series of A's nodes, by node id or connection id", async () => {
    for (const ref of [a.id.nodeId, await onB()]) {
      const res = await b.api("GET", `/metrics/connection/${ref}/metrics`);
      expect(res.statusCode, res.body).toBe(200);
      const jobs = new Set(series(res.json()).map((s) => s.metric.job));
      expect([...jobs]).toEqual(["cmpeer0"]);
      expect(series(res.json()).map((s) => s.metric.__name__)).toEqual(
        expect.arrayContaining(["ledger_blockchain_height", "go_goroutines"]),
      );
    }
  });

  it("GET range: a range query answered by A", async () => {
    const now = Math.floor(Date.now() / 1000);
    const qs = new URLSearchParams({
      query: 'ledger_blockchain_height{job="anything"}',
      start: new Date((now - 20) * 1000).toISOString(),
      end: new Date((now + 2) * 1000).toISOString(),
      step: "2s",
    });
    const res = await b.api("GET", `/metrics/connection/${a.id.nodeId}/range?${qs}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.resultType).toBe("matrix");
    expect(series(res.json())[0]?.metric).toMatchObject({ job: "cmpeer0", channel: "gamma" });
    const missing = await b.api("GET", `/metrics/connection/${a.id.nodeId}/range?query=up`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/start|end|step/);
  });

  it("filtered GET and POST: filters applied here, scoping there, pages here", async () => {
    const get = await b.api(
      "GET",
      `/metrics/connection/${a.id.nodeId}/filtered?filters=${encodeURIComponent("__name__:eq:ledger_blockchain_height")}`,
    );
    expect(get.statusCode, get.body).toBe(200);
    expect(get.json().pagination).toEqual({ limit: 100, offset: 0, total: 1 });
    expect(series(get.json())[0]?.value[1]).toBe("11");
    const post = await b.api("POST", `/metrics/connection/${a.id.nodeId}/query/filtered`, {
      query: "go_goroutines or ledger_blockchain_height",
      filters: [
        { property: "value", operator: "gte", value: 10 },
        { property: "job", operator: "eq", value: "cmpeer0" },
      ],
      filters_extra: null,
    });
    expect(post.statusCode, post.body).toBe(200);
    expect(series(post.json()).map((s) => s.metric.__name__)).toEqual(["ledger_blockchain_height"]);
    // A job filter can't reach past A's scoping: another job is empty, not foreign.
    const other = await b.api("POST", `/metrics/connection/${a.id.nodeId}/query/filtered`, {
      filters: [{ property: "job", operator: "ne", value: "cmpeer0" }],
    });
    expect(other.json().pagination.total).toBe(0);
    const bad = await b.api("POST", `/metrics/connection/${a.id.nodeId}/query/filtered`, {
      filters: [{ property: "a b", operator: "eq", value: "x" }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^filters\[0\]\.property/);
    // Go's empty body: every series A shares.
    const empty = await b.t.app.inject({
      method: "POST",
      url: `/api/v1/metrics/connection/${a.id.nodeId}/query/filtered`,
      headers: { ...b.t.admin, "content-type": "application/json" },
      payload: "",
    });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json().pagination.total).toBeGreaterThanOrEqual(3);
  });

  it("a viewer on B may read; anonymous callers may not", async () => {
    const viewer = apiOf(b.t, await createUser(b.t, "cmviewer", "viewer"));
    expect((await viewer("GET", `/metrics/connection/${a.id.nodeId}/metrics`)).statusCode).toBe(200);
    expect((await viewer("POST", `/metrics/connection/${a.id.nodeId}/query/filtered`, {})).statusCode).toBe(200);
    const anon = await b.t.app.inject({ method: "GET", url: `/api/v1/metrics/connection/${a.id.nodeId}/metrics` });
    expect(anon.statusCode).toBe(401);
  });
});
