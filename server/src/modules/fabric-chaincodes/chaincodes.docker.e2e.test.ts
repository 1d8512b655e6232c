import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { consoleTagOf, dockerClient, LABEL } from "../../runtime/docker/index.js";
import { buildAssetGoImage, haveGo } from "../../test-support/chaincode-image.js";
import { testDockerHost } from "../../test-support/docker.js";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  type FabricApi,
  haveFabricBinaries,
  TEST_BATCH_TIMEOUT,
  waitFor,
} from "../../test-support/fabric-api.js";

/**
 * Upstream's Terraform chaincode flow on a real dockerd: a definition with `docker_image` (an
 * image this test builds from the Go test chaincode, FROM scratch, with no registry) is installed,
 * approved, committed and deployed, as the upstream Go client sends it (empty bodies, nulls).
 * The chaincode server runs as a container the console supervises: invoke and query go through
 * the peer to it, docker-info names the real container, a `docker kill` heals, a console restart
 * adopts the container without a duplicate, and undeploy leaves no container behind.
 */
const host = testDockerHost("chaincode docker_image e2e");
const bins = await haveFabricBinaries("chaincode docker_image e2e");
const goOk = await haveGo("chaincode docker_image e2e");
let harness: FabricApi | undefined;
const work = mkdtempSync(join(tmpdir(), "cl-cc-docker-"));
afterAll(async () => {
  await harness?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("chaincode from docker_image", () => {
  it.skipIf(!host || !bins || !goOk)(
    `deploys, heals, adopts and removes a chaincode container (Fabric ${VERSION})`,
    { timeout: 600_000 },
    async () => {
      const docker = dockerClient({ name: "test", host: host! });
      // The image: the Go test chaincode built static, alone in a FROM scratch image.
      const image = `cl-test/asset-go:${process.pid}`;
      const src = await buildAssetGoImage(docker, work, image);

      const h = await fabricApi({ env: { CHAINLAUNCH_DOCKER_HOST: host! } });
      harness = h;
      const org = await h.ok("POST", "/organizations", { mspId: "DkOrg1MSP", name: "Docker Org 1" });
      const ord = await h.ok("POST", "/organizations", { mspId: "DkOrdMSP", name: "Docker Orderers" });
      const [peer] = await h.createNodes(org, 1, 0, "dk1-");
      const [orderer] = await h.createNodes(ord, 0, 1, "dko-");
      const net = await h.ok("POST", "/networks/fabric", {
        name: "dkchannel",
        config: {
          batchTimeout: TEST_BATCH_TIMEOUT,
          peerOrganizations: [{ id: org.id, nodeIds: [peer.id] }],
          ordererOrganizations: [{ id: ord.id, nodeIds: [orderer.id] }],
        },
      });
      await h.ok("POST", `/networks/fabric/${net.id}/orderers/${orderer.id}/join`);
      await h.ok("POST", `/networks/fabric/${net.id}/peers/${peer.id}/join`);

      const cc = (await h.ok("POST", "/sc/fabric/chaincodes", { name: "assetdocker", network_id: net.id })).chaincode;
      // As upstream's Go client (the Terraform provider) sends it: every field, empty strings for
      // what the user left out.
      const def = (
        await h.ok("POST", `/sc/fabric/chaincodes/${cc.id}/definitions`, {
          chaincode_id: cc.id,
          version: "1.0",
          sequence: 1,
          docker_image: image,
          endorsement_policy: "",
          chaincode_address: "",
        })
      ).definition;
      expect(def.chaincode_address).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(def.source_type).toBe("docker");
      const missing = await h.call("PUT", `/sc/fabric/definitions/${def.id}`, {
        version: "1.0",
        sequence: 1,
        docker_image: "cl-test/not-built:1",
      });
      expect(missing.status).toBe(200);
      const notThere = await h.call("POST", `/sc/fabric/definitions/${def.id}/deploy`, {});
      expect(notThere.status).toBe(400);
      expect(notThere.body.message).toMatch(/^docker_image: image "cl-test\/not-built:1" is not on the engine/);
      await h.ok("PUT", `/sc/fabric/definitions/${def.id}`, { version: "1.0", sequence: 1, docker_image: image });

      await h.ok("POST", `/sc/fabric/definitions/${def.id}/install`, { peer_ids: [peer.id] });
      await h.ok("POST", `/sc/fabric/definitions/${def.id}/approve`, { peer_id: peer.id });
      await h.ok("POST", `/sc/fabric/definitions/${def.id}/commit`, { peer_id: peer.id });
      const deployed = await h.ok("POST", `/sc/fabric/definitions/${def.id}/deploy`, {});
      expect(deployed.message).toMatch(new RegExp(`chaincode container chainlaunch-[0-9a-f]{8}-cc-${def.id} \\(`));

      const info = await h.ok("GET", `/sc/fabric/definitions/${def.id}/docker-info`);
      expect(info.id).toMatch(/^[0-9a-f]{64}$/);
      expect(info).toMatchObject({ image, state: "running", docker_status: "running" });
      const inspected = await docker.getContainer(info.id).inspect();
      expect(inspected.State.Running).toBe(true);
      expect(inspected.HostConfig.CapDrop).toEqual(["ALL"]);
      expect(inspected.Config.User).toBe(`${process.getuid!()}:${process.getgid!()}`);

      const wrote = await h.ok("POST", `/sc/fabric/chaincodes/${cc.id}/invoke`, {
        function: "CreateAsset",
        args: ["d1", "green"],
      });
      expect(wrote.transaction_id).toMatch(/^[0-9a-f]{64}$/);
      const read = await h.ok("POST", `/sc/fabric/chaincodes/${cc.id}/query`, {
        function: "ReadAsset",
        args: ["d1"],
      });
      expect(read.result).toEqual({ id: "d1", value: "green", version: "1" });

      // The container's output is in the definition's log.
      const ours = async (): Promise<string[]> =>
        (
          await docker.listContainers({
            all: true,
            // This console's (other test files share the engine).
            filters: JSON.stringify({
              label: [`${LABEL.id}=cc-${def.id}`, `${LABEL.console}=${consoleTagOf(h.t.config.dataDir)}`],
            }),
          })
        ).map((c) => c.Id);

      // docker kill: the console restarts the same container and records the crash.
      await docker.getContainer(info.id).kill();
      await waitFor(
        "the crash is on the timeline",
        async () =>
          (await h.ok("GET", `/sc/fabric/definitions/${def.id}/timeline`)).find(
            (e: { event_type: string }) => e.event_type === "crash",
          ),
        30_000,
      );
      await waitFor(
        "the chaincode answers again",
        async () => {
          const r = await h.call("POST", `/sc/fabric/chaincodes/${cc.id}/query`, {
            function: "ReadAsset",
            args: ["d1"],
          });
          return r.status === 200 ? r.body : undefined;
        },
        60_000,
      );
      expect(await ours()).toEqual([info.id]);

      // A console restart adopts the running container: the same one, no duplicate.
      await h.t.restart();
      for (const n of [peer, orderer]) {
        await waitFor(
          `${n.name} RUNNING after the restart`,
          async () => ((await h.ok("GET", `/nodes/${n.id}`)).status === "RUNNING" ? true : undefined),
          60_000,
        );
      }
      await waitFor(
        "the container is adopted",
        async () => {
          const r = await h.call("GET", `/sc/fabric/definitions/${def.id}/docker-info`);
          return r.status === 200 && r.body.state === "running" ? r.body : undefined;
        },
        30_000,
      );
      expect(await ours()).toEqual([info.id]);
      const again = await h.ok("POST", `/sc/fabric/chaincodes/${cc.id}/query`, { function: "ReadAsset", args: ["d1"] });
      expect(again.result.value).toBe("green");

      // Undeploy removes the container.
      await h.ok("POST", `/sc/fabric/definitions/${def.id}/undeploy`, {});
      expect(await ours()).toEqual([]);
      await docker.getImage(image).remove({ force: true });

      // A Go source with docker_image: built in the sandbox, then into that image, and run from it.
      const fromSource = `cl-test/asset-go-src:${process.pid}`;
      const cc2 = (await h.ok("POST", "/sc/fabric/chaincodes", { name: "assetsrc", network_id: net.id })).chaincode;
      const def2 = (
        await h.ok("POST", `/sc/fabric/chaincodes/${cc2.id}/definitions`, {
          version: "1.0",
          sequence: 1,
          source_path: src,
          docker_image: fromSource,
        })
      ).definition;
      expect(def2.source_type).toBe("go");
      await h.ok("POST", `/sc/fabric/definitions/${def2.id}/install`, { peer_ids: [peer.id] });
      await h.ok("POST", `/sc/fabric/definitions/${def2.id}/approve`, { peer_id: peer.id });
      await h.ok("POST", `/sc/fabric/definitions/${def2.id}/commit`, { peer_id: peer.id });
      await h.ok("POST", `/sc/fabric/definitions/${def2.id}/deploy`, {});
      const info2 = await h.ok("GET", `/sc/fabric/definitions/${def2.id}/docker-info`);
      expect(info2).toMatchObject({ image: fromSource, state: "running" });
      await h.ok("POST", `/sc/fabric/chaincodes/${cc2.id}/invoke`, { function: "CreateAsset", args: ["s1", "red"] });
      const read2 = await h.ok("POST", `/sc/fabric/chaincodes/${cc2.id}/query`, {
        function: "ReadAsset",
        args: ["s1"],
      });
      expect(read2.result).toEqual({ id: "s1", value: "red", version: "1" });
      await h.ok("POST", `/sc/fabric/definitions/${def2.id}/undeploy`, {});
      await docker.getImage(fromSource).remove({ force: true });
    },
  );
});
