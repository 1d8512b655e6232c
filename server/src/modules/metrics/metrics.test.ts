import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../test-support/ports.js";
import { insertScrapedPeer, prometheusAvailable, startExporter } from "../../test-support/scrape-targets.js";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const havePrometheus = prometheusAvailable("the managed Prometheus tests");

describe.skipIf(!havePrometheus).each(dialects())("the managed Prometheus on %s", (dialect) => {
  let t: TestApp;
  let viewer: { authorization: string };
  let port: number;
  const exporters: Server[] = [];
  const nodes: Record<string, { id: number; slug: string }> = {};
  const call = (method: "GET" | "POST", url: string, payload?: object, headers = t.admin) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    viewer = await createUser(t, "metricsviewer", "viewer");
    port = await freePort();
    const a = await startExporter(7, "alpha", ["# TYPE go_goroutines gauge", "go_goroutines 42"]);
    const b = await startExporter(3, "beta", ["# TYPE go_goroutines gauge", "go_goroutines 42"]);
    exporters.push(a.server, b.server);
    nodes.peer = await insertScrapedPeer(t, "mpeer0", a.address);
    nodes.other = await insertScrapedPeer(t, "mother0", b.address);
  }, 60_000);
  afterAll(async () => {
    if (t) await call("POST", "/metrics/undeploy");
    await t?.close();
    for (const s of exporters) s.close();
  });

  it("reports not deployed, and answers queries with 409 until it is", async () => {
    expect((await call("GET", "/metrics/status")).json()).toMatchObject({ status: "not_deployed" });
    const defaults = (await call("GET", "/metrics/defaults")).json();
    expect(defaults).toMatchObject({ deployment_mode: "service", scrape_interval: 15, binary_found: true });
    expect(defaults.available_ports.length).toBeGreaterThan(0);
    const q = await call("POST", `/metrics/node/${nodes.peer?.id}/query`, { query: "up" });
    expect(q.statusCode).toBe(409);
    expect(q.json().message).toMatch(/not deployed/);
  });

  it("refuses docker mode, bad fields and a busy port by name, deploying nothing", async () => {
    const docker = await call("POST", "/metrics/deploy", {
      deployment_mode: "docker",
      prometheus_port: port,
      prometheus_version: "v2.42.0",
      scrape_interval: 1,
    });
    expect(docker.statusCode).toBe(400);
    expect(docker.json().message).toMatch(
      /^deployment_mode: docker: no Docker engine is configured: set CHAINLAUNCH_DOCKER_HOST/,
    );
    const bad = await call("POST", "/metrics/deploy", {
      prometheus_port: 80,
      prometheus_version: "x",
      scrape_interval: 0,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/prometheus_port|scrape_interval/);
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const busyPort = (busy.address() as AddressInfo).port;
    const conflict = await call("POST", "/metrics/deploy", {
      prometheus_port: busyPort,
      prometheus_version: "v2.42.0",
      scrape_interval: 1,
    });
    busy.close();
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().message).toMatch(new RegExp(`prometheus_port: ${busyPort} is in use`));
    expect((await call("GET", "/metrics/status")).json().status).toBe("not_deployed");
  });

  it("lets a viewer read but not deploy", async () => {
    const res = await call(
      "POST",
      "/metrics/deploy",
      { prometheus_port: port, prometheus_version: "v2.42.0", scrape_interval: 1 },
      viewer,
    );
    expect(res.statusCode).toBe(403);
    expect((await call("GET", "/metrics/status", undefined, viewer)).statusCode).toBe(200);
  });

  it("deploys a real Prometheus that scrapes every node", { timeout: 90_000 }, async () => {
    const res = await call("POST", "/metrics/deploy", {
      prometheus_port: port,
      prometheus_version: "v2.42.0",
      scrape_interval: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    const status = (await call("GET", "/metrics/status")).json();
    expect(status).toMatchObject({ status: "running", port, scrape_interval_seconds: 1, deployment_mode: "service" });
    expect(status.scrape_interval).toBe(1_000_000_000);
    // The label it was deployed with (what Terraform compares with its plan), and what really runs.
    expect(status.version).toBe("v2.42.0");
    expect(status.binary_version).toMatch(/^2\.\d+\.\d+/);
    const targets = await waitFor(
      "both nodes scraped and up",
      async () => {
        const data = (await call("GET", "/metrics/targets")).json();
        const active = (data.activeTargets ?? []) as Json[];
        return active.length === 2 && active.every((a) => a.health === "up") ? active : undefined;
      },
      30_000,
    );
    expect(targets.map((a) => a.labels.job).sort()).toEqual(["mother0", "mpeer0"]);
    expect(targets.find((a) => a.labels.job === "mpeer0")?.labels).toMatchObject({ node_id: String(nodes.peer?.id) });
  });

  it("answers a node's query with that node's series", async () => {
    const res = await call("POST", `/metrics/node/${nodes.peer?.id}/query`, { query: "ledger_blockchain_height" });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json().data.result as Json[];
    expect(result).toHaveLength(1);
    expect(result[0]?.metric).toMatchObject({ job: "mpeer0", channel: "alpha" });
    expect(result[0]?.value[1]).toBe("7");
  });

  it.each([
    ["up or on() vector(1)"],
    ['up{job="mother0"}'],
    ['{__name__=~".+"}'],
    ['ledger_blockchain_height{job=~"mother0|mpeer0"}'],
    ['label_replace(up{job="mother0"}, "x", "y", "", "")'],
    ['sum by (job, channel) (ledger_blockchain_height{job!="mpeer0"})'],
  ])("gives no foreign series for %s", async (query) => {
    const res = await call("POST", `/metrics/node/${nodes.peer?.id}/query`, { query });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json().data.result as Json[];
    for (const series of result) {
      expect(series.metric.job ?? "mpeer0").toBe("mpeer0");
      expect(series.metric.channel ?? "alpha").toBe("alpha");
    }
  });

  it("answers bad PromQL with 400 and Prometheus's message", async () => {
    const parse = await call("POST", `/metrics/node/${nodes.peer?.id}/query`, { query: "rate(up[5m]" });
    expect(parse.statusCode).toBe(400);
    expect(parse.json().message).toMatch(/^query: .*(parse error|unclosed|unexpected)/);
    const type = await call("POST", `/metrics/node/${nodes.peer?.id}/query`, { query: "rate(up)" });
    expect(type.statusCode).toBe(400);
    expect(type.json().message).toMatch(/^query: .*range vector/);
  });

  it("runs range queries and names bad range fields", async () => {
    const end = Math.ceil(Date.now() / 1000) + 1; // after the newest sample
    const range = await call("POST", `/metrics/node/${nodes.peer?.id}/query`, {
      query: "ledger_blockchain_height",
      start: new Date((end - 60) * 1000).toISOString(),
      end: String(end),
      step: "5s",
    });
    expect(range.statusCode, range.body).toBe(200);
    expect(range.json().data.resultType).toBe("matrix");
    const get = await call(
      "GET",
      `/metrics/node/${nodes.peer?.id}/range?query=ledger_blockchain_height&start=${end - 60}&end=${end}&step=5s`,
    );
    expect(get.json().data.result[0]?.metric.job, get.body).toBe("mpeer0");
    const onlyStart = await call("POST", `/metrics/node/${nodes.peer?.id}/query`, { query: "up", start: String(end) });
    expect(onlyStart.json().message).toMatch(/^end: /);
    const badStep = await call("POST", `/metrics/node/${nodes.peer?.id}/query`, {
      query: "up",
      start: String(end - 86_400 * 30),
      end: String(end),
      step: "1s",
    });
    expect(badStep.statusCode).toBe(400);
    expect(badStep.json().message).toMatch(/^step: /);
    const badTime = await call("POST", `/metrics/node/${nodes.peer?.id}/query`, {
      query: "up",
      start: "yesterday",
      end: String(end),
    });
    expect(badTime.json().message).toMatch(/^start: /);
  });

  it("lists label values of the node's own series only", async () => {
    const res = await call("GET", `/metrics/node/${nodes.peer?.id}/label/channel/values`);
    expect(res.json()).toEqual({ status: "success", data: ["alpha"] });
    const matched = await call(
      "GET",
      `/metrics/node/${nodes.peer?.id}/label/job/values?match=${encodeURIComponent('up{job="mother0"}')}`,
    );
    expect(matched.json().data).toEqual(["mpeer0"]);
    const bad = await call(
      "GET",
      `/metrics/node/${nodes.peer?.id}/label/job/values?match=${encodeURIComponent("up or up")}`,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^match\[0\]: /);
  });

  it("queries by job name, and 404s for a job that is no node", async () => {
    const res = await call("GET", "/metrics/job/mother0?query=ledger_blockchain_height");
    expect(res.json().data.result[0].value[1]).toBe("3");
    const end = Math.ceil(Date.now() / 1000) + 1; // after the newest sample
    const range = await call("GET", `/metrics/job/mother0/range?query=up&start=${end - 30}&end=${end}&step=5s`);
    expect(range.json().data.resultType).toBe("matrix");
    expect((await call("GET", "/metrics/job/prometheus")).statusCode).toBe(404);
  });

  it("follows node deletions in the scrape config", { timeout: 60_000 }, async () => {
    await t.database.db
      .deleteFrom("nodes")
      .where("id", "=", nodes.other?.id ?? 0)
      .execute();
    t.bus.publish("node.deleted", { node_id: nodes.other?.id });
    await waitFor(
      "the deleted node's target to go",
      async () => {
        const active = ((await call("GET", "/metrics/targets")).json().activeTargets ?? []) as Json[];
        return active.length === 1 && active[0]?.labels.job === "mpeer0" ? true : undefined;
      },
      30_000,
    );
  });

  it("scrapes a running plugin's metrics endpoint, and stops when the plugin stops", { timeout: 60_000 }, async () => {
    const pluginPort = await freePort();
    const server = [
      "require('http').createServer((q,s)=>{s.end(q.url==='/metrics'?'plugin_demo_requests_total 5\\n':'ok')})",
      ".listen(Number(process.argv[1]),'127.0.0.1');process.on('SIGTERM',()=>process.exit(0));",
    ].join("");
    const yaml = [
      "apiVersion: dev.chainlaunch/v1",
      "kind: Plugin",
      "metadata: {name: metrics-demo}",
      "spec:",
      "  parameters: {type: object, properties: {port: {type: integer}}, required: [port]}",
      "  processes:",
      "    - name: web",
      '      command: "{{ .runtime.node }}"',
      `      args: ["-e", ${JSON.stringify(server)}, "{{ .parameters.port }}"]`,
      '      healthCheck: {type: http, port: "{{ .parameters.port }}", path: /}',
      "  metrics:",
      '    endpoints: [{service: web, port: "{{ .parameters.port }}", path: /metrics}]',
    ].join("\n");
    const created = await t.app.inject({
      method: "POST",
      url: "/api/v1/plugins",
      headers: { ...t.admin, "content-type": "application/yaml" },
      payload: yaml,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await call("POST", "/plugins/metrics-demo/deploy", { port: pluginPort })).statusCode).toBe(200);
    const target = await waitFor(
      "the plugin's endpoint scraped",
      async () => {
        const active = ((await call("GET", "/metrics/targets")).json().activeTargets ?? []) as Json[];
        const t0 = active.find((a) => a.labels.job === "plugin-metrics-demo-web");
        return t0?.health === "up" ? t0 : undefined;
      },
      30_000,
    );
    expect(target.labels).toMatchObject({ plugin: "metrics-demo", service: "web" });
    const q = await waitFor(
      "the plugin's series",
      async () => {
        const r = (await call("GET", "/metrics/job/plugin-metrics-demo-web?query=plugin_demo_requests_total")).json();
        return r.data?.result?.[0] ? r : undefined;
      },
      20_000,
    );
    expect(q.data.result[0].value[1]).toBe("5");
    expect((await call("POST", "/plugins/metrics-demo/stop")).statusCode).toBe(200);
    await waitFor(
      "the stopped plugin's target to go",
      async () => {
        const active = ((await call("GET", "/metrics/targets")).json().activeTargets ?? []) as Json[];
        return active.some((a) => a.labels.job === "plugin-metrics-demo-web") ? undefined : true;
      },
      30_000,
    );
    expect((await call("POST", "/plugins/metrics-demo/deploy", {})).statusCode).toBe(400);
    await t.app.inject({ method: "DELETE", url: "/api/v1/plugins/metrics-demo", headers: t.admin });
  });

  it("is adopted by a restarted console, not started twice", { timeout: 60_000 }, async () => {
    const before = (await call("GET", "/metrics/status")).json();
    await t.restart();
    const after = (await call("GET", "/metrics/status")).json();
    expect(after).toMatchObject({ status: "running", port, started_at: before.started_at });
  });

  it("undeploys", async () => {
    expect((await call("POST", "/metrics/undeploy")).statusCode).toBe(200);
    expect((await call("GET", "/metrics/status")).json().status).toBe("not_deployed");
    expect((await call("GET", "/metrics/targets")).statusCode).toBe(409);
  });
});

describe("without a prometheus binary", () => {
  it("answers deploy with 503 naming what to install, and deploys nothing", async () => {
    const t = await createTestApp("sqlite", { CHAINLAUNCH_PROMETHEUS_BIN: "/nonexistent/prometheus" });
    try {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/metrics/deploy",
        headers: t.admin,
        payload: { prometheus_port: 9099, prometheus_version: "v2.42.0", scrape_interval: 15 },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ error: "PROMETHEUS_MISSING" });
      expect(res.json().message).toMatch(/apt-get install prometheus/);
      const defaults = await t.app.inject({ method: "GET", url: "/api/v1/metrics/defaults", headers: t.admin });
      expect(defaults.json().binary_found).toBe(false);
    } finally {
      await t.close();
    }
  });
});
