import { readFile } from "node:fs/promises";
import type { Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readPidRecord } from "../../runtime/index.js";
import { freePort } from "../../test-support/ports.js";
import { insertScrapedPeer, prometheusAvailable, startExporter } from "../../test-support/scrape-targets.js";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const havePrometheus = prometheusAvailable("the Prometheus lifecycle tests");

/** Whether a process with this pid exists (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether anything answers Prometheus's readiness endpoint on the port. */
async function ready(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/-/ready`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

/**
 * Stop, start and refresh of the managed Prometheus, and custom scrape jobs (upstream's generic
 * jobs), against the real Debian Prometheus. Requests are sent the way upstream's Go clients send
 * them: an empty body with `Content-Type: application/json` on the body-less POSTs and DELETE, and
 * `null` for an empty target list.
 */
describe.skipIf(!havePrometheus).each(dialects())("stopping, starting, refreshing and custom jobs on %s", (dialect) => {
  let t: TestApp;
  let viewer: { authorization: string };
  let port: number;
  let customAddress: string;
  const servers: Server[] = [];
  const headers = (as?: { authorization: string }) => ({ ...(as ?? t.admin), "content-type": "application/json" });
  /** A Go client's request: JSON body, or none at all with the JSON content type still set. */
  const go = (method: "GET" | "POST" | "DELETE", url: string, body?: unknown, as?: { authorization: string }) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: method === "GET" ? (as ?? t.admin) : headers(as),
      payload: body === undefined ? "" : JSON.stringify(body),
    });
  const status = async (): Promise<Json> => (await go("GET", "/metrics/status")).json();
  const activeTargets = async (): Promise<Json[]> =>
    ((await go("GET", "/metrics/targets")).json().activeTargets ?? []) as Json[];
  const upTarget = (job: string, after = "") =>
    waitFor(
      `${job} scraped and up`,
      async () => {
        const a = (await activeTargets()).find((x) => x.labels.job === job);
        return a?.health === "up" && a.lastScrape > after ? a : undefined;
      },
      30_000,
    );

  beforeAll(async () => {
    t = await createTestApp(dialect);
    viewer = await createUser(t, "lifeviewer", "viewer");
    port = await freePort();
    const peer = await startExporter(5, "life");
    const custom = await startExporter(9, "custom", ["# TYPE custom_demo_total counter", "custom_demo_total 9"]);
    servers.push(peer.server, custom.server);
    customAddress = custom.address;
    await insertScrapedPeer(t, "lpeer0", peer.address);
  }, 60_000);
  afterAll(async () => {
    if (t) await go("POST", "/metrics/undeploy");
    await t?.close();
    for (const s of servers) s.close();
  });

  it("refuses stop, start and refresh before a deploy with a 400 naming what is missing", async () => {
    for (const verb of ["stop", "start", "refresh"]) {
      const res = await go("POST", `/metrics/${verb}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ error: "PROMETHEUS_NOT_DEPLOYED" });
      expect(res.json().message).toMatch(new RegExp(`^Prometheus is not deployed, so there is nothing to ${verb}`));
    }
    expect((await status()).status).toBe("not_deployed");
  });

  it("deploys with an empty deployment_mode: upstream's default, a service here (no Docker engine)", async () => {
    const res = await go("POST", "/metrics/deploy", {
      deployment_mode: "",
      prometheus_port: port,
      prometheus_version: "v3.5.0",
      scrape_interval: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    const s = await status();
    expect(s).toMatchObject({ status: "running", port, version: "v3.5.0", deployment_mode: "service" });
    expect(s.binary_version).toMatch(/^2\.\d+\.\d+/);
    await upTarget("lpeer0");
  });

  it("stops: the process is gone, status says stopped and stays so across a console restart", async () => {
    const record = await readPidRecord(join(t.config.dataDir, "prometheus", "runtime", "pids", "prometheus.json"));
    expect(record?.pid).toBeGreaterThan(0);
    const pid = record?.pid as number;
    expect(alive(pid)).toBe(true);

    const viewerStop = await go("POST", "/metrics/stop", undefined, viewer);
    expect(viewerStop.statusCode).toBe(403);
    const res = await go("POST", "/metrics/stop");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toMatch(/^Prometheus stopped/);
    expect(alive(pid)).toBe(false);
    expect(await ready(port)).toBe(false);
    const s = await status();
    expect(s).toMatchObject({ status: "stopped", port, version: "v3.5.0", scrape_interval_seconds: 1 });
    expect(s.binary_version).toMatch(/^2\./);
    expect(s.started_at).toBeUndefined();
    // Its configuration and data stay for start.
    expect(await readFile(join(t.config.dataDir, "prometheus", "prometheus.yml"), "utf8")).toContain("lpeer0");

    const query = await go("POST", "/metrics/node/1/query", { query: "up" });
    expect(query.statusCode).toBe(409);
    expect(query.json().message).toMatch(/stopped: POST \/metrics\/start/);
    const again = await go("POST", "/metrics/stop");
    expect(again.json()).toEqual({ message: "Prometheus is not running" });

    await t.restart();
    expect((await status()).status).toBe("stopped");
    expect(await ready(port)).toBe(false);
  });

  it("starts on the same port with the same configuration and scrapes again", { timeout: 60_000 }, async () => {
    const before = new Date().toISOString();
    const res = await go("POST", "/metrics/start");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(`Prometheus started on port ${port}`);
    const s = await status();
    expect(s).toMatchObject({ status: "running", port, version: "v3.5.0", deployment_mode: "service" });
    expect(s.started_at > before).toBe(true);
    expect(await ready(port)).toBe(true);
    await upTarget("lpeer0", before);
    expect((await go("POST", "/metrics/start")).json()).toEqual({ message: "Prometheus is already running" });
  });

  it("refuses custom jobs with bad input, naming the field", async () => {
    const bad = async (body: Json): Promise<string> => {
      const res = await go("POST", "/metrics/job/add", body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json().message as string;
    };
    // Go marshals an empty []string as null.
    expect(await bad({ job_name: "empty", targets: null })).toMatch(/^body\.targets: at least one host:port target/);
    expect(await bad({ job_name: "empty", targets: [] })).toMatch(/^body\.targets: at least one/);
    expect(await bad({ targets: [customAddress] })).toMatch(/^body\.job_name: /);
    expect(await bad({ job_name: "../x", targets: [customAddress] })).toMatch(/^body\.job_name: must be/);
    expect(await bad({ job_name: "x", targets: ["http://127.0.0.1:9100/metrics"] })).toMatch(
      /^body\.targets\.0: 'http:\/\/127\.0\.0\.1:9100\/metrics' is not host:port/,
    );
    expect(await bad({ job_name: "x", targets: ["127.0.0.1:70000"] })).toMatch(/^body\.targets\.0: /);
    expect(await bad({ job_name: "x", targets: [customAddress], scrape_interval: "fast" })).toMatch(
      /^body\.scrape_interval: must be a Prometheus duration/,
    );
    expect(await bad({ job_name: "x", targets: [customAddress], metrics_path: "metrics?x=1" })).toMatch(
      /^body\.metrics_path: must be a path/,
    );
    const taken = await go("POST", "/metrics/job/add", { job_name: "lpeer0", targets: [customAddress] });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(
      "job_name: 'lpeer0' is the job of the console's node 'lpeer0'; choose another name",
    );
    const forbidden = await go("POST", "/metrics/job/add", { job_name: "v", targets: [customAddress] }, viewer);
    expect(forbidden.statusCode).toBe(403);
    expect(Object.keys((await go("GET", "/metrics/jobs")).json())).toEqual(["lpeer0"]);
  });

  it("adds a custom job that Prometheus loads and scrapes", { timeout: 60_000 }, async () => {
    const res = await go("POST", "/metrics/job/add", {
      job_name: "custom-exporter",
      targets: [customAddress],
      metrics_path: "",
      scrape_interval: "2s",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe("Job custom-exporter added; Prometheus reloaded its configuration");
    const dup = await go("POST", "/metrics/job/add", { job_name: "custom-exporter", targets: [customAddress] });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toMatch(/^job_name: a custom job named 'custom-exporter' already exists/);

    const target = await upTarget("custom-exporter");
    expect(target.scrapeUrl).toBe(`http://${customAddress}/metrics`);
    expect(target.labels).toEqual({ instance: customAddress, job: "custom-exporter" });
    const config = await readFile(join(t.config.dataDir, "prometheus", "prometheus.yml"), "utf8");
    expect(config).toContain("job_name: custom-exporter");
    expect(config).toContain("scrape_interval: 2s");

    const jobs = (await go("GET", "/metrics/jobs", undefined, viewer)).json();
    expect(Object.keys(jobs).sort()).toEqual(["custom-exporter", "lpeer0"]);
    expect(jobs["custom-exporter"]).toMatchObject({
      job_name: "custom-exporter",
      source: "custom",
      targets: [customAddress],
      metrics_path: "/metrics",
      scrape_interval: "2s",
      health: [{ target: customAddress, health: "up", last_error: "" }],
    });
    expect(jobs.lpeer0).toMatchObject({ source: "node", scrape_interval: null });
    const q = await go("GET", "/metrics/job/custom-exporter?query=custom_demo_total");
    expect(q.json().data.result[0].value[1]).toBe("9");
  });

  it("removes only custom jobs, and the removed one's target leaves Prometheus", { timeout: 60_000 }, async () => {
    const own = await go("DELETE", "/metrics/job/lpeer0");
    expect(own.statusCode).toBe(409);
    expect(own.json().message).toMatch(
      /^jobName: 'lpeer0' is the job of the console's node 'lpeer0', which the console/,
    );
    const unknown = await go("DELETE", "/metrics/job/nothing-here");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/^jobName: no custom job named 'nothing-here'/);
    expect((await go("DELETE", "/metrics/job/custom-exporter", undefined, viewer)).statusCode).toBe(403);

    const res = await go("DELETE", "/metrics/job/custom-exporter");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe("Job custom-exporter removed; Prometheus reloaded its configuration");
    await waitFor(
      "the custom job's target to leave",
      async () => ((await activeTargets()).some((a) => a.labels.job === "custom-exporter") ? undefined : true),
      30_000,
    );
    expect(Object.keys((await go("GET", "/metrics/jobs")).json())).toEqual(["lpeer0"]);
    expect(await readFile(join(t.config.dataDir, "prometheus", "prometheus.yml"), "utf8")).not.toContain(
      "custom-exporter",
    );
  });

  it(
    "refreshes: the configuration is rewritten from the nodes and reloaded; new settings apply",
    { timeout: 90_000 },
    async () => {
      // A node the console has not announced: only a refresh puts it in the configuration.
      const late = await startExporter(2, "late");
      servers.push(late.server);
      await insertScrapedPeer(t, "lpeer1", late.address);
      const startedAt = (await status()).started_at;
      const res = await go("POST", "/metrics/refresh");
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe("Prometheus refreshed: scrape configuration rewritten and reloaded");
      await upTarget("lpeer1");

      // Upstream's zero values leave settings as they are; a new interval is a reload, not a restart.
      const slower = await go("POST", "/metrics/refresh", {
        prometheus_port: 0,
        prometheus_version: "",
        scrape_interval: 2,
        deployment_mode: "",
      });
      expect(slower.statusCode, slower.body).toBe(200);
      expect(await status()).toMatchObject({
        status: "running",
        port,
        version: "v3.5.0",
        scrape_interval_seconds: 2,
        started_at: startedAt,
      });
      expect(await readFile(join(t.config.dataDir, "prometheus", "prometheus.yml"), "utf8")).toContain(
        "scrape_interval: 2s",
      );

      const bad = await go("POST", "/metrics/refresh", { prometheus_port: 80 });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/^body\.prometheus_port: /);

      // A new port restarts it there.
      const newPort = await freePort();
      const moved = await go("POST", "/metrics/refresh", { prometheus_port: newPort, prometheus_version: "v3.5.1" });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json().message).toBe(`Prometheus refreshed: deployed on port ${newPort}`);
      expect(await status()).toMatchObject({ status: "running", port: newPort, version: "v3.5.1" });
      expect(await ready(port)).toBe(false);
      await upTarget("lpeer1");
      port = newPort;

      // Stopped, it stays stopped with the new settings saved.
      expect((await go("POST", "/metrics/stop")).statusCode).toBe(200);
      const whileStopped = await go("POST", "/metrics/refresh", { scrape_interval: 3 });
      expect(whileStopped.json().message).toMatch(/^Prometheus is stopped: its settings and scrape configuration/);
      expect(await status()).toMatchObject({ status: "stopped", scrape_interval_seconds: 3 });
      expect((await go("POST", "/metrics/start")).statusCode).toBe(200);
      expect(await status()).toMatchObject({ status: "running", port, scrape_interval_seconds: 3 });
    },
  );

  it("audits every change, refused ones too", async () => {
    const items = (await go("GET", "/audit/logs?page_size=200")).json().items as Json[];
    const seen = (type: string, outcome: string) =>
      items.some((i) => i.eventType === type && i.eventOutcome === outcome);
    for (const type of [
      "metrics.stop",
      "metrics.start",
      "metrics.refresh",
      "metrics_job.create",
      "metrics_job.delete",
    ]) {
      expect(seen(type, "SUCCESS"), type).toBe(true);
      expect(seen(type, "FAILURE"), type).toBe(true);
    }
    const created = items.find((i) => i.eventType === "metrics_job.create" && i.eventOutcome === "SUCCESS");
    expect(created?.affectedResource).toBe("metrics_job:custom-exporter");
  });

  it("undeploys as the Go client sends it, keeping nothing running", async () => {
    const res = await go("POST", "/metrics/undeploy");
    expect(res.statusCode, res.body).toBe(200);
    expect((await status()).status).toBe("not_deployed");
    expect(await ready(port)).toBe(false);
    expect((await go("POST", "/metrics/stop")).statusCode).toBe(400);
    // Custom jobs are console settings, not Prometheus data: a job added now waits for the next deploy.
    const saved = await go("POST", "/metrics/job/add", { job_name: "later", targets: [customAddress] });
    expect(saved.json().message).toBe("Job later added; it is scraped once Prometheus is deployed");
  });
});
