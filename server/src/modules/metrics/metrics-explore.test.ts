import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../test-support/ports.js";
import { insertScrapedPeer, prometheusAvailable, startExporter } from "../../test-support/scrape-targets.js";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const havePrometheus = prometheusAvailable("the metrics query route tests");

/**
 * Upstream's filtered, search, metadata, log, port and job routes against a real Prometheus scraping
 * two exporters that stand for two nodes' operations endpoints (the e2e test scrapes a real peer).
 */
describe.skipIf(!havePrometheus).each(dialects())("metrics queries on %s", (dialect) => {
  let t: TestApp;
  let viewer: { authorization: string };
  let manager: { authorization: string };
  const exporters: Server[] = [];
  const nodes: Record<string, { id: number; slug: string }> = {};
  const call = (method: "GET" | "POST", url: string, payload?: object | string, headers = t.admin) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { ...headers, ...(typeof payload === "string" ? { "content-type": "application/json" } : {}) },
      ...(payload !== undefined ? { payload } : {}),
    });
  const ok = async (method: "GET" | "POST", url: string, payload?: object | string, headers = t.admin) => {
    const res = await call(method, url, payload, headers);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res.json() as Json;
  };
  const series = (body: Json): Json[] => (body.data.result ?? body.data) as Json[];
  const jobsOf = (body: Json): string[] => [...new Set(series(body).map((s) => (s.metric ?? s).job as string))].sort();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    viewer = await createUser(t, "mqviewer", "viewer");
    manager = await createUser(t, "mqmanager", "manager");
    const extra = (n: number) => [
      "# HELP go_goroutines Number of goroutines.",
      "# TYPE go_goroutines gauge",
      `go_goroutines ${n}`,
    ];
    const a = await startExporter(7, "alpha", extra(42));
    const b = await startExporter(3, "beta", extra(9));
    exporters.push(a.server, b.server);
    nodes.peer = await insertScrapedPeer(t, "mqpeer0", a.address);
    nodes.other = await insertScrapedPeer(t, "mqother0", b.address);
    const deployed = await call("POST", "/metrics/deploy", {
      prometheus_port: await freePort(),
      prometheus_version: "v2.42.0",
      scrape_interval: 1,
    });
    expect(deployed.statusCode, deployed.body).toBe(200);
    await waitFor(
      "both exporters scraped",
      async () => {
        const r = (await call("POST", "/metrics/query/filtered", { query: "ledger_blockchain_height" })).json();
        return r.pagination?.total === 2 ? true : undefined;
      },
      30_000,
    );
  }, 90_000);
  afterAll(async () => {
    if (t) await call("POST", "/metrics/undeploy");
    await t?.close();
    for (const s of exporters) s.close();
  });

  it("GET /metrics/node/{id}: every series of the node by default, or a query scoped to it", async () => {
    const all = await ok("GET", `/metrics/node/${nodes.peer?.id}`);
    expect(all.status).toBe("success");
    expect(jobsOf(all)).toEqual(["mqpeer0"]);
    const names = series(all).map((s) => s.metric.__name__ as string);
    expect(names).toEqual(expect.arrayContaining(["ledger_blockchain_height", "go_goroutines", "up"]));
    const foreign = await ok(
      "GET",
      `/metrics/node/${nodes.peer?.id}?query=${encodeURIComponent('go_goroutines{job="mqother0"} or on() vector(1)')}`,
    );
    for (const s of series(foreign)) expect(s.metric.job ?? "mqpeer0").toBe("mqpeer0");
    expect((await call("GET", "/metrics/node/999999")).statusCode).toBe(404);
  });

  it("filters a node's series in each of upstream's query-string spellings", async () => {
    const id = nodes.peer?.id;
    const q = encodeURIComponent;
    for (const qs of [
      `filters=${q("__name__:eq:ledger_blockchain_height,channel:starts_with:al")}`,
      `filter=${q("__name__:eq:ledger_blockchain_height")}&filter=${q("channel:in:alpha|gamma")}`,
      `${q("filter[__name__][eq]")}=ledger_blockchain_height&${q("filter[channel][regex]")}=al.*`,
    ]) {
      const r = await ok("GET", `/metrics/node/${id}/filtered?${qs}`);
      expect(series(r), qs).toHaveLength(1);
      expect(series(r)[0]?.metric).toMatchObject({ job: "mqpeer0", channel: "alpha" });
      expect(r.applied_filters).toHaveLength(2);
      expect(r.pagination).toEqual({ limit: 100, offset: 0, total: 1 });
    }
    const byValue = await ok("GET", `/metrics/node/${id}/filtered?query=go_goroutines&filters=value:gt:40`);
    expect(series(byValue)).toHaveLength(1);
    expect(await ok("GET", `/metrics/node/${id}/filtered?query=go_goroutines&filters=value:lt:40`)).toMatchObject({
      pagination: { total: 0 },
    });
    // Paging through the node's series: stable order, the total of the whole answer.
    const first = await ok("GET", `/metrics/node/${id}/filtered?limit=2`);
    const second = await ok("GET", `/metrics/node/${id}/filtered?limit=2&offset=2`);
    expect(first.pagination.total).toBeGreaterThanOrEqual(4);
    expect(series(first)).toHaveLength(2);
    expect(series(second)[0]).not.toEqual(series(first)[0]);
  });

  it("refuses PromQL injection through filters and the query, naming the field", async () => {
    const id = nodes.peer?.id;
    const bad = await call("POST", `/metrics/node/${id}/query/filtered`, {
      query: "up",
      filters: [{ property: 'job"} or {__name__=~".+', operator: "eq", value: "x" }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^filters\[0\]\.property: /);
    const op = await call("GET", `/metrics/node/${id}/filtered?filters=${encodeURIComponent("channel:like:x")}`);
    expect(op.statusCode).toBe(400);
    expect(op.json().message).toMatch(/^filters\[0\]\.operator: /);
    const unknown = await call("GET", `/metrics/node/${id}/filtered?querry=up`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/^querry: unknown query parameter/);
    const syntax = await call("POST", `/metrics/node/${id}/query/filtered`, { query: "sum(up" });
    expect(syntax.statusCode).toBe(400);
    expect(syntax.json().message).toMatch(/^query: /);
    // A value that tries to close the string stays a value: nothing matches, nothing foreign is read.
    const escaped = await ok("POST", `/metrics/node/${id}/query/filtered`, {
      query: "ledger_blockchain_height",
      filters: [{ property: "channel", operator: "eq", value: '"} or ledger_blockchain_height{job="mqother0' }],
    });
    expect(escaped.pagination.total).toBe(0);
    // A job filter narrows the scope; it can't widen it to another node.
    const widen = await ok("POST", `/metrics/node/${id}/query/filtered`, {
      query: "ledger_blockchain_height",
      filters: [{ property: "job", operator: "regex", value: ".*" }],
    });
    expect(jobsOf(widen)).toEqual(["mqpeer0"]);
    const other = await ok("POST", `/metrics/node/${id}/query/filtered`, {
      query: "ledger_blockchain_height",
      filters: [{ property: "job", operator: "eq", value: "mqother0" }],
    });
    expect(other.pagination.total).toBe(0);
  });

  it("takes Go-shaped bodies: empty with a JSON content type, nulls, zero times and extra fields", async () => {
    const id = nodes.peer?.id;
    const empty = await ok("POST", `/metrics/node/${id}/query/filtered`, "");
    expect(jobsOf(empty)).toEqual(["mqpeer0"]);
    const go = await ok("POST", `/metrics/node/${id}/query/filtered`, {
      query: "ledger_blockchain_height",
      filters: null,
      start: "0001-01-01T00:00:00Z",
      end: "0001-01-01T00:00:00Z",
      step: "",
      limit: 0,
      offset: 0,
      extra_field: true,
    });
    expect(go.metadata.result_type).toBe("vector");
    expect(series(go)).toHaveLength(1);
    const now = Math.floor(Date.now() / 1000);
    const range = await ok("POST", `/metrics/job/mqpeer0/query/filtered`, {
      query: "ledger_blockchain_height",
      filters: [{ property: "channel", operator: "eq", value: "alpha" }],
      start: new Date((now - 30) * 1000).toISOString(),
      end: new Date((now + 5) * 1000).toISOString(),
      step: "5s",
    });
    expect(range.metadata.result_type).toBe("matrix");
    expect(series(range)[0]?.values.length).toBeGreaterThan(0);
  });

  it("serves a job's filtered reads, custom query and label values", async () => {
    const filtered = await ok("GET", "/metrics/job/mqother0/filtered?query=ledger_blockchain_height");
    expect(series(filtered)[0]?.metric).toMatchObject({ job: "mqother0", channel: "beta" });
    const query = await ok("POST", "/metrics/job/mqother0/query", { query: "go_goroutines" });
    expect(query.data.result[0].value[1]).toBe("9");
    const labels = await ok("GET", "/metrics/job/mqother0/label/channel/values");
    expect(labels).toEqual({ status: "success", data: ["beta"] });
    const badLabel = await call("GET", "/metrics/job/mqother0/label/bad-label/values");
    expect(badLabel.statusCode).toBe(400);
    expect(badLabel.json().message).toMatch(/^label: /);
    expect((await call("POST", "/metrics/job/nosuchjob/query", { query: "up" })).statusCode).toBe(404);
    expect((await call("POST", "/metrics/job/mqother0/query", "")).statusCode).toBe(400);
  });

  it("queries every job of the configuration and searches series by name", async () => {
    const global = await ok("POST", "/metrics/query/filtered", {
      query: "ledger_blockchain_height",
      filters: [{ property: "job", operator: "in", value: ["mqpeer0", "mqother0"] }],
    });
    expect(jobsOf(global)).toEqual(["mqother0", "mqpeer0"]);
    const found = await ok("GET", "/metrics/search?q=BLOCKCHAIN");
    expect(series(found).map((s) => s.__name__)).toEqual(["ledger_blockchain_height", "ledger_blockchain_height"]);
    const narrowed = await ok("GET", `/metrics/search?q=goroutines&filters=${encodeURIComponent("job:eq:mqother0")}`);
    expect(series(narrowed)).toEqual([expect.objectContaining({ __name__: "go_goroutines", job: "mqother0" })]);
    const inject = await ok("GET", `/metrics/search?q=${encodeURIComponent('.*"} or {__name__=~".+')}`);
    expect(inject.pagination.total).toBe(0);
    const value = await call("GET", "/metrics/search?filters=value:gt:1");
    expect(value.statusCode).toBe(400);
    expect(value.json().message).toMatch(/^filters: /);
  });

  it("serves metric metadata", async () => {
    const all = await ok("GET", "/metrics/metadata");
    expect(all.data.ledger_blockchain_height[0]).toMatchObject({
      type: "gauge",
      help: "Height of the chain in blocks.",
    });
    const one = await ok("GET", "/metrics/metadata?metric=go_goroutines");
    expect(Object.keys(one.data)).toEqual(["go_goroutines"]);
    expect((await call("GET", "/metrics/metadata?metric=bad-name")).statusCode).toBe(400);
  });

  it("says whether a port is free for Prometheus, and refuses a bad port", async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const busyPort = (busy.address() as AddressInfo).port;
    expect(await ok("GET", `/metrics/port/${busyPort}/check`)).toEqual({ available: false });
    busy.close();
    expect(await ok("GET", `/metrics/port/${await freePort()}/check`)).toEqual({ available: true });
    const status = await ok("GET", "/metrics/status");
    expect(await ok("GET", `/metrics/port/${status.port}/check`)).toEqual({ available: false });
    for (const p of ["70000", "0", "abc"]) {
      const res = await call("GET", `/metrics/port/${p}/check`);
      expect(res.statusCode, p).toBe(400);
      expect(res.json().message).toMatch(/port/);
    }
  });

  it("tails Prometheus's log, and follows it until the client goes", { timeout: 30_000 }, async () => {
    const res = await call("GET", "/metrics/logs?tail=5");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
    const lines = res.body.trim().split("\n");
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(5);
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1`;
    const abort = new AbortController();
    const followed = await fetch(`${base}/metrics/logs?tail=2&follow=true`, {
      headers: { ...t.admin, accept: "text/event-stream" },
      signal: abort.signal,
    });
    expect(followed.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = (followed.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    // The tail arrives first; a reload makes Prometheus write a new line while we follow.
    await call("POST", "/metrics/reload");
    while (!/Completed loading of configuration file/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).toMatch(/^data: /);
    expect(text).toMatch(/Completed loading of configuration file/);
    abort.abort();
    await reader.cancel().catch(() => undefined);
  });

  it("lets a viewer read and query but not check ports; anonymous callers get nothing", async () => {
    expect((await call("GET", `/metrics/node/${nodes.peer?.id}/filtered`, undefined, viewer)).statusCode).toBe(200);
    expect((await call("POST", "/metrics/query/filtered", { query: "up" }, viewer)).statusCode).toBe(200);
    expect((await call("GET", "/metrics/logs?tail=1", undefined, viewer)).statusCode).toBe(200);
    expect((await call("GET", `/metrics/port/${await freePort()}/check`, undefined, viewer)).statusCode).toBe(403);
    expect((await call("GET", `/metrics/port/${await freePort()}/check`, undefined, manager)).statusCode).toBe(200);
    expect((await call("GET", "/metrics/search", undefined, {} as { authorization: string })).statusCode).toBe(401);
    const audited = await t.database.db
      .selectFrom("audit_logs")
      .select(["affected_resource"])
      .where("event_type", "=", "metrics.query")
      .execute();
    expect(audited.map((a) => a.affected_resource)).toEqual(
      expect.arrayContaining([`node:${nodes.peer?.id}`, "metrics_job:mqother0"]),
    );
  });
});
