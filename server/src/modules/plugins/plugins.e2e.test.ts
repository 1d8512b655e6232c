import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltins } from "../../test-support/builtins.js";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  haveFabricBinaries,
  waitFor,
  type FabricApi,
  type Json,
} from "../../test-support/fabric-api.js";
import { freePort } from "../../test-support/ports.js";
import { processesUnder, supervisedUnder } from "../../test-support/processes.js";
import { createUser } from "../../test-support/test-app.js";

const CHAINCODE = resolve(import.meta.dirname, "../../fabric/test-support/chaincode/asset-node");

/**
 * Issue 15 on real binaries: the REST gateway plugin from the catalogue, deployed with a real peer,
 * an org key and a channel whose chaincode the console deployed; an HTTP call to the plugin invokes
 * the chaincode and a query reads it back; stop and resume; a console restart keeps it running and
 * supervised (adopted, not duplicated); a kill -9 is healed by the supervisor.
 */
const bins = await haveFabricBinaries("plugins e2e");
let harness: FabricApi | undefined;
const work = mkdtempSync(join(tmpdir(), "cl-plugins-e2e-"));
afterAll(async () => {
  if (harness)
    for (const pid of processesUnder(join(harness.t.config.dataDir, "plugins"))) process.kill(pid, "SIGKILL");
  await harness?.close();
  rmSync(work, { recursive: true, force: true });
});

async function gateway(port: number, path: string, body: object): Promise<{ status: number; body: Json }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe("plugins on real Fabric nodes", () => {
  it.skipIf(!bins)(
    `deploys the REST gateway plugin bound to a peer, a key and a channel, and calls chaincode through it (Fabric ${VERSION})`,
    { timeout: 600_000 },
    async () => {
      const builtins = await buildBuiltins(join(work, "builtins"));
      const h = await fabricApi({
        env: { CHAINLAUNCH_BUILTINS_DIR: builtins },
      });
      harness = h;
      const { org, peer, net } = await h.peerOrdererChannel({ code: "Pg", prefix: "pg", channel: "plgchannel" });

      // The chaincode, deployed by the console's lifecycle.
      const source = join(work, "asset-node");
      cpSync(CHAINCODE, source, { recursive: true, filter: (src) => !/node_modules/.test(src) });
      const cc = (await h.ok("POST", "/sc/fabric/chaincodes", { name: "assets", network_id: net.id })).chaincode;
      const def = (
        await h.ok("POST", `/sc/fabric/chaincodes/${cc.id}/definitions`, {
          version: "1.0",
          sequence: 1,
          endorsement_policy: "OR('PgOrg1MSP.peer')",
          source_path: source,
        })
      ).definition;
      await h.ok("POST", `/sc/fabric/definitions/${def.id}/install`, { peer_ids: [peer.id] });
      await h.ok("POST", `/sc/fabric/definitions/${def.id}/approve`, { peer_id: peer.id });
      await h.ok("POST", `/sc/fabric/definitions/${def.id}/commit`, { peer_id: peer.id });
      await h.ok("POST", `/sc/fabric/definitions/${def.id}/deploy`, {});

      // A manager installs and deploys it (issue 29: the catalogue as published stays a manager's).
      const manager = await createUser(h.t, "plugins-manager", "manager");
      // Install from the catalogue; bind through the pickers' own options.
      const available = await h.ok("GET", "/plugins/available");
      const entry = available.plugins.find((p: Json) => p.name === "fabric-rest-gateway");
      expect(entry.source).toBe("builtin");
      const installed = await h.t.app.inject({
        method: "POST",
        url: "/api/v1/plugins",
        headers: { ...manager, "content-type": "application/yaml" },
        payload: entry.raw_yaml,
      });
      expect(installed.statusCode, installed.body).toBe(201);
      const keyOption = (await h.ok("GET", "/plugins/sources/fabric-key")).options.find(
        (o: Json) => o.value.orgId === org.id && o.description === "admin",
      );
      const peerOption = (await h.ok("GET", "/plugins/sources/fabric-peer")).options.find(
        (o: Json) => o.value === peer.id,
      );
      const netOption = (await h.ok("GET", "/plugins/sources/fabric-network")).options.find(
        (o: Json) => o.value === net.id,
      );
      expect(peerOption.label).toBe(peer.name);
      expect(netOption.label).toBe("plgchannel");

      const port = await freePort();
      const dep = await h.t.app.inject({
        method: "POST",
        url: "/api/v1/plugins/fabric-rest-gateway/deploy",
        headers: manager,
        payload: { peer: peer.id, key: keyOption.value, network: net.id, port },
      });
      expect(dep.statusCode, dep.body).toBe(200);
      expect(dep.json().status).toBe("running");

      const wrote = await gateway(port, "/invoke", {
        chaincode: "assets",
        function: "CreateAsset",
        args: ["p1", "green"],
      });
      expect(wrote.status, JSON.stringify(wrote.body)).toBe(200);
      expect(wrote.body.transactionId).toMatch(/^[0-9a-f]{64}$/);
      const read = await gateway(port, "/query", { chaincode: "assets", function: "ReadAsset", args: ["p1"] });
      expect(read.body.result).toEqual({ id: "p1", value: "green", version: "1" });
      const refused = await gateway(port, "/invoke", {
        chaincode: "assets",
        function: "CreateAsset",
        args: ["p1", "red"],
      });
      expect(refused.status).toBe(502);
      expect(JSON.stringify(refused.body)).toMatch(/p1/);

      const services = await h.ok("GET", "/plugins/fabric-rest-gateway/services");
      expect(services[0]).toMatchObject({
        name: "gateway",
        state: "running",
        health: "healthy",
        ports: [String(port)],
      });
      const logs = await h.t.app.inject({
        method: "GET",
        url: "/api/v1/plugins/fabric-rest-gateway/services/gateway/logs?tail=50",
        headers: h.t.admin,
      });
      expect(logs.body).toContain(`listening on 127.0.0.1:${port}`);
      expect(logs.body).not.toContain("green");

      // Stop: nothing listens, the key file is gone; resume: the same values, the value is still there.
      const keyFile = join(h.t.config.dataDir, "plugins", "fabric-rest-gateway", "secrets", "key", "key.pem");
      expect(existsSync(keyFile)).toBe(true);
      expect((await h.ok("POST", "/plugins/fabric-rest-gateway/stop")).status).toBe("stopped");
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
      expect(existsSync(keyFile)).toBe(false);
      expect((await h.ok("POST", "/plugins/fabric-rest-gateway/resume")).status).toBe("running");
      expect(
        (await gateway(port, "/query", { chaincode: "assets", function: "ReadAsset", args: ["p1"] })).body.result.value,
      ).toBe("green");

      // A console restart leaves it running and supervised: the same process, adopted.
      const pluginDir = join(h.t.config.dataDir, "plugins", "fabric-rest-gateway");
      // One supervised process (bwrap leads the group of the sandboxed gateway).
      const before = supervisedUnder(pluginDir);
      expect(before).toHaveLength(1);
      await h.t.restart();
      await waitFor(
        "gateway adopted",
        async () =>
          (await h.ok("GET", "/plugins/fabric-rest-gateway/services"))[0].state === "running" ? true : undefined,
        30_000,
      );
      expect(supervisedUnder(pluginDir)).toEqual(before);
      expect(
        (await gateway(port, "/invoke", { chaincode: "assets", function: "UpdateAsset", args: ["p1", "teal"] })).status,
      ).toBe(200);

      // kill -9: the supervisor starts it again.
      process.kill(before[0]!, "SIGKILL");
      const healed = await waitFor(
        "gateway restarted",
        async () => {
          const s = (await h.ok("GET", "/plugins/fabric-rest-gateway/services"))[0];
          return s.state === "running" && s.containers[0] !== String(before[0]) ? s : undefined;
        },
        60_000,
      );
      expect(healed.health).toBe("healthy");
      expect(
        (await gateway(port, "/query", { chaincode: "assets", function: "ReadAsset", args: ["p1"] })).body.result.value,
      ).toBe("teal");
      expect((await h.ok("GET", "/plugins/fabric-rest-gateway/deployment-status")).status).toBe("running");

      expect((await h.call("DELETE", "/plugins/fabric-rest-gateway")).status).toBe(204);
      expect(processesUnder(pluginDir)).toEqual([]);
    },
  );
});
