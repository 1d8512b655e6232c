import { afterAll, describe, expect, it } from "vitest";
import { consoleTagOf, dockerClient, LABEL } from "../../runtime/docker/index.js";
import { testDockerHost } from "../../test-support/docker.js";
import { fabricApi, haveFabricBinaries, waitFor, type FabricApi, type Json } from "../../test-support/fabric-api.js";
import { freePort } from "../../test-support/ports.js";
import { resolvePrometheus } from "./prometheus-binary.js";

/**
 * `POST /metrics/deploy` with `deployment_mode: docker`, as upstream's Go client sends it: the
 * installed Prometheus runs in a container the console builds (no registry), on the host's network,
 * scrapes the real peer and orderer with the same config, reloads it, is adopted after a console
 * restart, and undeploy removes the container.
 */
const host = testDockerHost("Prometheus in Docker e2e");
const bins = await haveFabricBinaries("Prometheus in Docker e2e");
const prometheus = (() => {
  try {
    return resolvePrometheus();
  } catch (err) {
    console.warn(`Prometheus in Docker e2e: skipped: ${(err as Error).message}`);
    return undefined;
  }
})();

let harness: FabricApi | undefined;
afterAll(async () => {
  await harness?.call("POST", "/metrics/undeploy");
  await harness?.close();
});

describe("the managed Prometheus in Docker", () => {
  it.skipIf(!host || !bins || !prometheus)(
    "deploys in a container, scrapes the nodes, reloads, is adopted after a restart and undeploys",
    { timeout: 400_000 },
    async () => {
      const docker = dockerClient({ name: "test", host: host! });
      const h = await fabricApi({ env: { CHAINLAUNCH_DOCKER_HOST: host! } });
      harness = h;
      const { peer, orderer } = await h.peerOrdererChannel({ code: "Pd", prefix: "pd", channel: "pdchannel" });
      const defaults = await h.ok("GET", "/metrics/defaults");
      expect(defaults.docker_config).toEqual({ network_mode: "host" });
      const bridged = await h.call("POST", "/metrics/deploy", {
        deployment_mode: "docker",
        prometheus_port: await freePort(),
        prometheus_version: "v2.42.0",
        scrape_interval: 1,
        docker_config: { network_mode: "bridge" },
      });
      expect(bridged.status).toBe(400);
      expect(bridged.body.message).toMatch(/^docker_config\.network_mode: only "host" is supported/);

      const port = await freePort();
      const deployed = await h.ok("POST", "/metrics/deploy", {
        deployment_mode: "docker",
        prometheus_port: port,
        prometheus_version: "v2.42.0",
        scrape_interval: 1,
        docker_config: { network_mode: "host" },
      });
      expect(deployed.message).toMatch(/Docker container/);
      const containers = async (): Promise<string[]> =>
        (
          await docker.listContainers({
            all: true,
            filters: JSON.stringify({
              label: [`${LABEL.id}=prometheus`, `${LABEL.console}=${consoleTagOf(h.t.config.dataDir)}`],
            }),
          })
        ).map((c) => c.Id);
      const [id] = await containers();
      expect(id).toMatch(/^[0-9a-f]{64}$/);
      const status = await h.ok("GET", "/metrics/status");
      expect(status).toMatchObject({ status: "running", deployment_mode: "docker", network_mode: "host", port });

      const targets = async (): Promise<Json[]> => (await h.ok("GET", "/metrics/targets")).activeTargets as Json[];
      const up = await waitFor(
        "the peer and the orderer scraped from the container",
        async () => {
          const t = await targets();
          return t.length === 2 && t.every((x) => x.health === "up") ? t : undefined;
        },
        60_000,
      );
      expect(up.map((x) => x.labels.node_id).sort()).toEqual([String(peer.id), String(orderer.id)].sort());
      await h.ok("POST", "/metrics/reload");
      const q = await waitFor(
        "the peer's height series",
        async () => {
          const r = await h.ok("POST", `/metrics/node/${peer.id}/query`, {
            query: 'ledger_blockchain_height{channel="pdchannel"}',
          });
          return (r.data.result as Json[]).length ? r : undefined;
        },
        30_000,
      );
      expect(Number(q.data.result[0].value[1])).toBeGreaterThanOrEqual(2);

      // A console restart adopts the same container.
      await h.t.restart();
      await waitFor(
        "Prometheus running after the restart",
        async () => ((await h.ok("GET", "/metrics/status")).status === "running" ? true : undefined),
        30_000,
      );
      expect(await containers()).toEqual([id]);

      // As the Go client does it: an empty body with Content-Type application/json.
      const undeploy = await h.t.app.inject({
        method: "POST",
        url: "/api/v1/metrics/undeploy",
        headers: { ...h.t.admin, "content-type": "application/json" },
        payload: "",
      });
      expect(undeploy.statusCode).toBe(200);
      expect(await containers()).toEqual([]);
      expect((await h.ok("GET", "/metrics/status")).status).toBe("not_deployed");
    },
  );
});
