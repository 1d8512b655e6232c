import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hostLanAddress } from "../nodes/nodes.defaults.js";
import { afterAll, describe, expect, it } from "vitest";
import { consoleTagOf, dockerClient, LABEL } from "../../runtime/docker/index.js";
import { startTestDocker, testDockerHost, type TestDocker } from "../../test-support/docker.js";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  type FabricApi,
  haveFabricBinaries,
  type Json,
  TEST_BATCH_TIMEOUT,
  waitFor,
} from "../../test-support/fabric-api.js";
import { opensslIn } from "../../test-support/openssl.js";
import { freePort } from "../../test-support/ports.js";
import { createUser } from "../../test-support/test-app.js";

/**
 * Two Docker engines: the local one, and a second dockerd on this machine that an admin registers
 * as tcp://127.0.0.1:<port> with TLS client certificates (made by openssl; the engine runs with
 * --tlsverify). A peer on the local engine and an orderer on the registered one share a channel;
 * the nodes name their engine; a console restart adopts the orderer on its engine; an engine that
 * runs a node can't be removed. Only an admin registers engines, and the TLS key never comes back.
 */
const localHost = testDockerHost("Docker engines e2e");
const bins = await haveFabricBinaries("Docker engines e2e");
const hostIp = hostLanAddress();
if (!hostIp) console.warn("Docker engines e2e: skipped: this host has no non-loopback IPv4 address");

const work = mkdtempSync(join(tmpdir(), "cl-engines-"));
let harness: FabricApi | undefined;
let second: TestDocker | undefined;
afterAll(async () => {
  await harness?.close();
  second?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("several Docker engines", () => {
  it.skipIf(!localHost || !bins || !hostIp)(
    `places a peer and an orderer on two engines, one over TLS, on one channel (Fabric ${VERSION})`,
    { timeout: 600_000 },
    async () => {
      // The second engine: TLS on tcp, client certificates required.
      const ssl = opensslIn(work);
      await ssl.selfSignedCa("ca", "/CN=engine-b CA");
      await ssl.issue("server", "/CN=127.0.0.1", "ca", "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
      await ssl.issue("client", "/CN=console", "ca", "extendedKeyUsage=clientAuth\n");
      const port = await freePort();
      second = await startTestDocker([
        `-H tcp://127.0.0.1:${port}`,
        "--tlsverify",
        `--tlscacert=${join(work, "ca.pem")}`,
        `--tlscert=${join(work, "server.pem")}`,
        `--tlskey=${join(work, "server.key")}`,
      ]);
      const tls = {
        ca: readFileSync(join(work, "ca.pem"), "utf8"),
        cert: readFileSync(join(work, "client.pem"), "utf8"),
        key: readFileSync(join(work, "client.key"), "utf8"),
      };
      const host = `tcp://127.0.0.1:${port}`;
      const engineB = dockerClient({ name: "rack-b", host, tls });

      const h = await fabricApi({ env: { CHAINLAUNCH_DOCKER_HOST: localHost! } });
      harness = h;
      const manager = await createUser(h.t, "engines-manager", "manager");
      const asManager = await h.t.app.inject({
        method: "POST",
        url: "/api/v1/docker/engines",
        headers: manager,
        payload: { name: "rack-b", host, tls },
      });
      expect(asManager.statusCode).toBe(403);
      const noTls = await h.call("POST", "/docker/engines", { name: "rack-b", host });
      expect(noTls.status).toBe(400);
      expect(noTls.body.message).toMatch(
        /^host: the Docker engine "rack-b" at tcp:\/\/127\.0\.0\.1:\d+ does not answer/,
      );
      const created = await h.call("POST", "/docker/engines", { name: "rack-b", host, tls });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(JSON.stringify(created.body)).not.toContain("PRIVATE KEY");
      const list = (await h.ok("GET", "/docker/engines")).engines as Json[];
      expect(list.map((e) => [e.name, e.status, e.tls])).toEqual([
        ["local", "up", false],
        ["rack-b", "up", true],
      ]);
      expect(JSON.stringify(list)).not.toContain("PRIVATE KEY");
      const row = await h.t.database.db.selectFrom("docker_engines").selectAll().executeTakeFirstOrThrow();
      expect(row.tls_key_encrypted).not.toContain("PRIVATE KEY");

      const org = await h.ok("POST", "/organizations", { mspId: "EgOrg1MSP", name: "Engines Org" });
      const ord = await h.ok("POST", "/organizations", { mspId: "EgOrdMSP", name: "Engines Orderers" });
      const unknown = await h.call("POST", "/nodes", {
        name: "eg-bad",
        blockchainPlatform: "FABRIC",
        fabricPeer: { organizationId: org.id, mspId: org.mspId, mode: "docker", dockerEngine: "rack-z" },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toMatch(/^fabricPeer\.dockerEngine: no Docker engine named 'rack-z'/);
      const [peer] = await h.createNodes(org, 1, 0, "eg-", { mode: "docker", host: hostIp! });
      const [orderer] = await h.createNodes(ord, 0, 1, "ego-", {
        mode: "docker",
        host: hostIp!,
        dockerEngine: "rack-b",
      });
      expect(peer.fabricPeer.dockerEngine).toBe("local");
      expect(orderer.fabricOrderer.dockerEngine).toBe("rack-b");

      const tag = consoleTagOf(h.t.config.dataDir);
      const on = async (docker: ReturnType<typeof dockerClient>): Promise<string[]> =>
        (
          await docker.listContainers({ all: true, filters: JSON.stringify({ label: [`${LABEL.console}=${tag}`] }) })
        ).map((c) => c.Labels[LABEL.id] as string);
      expect(await on(engineB)).toEqual([orderer.name]);
      expect(await on(dockerClient({ name: "local", host: localHost! }))).toEqual([peer.name]);

      const net = await h.ok("POST", "/networks/fabric", {
        name: "egchannel",
        config: {
          batchTimeout: TEST_BATCH_TIMEOUT,
          peerOrganizations: [{ id: org.id, nodeIds: [peer.id] }],
          ordererOrganizations: [{ id: ord.id, nodeIds: [orderer.id] }],
        },
      });
      await h.ok("POST", `/networks/fabric/${net.id}/orderers/${orderer.id}/join`);
      await h.ok("POST", `/networks/fabric/${net.id}/peers/${peer.id}/join`);
      const [ph, pp] = (peer.fabricPeer.externalEndpoint as string).split(":");
      await h.ok("POST", `/networks/fabric/${net.id}/anchor-peers`, {
        organizationId: org.id,
        anchorPeers: [{ host: ph, port: Number(pp) }],
      });
      await waitFor(
        "the peer on engine A at height 2 from the orderer on engine B",
        async () => {
          const map = await h.ok("GET", `/networks/fabric/${net.id}/map`);
          const byName = new Map((map.nodes as Json[]).map((n) => [n.id, n.height as number]));
          return (byName.get(peer.name) ?? 0) >= 2 && (byName.get(orderer.name) ?? 0) >= 2 ? true : undefined;
        },
        60_000,
      );

      // A console restart adopts the orderer on its engine (the registered engines load first).
      const before = (await engineB.listContainers({ all: true })).map((c) => c.Id);
      await h.t.restart();
      await waitFor(
        "the orderer RUNNING after the restart",
        async () => ((await h.ok("GET", `/nodes/${orderer.id}`)).status === "RUNNING" ? true : undefined),
        60_000,
      );
      expect((await engineB.listContainers({ all: true })).map((c) => c.Id)).toEqual(before);

      const busy = await h.call("DELETE", `/docker/engines/${created.body.id}`);
      expect(busy.status).toBe(409);
      expect(busy.body.message).toMatch(new RegExp(`^id: engine 'rack-b' runs node '${orderer.name}'`));
      await h.ok("DELETE", `/networks/fabric/${net.id}`);
      for (const n of [peer, orderer]) await h.ok("DELETE", `/nodes/${n.id}`);
      expect(await on(engineB)).toEqual([]);
      expect((await h.call("DELETE", `/docker/engines/${created.body.id}`)).status).toBe(204);
      const audit = await h.t.database.db
        .selectFrom("audit_logs")
        .select("event_type")
        .where("event_type", "like", "docker_engine.%")
        .execute();
      expect(audit.map((a) => a.event_type).sort()).toEqual([
        "docker_engine.create",
        "docker_engine.create",
        "docker_engine.delete",
        "docker_engine.delete",
      ]);
    },
  );
});
