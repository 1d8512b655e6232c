import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { dockerClient } from "../../runtime/docker/index.js";
import { buildBuiltins } from "../../test-support/builtins.js";
import { testDockerHost } from "../../test-support/docker.js";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  haveFabricBinaries,
  waitFor,
  type FabricApi,
  type Json,
} from "../../test-support/fabric-api.js";
import { freePort } from "../../test-support/ports.js";

/**
 * A compose plugin from the catalogue on a real dockerd: `fabric-rest-gateway-compose`, bound to a
 * real peer, an org key and a channel, deploys with docker compose (v2 when installed, else Debian's
 * docker-compose 1.29) into a Node.js image the console builds there; it serves (its /healthz, and a
 * query through the peer that reaches the channel), lists its service and logs, stops, resumes, and
 * delete leaves no container, network or volume of its project.
 */
const host = testDockerHost("compose plugin e2e");
const bins = await haveFabricBinaries("compose plugin e2e");
let harness: FabricApi | undefined;
const work = mkdtempSync(join(tmpdir(), "cl-compose-e2e-"));
afterAll(async () => {
  await harness?.call("DELETE", "/plugins/fabric-rest-gateway-compose");
  await harness?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("compose plugins", () => {
  it.skipIf(!host || !bins)(
    `deploys the catalogue's compose gateway, serves, stops, resumes and is torn down (Fabric ${VERSION})`,
    { timeout: 600_000 },
    async () => {
      const docker = dockerClient({ name: "test", host: host! });
      const builtins = await buildBuiltins(join(work, "builtins"));
      const h = await fabricApi({ env: { CHAINLAUNCH_BUILTINS_DIR: builtins, CHAINLAUNCH_DOCKER_HOST: host! } });
      harness = h;
      const { org, peer, net } = await h.peerOrdererChannel({ code: "Cp", prefix: "cp", channel: "cpchannel" });

      const entry = (await h.ok("GET", "/plugins/available")).plugins.find(
        (p: Json) => p.name === "fabric-rest-gateway-compose",
      );
      expect(entry.source).toBe("builtin");
      const installed = await h.t.app.inject({
        method: "POST",
        url: "/api/v1/plugins",
        headers: { ...h.t.admin, "content-type": "application/yaml" },
        payload: entry.raw_yaml,
      });
      expect(installed.statusCode, installed.body).toBe(201);
      const key = (await h.ok("GET", "/plugins/sources/fabric-key")).options.find(
        (o: Json) => o.value.orgId === org.id && o.description === "admin",
      ).value;
      const port = await freePort();
      const dep = await h.call("POST", "/plugins/fabric-rest-gateway-compose/deploy", {
        peer: peer.id,
        key,
        network: net.id,
        port,
      });
      expect(dep.status, JSON.stringify(dep.body)).toBe(200);
      expect(dep.body.status).toBe("running");

      const project = async (): Promise<Json[]> =>
        docker.listContainers({
          all: true,
          filters: JSON.stringify({ label: ["com.docker.compose.project=fabric-rest-gateway-compose"] }),
        }) as Promise<Json[]>;
      expect((await project()).map((c) => c.State)).toEqual(["running"]);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      // Through the peer's Gateway to the channel: no chaincode there, so the peer's own refusal.
      const q = await fetch(`http://127.0.0.1:${port}/query`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ chaincode: "nosuchcc", function: "Read", args: [] }),
      });
      expect(q.status).toBeGreaterThanOrEqual(400);
      expect(await q.text()).toMatch(/nosuchcc/);

      const services = await h.ok("GET", "/plugins/fabric-rest-gateway-compose/services");
      expect(services).toHaveLength(1);
      expect(services[0]).toMatchObject({ name: "gateway", running: true });
      const logs = await h.t.app.inject({
        method: "GET",
        url: "/api/v1/plugins/fabric-rest-gateway-compose/services/gateway/logs?tail=50",
        headers: h.t.admin,
      });
      expect(logs.statusCode).toBe(200);
      expect(logs.body.length).toBeGreaterThan(0);

      expect((await h.ok("POST", "/plugins/fabric-rest-gateway-compose/stop")).status).toBe("stopped");
      expect(await project()).toEqual([]);
      expect((await h.ok("POST", "/plugins/fabric-rest-gateway-compose/resume")).status).toBe("running");
      await waitFor(
        "the gateway serves again",
        async () => ((await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok ? true : undefined),
        60_000,
      );

      await h.ok("DELETE", "/plugins/fabric-rest-gateway-compose");
      expect(await project()).toEqual([]);
      const networks = await docker.listNetworks({
        filters: JSON.stringify({ label: ["com.docker.compose.project=fabric-rest-gateway-compose"] }),
      });
      expect(networks).toEqual([]);
      const volumes = await docker.listVolumes({
        filters: JSON.stringify({ label: ["com.docker.compose.project=fabric-rest-gateway-compose"] }),
      });
      expect(volumes.Volumes ?? []).toEqual([]);
    },
  );
});
