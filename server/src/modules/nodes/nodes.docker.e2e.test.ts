import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type Docker from "dockerode";
import { hostLanAddress } from "./nodes.defaults.js";
import { afterAll, describe, expect, it } from "vitest";
import { consoleTagOf, dockerClient, LABEL } from "../../runtime/docker/index.js";
import { buildAssetGoImage, haveGo } from "../../test-support/chaincode-image.js";
import { buildStandInImage, testDockerHost } from "../../test-support/docker.js";
import { freePort, releasePorts, reservePorts } from "../../test-support/ports.js";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  type FabricApi,
  haveFabricBinaries,
  type Json,
  TEST_BATCH_TIMEOUT,
  waitFor,
} from "../../test-support/fabric-api.js";
import { Fatal } from "../../test-support/wait.js";
import { CONSOLE_NETWORK } from "./fabric-node.js";

/**
 * Fabric nodes in containers on a real dockerd, beside a process node: two orgs with a peer each in
 * Docker and an orderer in Docker, plus one peer as a process, on one channel. Every node advertises
 * the host's address, which containers (through the console's network) and processes both reach.
 * The image is built by the console from the cached Fabric binaries, with no registry. A chaincode
 * from `docker_image`, at the host's address, is installed on all three peers, endorsed by both
 * container peers and read back. A `docker kill` of a peer heals, a console restart adopts every
 * container without a duplicate, and delete leaves no container, network or volume behind. The
 * console names its images by CHAINLAUNCH_FABRIC_IMAGE / CHAINLAUNCH_BESU_IMAGE (with a registry
 * host, which nothing here contacts: the images are built on the engine).
 */
const dockerHost = testDockerHost("Fabric nodes in Docker e2e");
const goOk = await haveGo("Fabric nodes in Docker e2e (its chaincode part)");
const work = mkdtempSync(join(tmpdir(), "cl-nodes-docker-"));
const bins = await haveFabricBinaries("Fabric nodes in Docker e2e");
const hostIp = hostLanAddress();
if (!hostIp) console.warn("Fabric nodes in Docker e2e: skipped: this host has no non-loopback IPv4 address");

const FABRIC_REPO = "localhost:5000/cl-test/fabric-dn";
const BESU_REPO = "localhost:5000/cl-test/besu-dn";
const consoleEnv = (): Record<string, string> => ({
  CHAINLAUNCH_DOCKER_HOST: dockerHost!,
  CHAINLAUNCH_FABRIC_IMAGE: FABRIC_REPO,
  CHAINLAUNCH_BESU_IMAGE: BESU_REPO,
});

let harness: FabricApi | undefined;

/**
 * After this console's last container went: its network is gone too, unless containers of other
 * consoles (other test files share the engine and the network's name) are on it. Never one of ours.
 */
async function expectNoNetworkOf(docker: Docker, consoleTag: string): Promise<void> {
  const left = await waitFor(
    `the network ${CONSOLE_NETWORK} gone or used by other consoles only`,
    async () => {
      const net = await docker
        .getNetwork(CONSOLE_NETWORK)
        .inspect()
        .catch((err: { statusCode?: number }) => {
          if (err.statusCode === 404) return undefined;
          throw err;
        });
      if (!net) return "gone";
      const on = await docker.listContainers({ all: true, filters: JSON.stringify({ network: [CONSOLE_NETWORK] }) });
      const ours = on.filter((c) => c.Labels[LABEL.console] === consoleTag);
      if (ours.length) throw new Fatal(`still on ${CONSOLE_NETWORK}: ${ours.map((c) => c.Names[0]).join(", ")}`);
      // Empty but there: left behind, unless another console is just making or removing it.
      return on.length ? "used by others" : undefined;
    },
    5000,
  );
  expect(["gone", "used by others"]).toContain(left);
}
afterAll(async () => {
  await harness?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("Fabric nodes in Docker", () => {
  it.skipIf(!dockerHost || !bins || !hostIp)(
    `runs a channel of container and process nodes, heals, adopts and deletes them (Fabric ${VERSION})`,
    { timeout: 600_000 },
    async () => {
      const docker = dockerClient({ name: "test", host: dockerHost! });
      const h = await fabricApi({ env: consoleEnv() });
      harness = h;
      const org1 = await h.ok("POST", "/organizations", { mspId: "DnOrg1MSP", name: "Dn Org 1" });
      const org2 = await h.ok("POST", "/organizations", { mspId: "DnOrg2MSP", name: "Dn Org 2" });
      const ord = await h.ok("POST", "/organizations", { mspId: "DnOrdMSP", name: "Dn Orderers" });
      const docked = { mode: "docker" as const, host: hostIp! };
      const [peer1] = await h.createNodes(org1, 1, 0, "dn1-", docked);
      const [peer2] = await h.createNodes(org2, 1, 0, "dn2-", docked);
      const [orderer] = await h.createNodes(ord, 0, 1, "dno-", docked);
      const [procPeer] = await h.createNodes(org1, 1, 0, "dnp-", { host: hostIp! });
      expect(peer1.fabricPeer.mode).toBe("docker");
      expect(procPeer.fabricPeer.mode).toBe("service");

      const ours = async (): Promise<Docker.ContainerInfo[]> =>
        // This console's containers (other test files share the engine).
        docker.listContainers({
          all: true,
          filters: JSON.stringify({ label: [`${LABEL.console}=${consoleTagOf(h.t.config.dataDir)}`] }),
        });
      const before = await ours();
      expect(before.map((c) => c.Labels[LABEL.id]).sort()).toEqual(
        [peer1.name, peer2.name, orderer.name].map((n: string) => n).sort(),
      );
      expect(before.every((c) => c.State === "running")).toBe(true);
      // The image CHAINLAUNCH_FABRIC_IMAGE names, tagged with the version, built here from the binaries.
      expect(before.map((c) => c.Image)).toEqual(before.map(() => `${FABRIC_REPO}:${VERSION}`));

      const net = await h.ok("POST", "/networks/fabric", {
        name: "dnchannel",
        config: {
          batchTimeout: TEST_BATCH_TIMEOUT,
          peerOrganizations: [
            { id: org1.id, nodeIds: [peer1.id, procPeer.id] },
            { id: org2.id, nodeIds: [peer2.id] },
          ],
          ordererOrganizations: [{ id: ord.id, nodeIds: [orderer.id] }],
        },
      });
      await h.ok("POST", `/networks/fabric/${net.id}/orderers/${orderer.id}/join`);
      for (const p of [peer1, peer2, procPeer]) await h.ok("POST", `/networks/fabric/${net.id}/peers/${p.id}/join`);
      // A config block every peer must pull from the container orderer at the host's address.
      const [host, port] = (peer1.fabricPeer.externalEndpoint as string).split(":");
      await h.ok("POST", `/networks/fabric/${net.id}/anchor-peers`, {
        organizationId: org1.id,
        anchorPeers: [{ host, port: Number(port) }],
      });
      const heights = async (): Promise<Record<string, number>> => {
        const map = await h.ok("GET", `/networks/fabric/${net.id}/map`);
        const out: Record<string, number> = {};
        for (const n of map.nodes as Json[]) out[n.id] = n.height;
        return out;
      };
      await waitFor(
        "every node at height 2",
        async () => {
          const hs = await heights();
          return [peer1, peer2, procPeer, orderer].every((n) => (hs[n.name] ?? 0) >= 2) ? hs : undefined;
        },
        60_000,
      );

      // Chaincode as a container too: both container peers dial it at the host's address.
      if (goOk) {
        const image = `cl-test/asset-go-dn:${process.pid}`;
        await buildAssetGoImage(docker, work, image);
        const [h2, p2] = (peer2.fabricPeer.externalEndpoint as string).split(":");
        await h.ok("POST", `/networks/fabric/${net.id}/anchor-peers`, {
          organizationId: org2.id,
          anchorPeers: [{ host: h2, port: Number(p2) }],
        });
        const cc = (await h.ok("POST", "/sc/fabric/chaincodes", { name: "dnasset", network_id: net.id })).chaincode;
        const def = (
          await h.ok("POST", `/sc/fabric/chaincodes/${cc.id}/definitions`, {
            version: "1.0",
            sequence: 1,
            docker_image: image,
            chaincode_address: `${hostIp}:${await freePort()}`,
          })
        ).definition;
        await h.ok("POST", `/sc/fabric/definitions/${def.id}/install`, { peer_ids: [peer1.id, peer2.id, procPeer.id] });
        await h.ok("POST", `/sc/fabric/definitions/${def.id}/approve`, { peer_id: peer1.id });
        await h.ok("POST", `/sc/fabric/definitions/${def.id}/approve`, { peer_id: peer2.id });
        await h.ok("POST", `/sc/fabric/definitions/${def.id}/commit`, { peer_id: peer1.id });
        await h.ok("POST", `/sc/fabric/definitions/${def.id}/deploy`, {});
        const wrote = await h.ok("POST", `/sc/fabric/chaincodes/${cc.id}/invoke`, {
          function: "CreateAsset",
          args: ["m1", "mixed"],
        });
        expect(wrote.transaction_id).toMatch(/^[0-9a-f]{64}$/);
        const read = await waitFor(
          "the asset readable",
          async () => {
            const r = await h.call("POST", `/sc/fabric/chaincodes/${cc.id}/query`, {
              function: "ReadAsset",
              args: ["m1"],
            });
            return r.status === 200 ? r.body : undefined;
          },
          30_000,
        );
        expect(read.result).toMatchObject({ id: "m1", value: "mixed" });
        await h.ok("POST", `/sc/fabric/definitions/${def.id}/undeploy`, {});
        await h.ok("DELETE", `/sc/fabric/chaincodes/${cc.id}`);
        await docker.getImage(image).remove({ force: true });
      }

      // docker kill of a peer container: the console restarts it.
      const p1 = before.find((c) => c.Labels[LABEL.id] === peer1.name)!;
      await docker.getContainer(p1.Id).kill();
      await waitFor(
        "the crash is recorded and the peer is back",
        async () => {
          const events = await h.ok("GET", `/nodes/${peer1.id}/events?page=1&limit=50`);
          const crashed = (events.items as Json[]).some((e) => e.type === "crash");
          const cur = await h.ok("GET", `/nodes/${peer1.id}`);
          return crashed && cur.status === "RUNNING" ? cur : undefined;
        },
        90_000,
      );

      // A console restart adopts every container: the same ids, no duplicate.
      await h.t.restart();
      for (const n of [peer1, peer2, orderer, procPeer]) {
        await waitFor(
          `${n.name} RUNNING after the restart`,
          async () => ((await h.ok("GET", `/nodes/${n.id}`)).status === "RUNNING" ? true : undefined),
          60_000,
        );
      }
      const after = await ours();
      expect(after.map((c) => c.Id).sort()).toEqual(before.map((c) => c.Id).sort());
      // The log of a container node is in the same route as a process node's.
      const logs = await h.t.app.inject({
        method: "GET",
        url: `/api/v1/nodes/${peer2.id}/logs?tail=10000`,
        headers: h.t.admin,
      });
      expect(logs.statusCode).toBe(200);
      // The whole log, not its last lines: under load gRPC's multi-line resolver dumps can fill the last 50.
      expect(logs.body).toMatch(/Started peer with ID=\[[^\]]*dn2-peer0/);

      // Delete leaves no container, no network (it goes with the console's last container) and no
      // volume (ledgers are host folders).
      await h.ok("DELETE", `/networks/fabric/${net.id}`);
      for (const n of [peer1, peer2, orderer, procPeer]) await h.ok("DELETE", `/nodes/${n.id}`);
      expect(await ours()).toEqual([]);
      await expectNoNetworkOf(docker, consoleTagOf(h.t.config.dataDir));
      const volumes = await docker.listVolumes();
      expect(volumes.Volumes ?? []).toEqual([]);
    },
  );

  // No Besu image can be obtained here: a Besu node in mode docker gets as far as the engine, which
  // has no such image and can't pull it; the 400 names the field and the image (the repository
  // CHAINLAUNCH_BESU_IMAGE names), and nothing is created. With a stand-in under that name, the
  // node runs it; delete takes its container and the network away.
  it.skipIf(!dockerHost)(
    "runs a Besu node in Docker from CHAINLAUNCH_BESU_IMAGE, and names that image when the engine lacks it",
    async () => {
      const h = harness ?? (await fabricApi({ env: consoleEnv() }));
      harness = h;
      const docker = dockerClient({ name: "test", host: dockerHost! });
      const key = await h.ok("POST", "/keys", { name: "dk-besu-key", algorithm: "EC", curve: "secp256k1" });
      const v = await h.ok("POST", "/keys", { name: "dk-besu-val", algorithm: "EC", curve: "secp256k1" });
      const net = await h.ok("POST", "/networks/besu", {
        name: "dk-qbft",
        config: { chainId: 4399, initialValidatorsKeyIds: [v.id] },
      });
      const ports = await reservePorts(3);
      const body = {
        name: "dk-besu-1",
        blockchainPlatform: "BESU",
        besuNode: {
          networkId: net.id,
          keyId: key.id,
          externalIp: "127.0.0.1",
          internalIp: "127.0.0.1",
          p2pHost: "127.0.0.1",
          p2pPort: ports,
          rpcHost: "127.0.0.1",
          rpcPort: ports + 1,
          metricsEnabled: true,
          metricsPort: ports + 2,
          version: "24.12.2",
          mode: "docker",
        },
      };
      const image = `${BESU_REPO}:24.12.2`;
      const res = await h.call("POST", "/nodes", body);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(
        /^besuNode\.mode: docker: image "localhost:5000\/cl-test\/besu-dn:24\.12\.2" is not on the engine and could not be pulled/,
      );
      const { items } = await h.ok("GET", "/nodes?page=1&limit=100");
      expect((items as Json[]).some((n) => n.name === "dk-besu-1")).toBe(false);

      await buildStandInImage(docker, image);
      try {
        const node = await h.ok("POST", "/nodes", body);
        expect(node.besuNode.mode).toBe("docker");
        await waitFor(
          "the Besu container node RUNNING",
          async () => ((await h.ok("GET", `/nodes/${node.id}`)).status === "RUNNING" ? true : undefined),
          60_000,
        );
        const tag = consoleTagOf(h.t.config.dataDir);
        const mine = (): Promise<Docker.ContainerInfo[]> =>
          docker.listContainers({
            all: true,
            filters: JSON.stringify({ label: [`${LABEL.console}=${tag}`, "dev.chainlaunch.kind=besu"] }),
          });
        expect((await mine()).map((c) => c.Image)).toEqual([image]);
        await h.ok("DELETE", `/nodes/${node.id}`);
        expect(await mine()).toEqual([]);
        await expectNoNetworkOf(docker, tag);
      } finally {
        await docker.getImage(image).remove({ force: true });
        releasePorts(ports, 3);
      }
    },
  );
});
