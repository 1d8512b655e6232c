import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleTagOf, dockerClient, LABEL } from "../../runtime/docker/index.js";
import { testDockerHost } from "../../test-support/docker.js";
import { freePort } from "../../test-support/ports.js";
import { insertScrapedPeer, prometheusAvailable, startExporter } from "../../test-support/scrape-targets.js";
import { createTestApp, type TestApp } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const host = testDockerHost("Prometheus stop and start in Docker");
const havePrometheus = prometheusAvailable("Prometheus stop and start in Docker");

/**
 * Mode "docker" through stop and start, with a metrics endpoint of the test's own instead of Fabric
 * nodes (metrics.docker.e2e.test.ts scrapes real ones): an empty deployment_mode is upstream's
 * default, docker, on a console whose engine answers; stop removes the container and keeps the
 * deployment; start makes it again on the same port. Requests are sent as upstream's Go clients send them.
 */
describe.skipIf(!host || !havePrometheus)("the managed Prometheus in Docker, stopped and started", () => {
  let t: TestApp;
  let exporter: Server;
  let port: number;
  const go = (method: "GET" | "POST", url: string, body?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: method === "GET" ? t.admin : { ...t.admin, "content-type": "application/json" },
      payload: body === undefined ? "" : JSON.stringify(body),
    });
  const containers = async (): Promise<string[]> =>
    (
      await dockerClient({ name: "test", host: host! }).listContainers({
        all: true,
        filters: JSON.stringify({
          label: [`${LABEL.id}=prometheus`, `${LABEL.console}=${consoleTagOf(t.config.dataDir)}`],
        }),
      })
    ).map((c) => c.Id);
  const scraped = (after: string) =>
    waitFor(
      "the node scraped from the container",
      async () => {
        const a = ((await go("GET", "/metrics/targets")).json().activeTargets ?? []) as Json[];
        return a[0]?.health === "up" && a[0].lastScrape > after ? a[0] : undefined;
      },
      60_000,
    );

  beforeAll(async () => {
    t = await createTestApp("sqlite", { CHAINLAUNCH_DOCKER_HOST: host! });
    const e = await startExporter(4, "dock");
    exporter = e.server;
    await insertScrapedPeer(t, "dpeer0", e.address);
    port = await freePort();
  }, 60_000);
  afterAll(async () => {
    if (t) await go("POST", "/metrics/undeploy");
    await t?.close();
    exporter?.close();
  });

  it("deploys in a container, stops it, starts it on the same port and undeploys", { timeout: 300_000 }, async () => {
    const deployed = await go("POST", "/metrics/deploy", {
      deployment_mode: "",
      prometheus_port: port,
      prometheus_version: "v3.5.0",
      scrape_interval: 1,
    });
    expect(deployed.statusCode, deployed.body).toBe(200);
    expect(deployed.json().message).toMatch(/Docker container/);
    expect((await go("GET", "/metrics/status")).json()).toMatchObject({
      status: "running",
      deployment_mode: "docker",
      network_mode: "host",
      port,
      version: "v3.5.0",
    });
    const [first] = await containers();
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    await scraped("");

    const stopped = await go("POST", "/metrics/stop");
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(await containers()).toEqual([]);
    expect((await go("GET", "/metrics/status")).json()).toMatchObject({
      status: "stopped",
      deployment_mode: "docker",
      port,
    });

    const before = new Date().toISOString();
    const started = await go("POST", "/metrics/start");
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().message).toBe(`Prometheus started on port ${port}`);
    const again = await containers();
    expect(again).toHaveLength(1);
    expect(again[0]).not.toBe(first);
    expect((await go("GET", "/metrics/status")).json()).toMatchObject({
      status: "running",
      deployment_mode: "docker",
      port,
    });
    await scraped(before);

    const undeployed = await go("POST", "/metrics/undeploy");
    expect(undeployed.statusCode, undeployed.body).toBe(200);
    expect(await containers()).toEqual([]);
    expect((await go("GET", "/metrics/status")).json().status).toBe("not_deployed");
  });
});
