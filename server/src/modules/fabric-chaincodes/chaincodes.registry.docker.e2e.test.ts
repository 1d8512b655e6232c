import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type Docker from "dockerode";
import { afterAll, describe, expect, it } from "vitest";
import { dockerClient } from "../../runtime/docker/index.js";
import { buildAssetGoImage, haveGo } from "../../test-support/chaincode-image.js";
import { testDockerHost } from "../../test-support/docker.js";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  type FabricApi,
  haveFabricBinaries,
  TEST_BATCH_TIMEOUT,
} from "../../test-support/fabric-api.js";
import { registryBinary, startTestRegistry, type TestRegistry } from "../../test-support/registry.js";

/**
 * Images that are not built on the engine, on a real dockerd and real Fabric nodes:
 *
 * - a chaincode image pulled from a registry: a real Docker registry (distribution, built from the
 *   Go module proxy and cached) on a loopback port holds the Go test chaincode's image, pushed there
 *   through the Engine API and removed from the engine, so deploying a definition that names it makes
 *   the console pull it; an image the registry lacks is a 400 naming it;
 * - a Node.js chaincode built from source into an image (the console's node and the installed
 *   node_modules, FROM scratch, no network) and run as a container.
 */
const host = testDockerHost("chaincode registry e2e");
const bins = await haveFabricBinaries("chaincode registry e2e");
const goOk = await haveGo("chaincode registry e2e");
const registryBin = host && bins && goOk ? await registryBinary("chaincode registry e2e") : undefined;
const ASSET_NODE = resolve(fileURLToPath(import.meta.url), "../../../fabric/test-support/chaincode/asset-node");
let harness: FabricApi | undefined;
let registry: TestRegistry | undefined;
const work = mkdtempSync(join(tmpdir(), "cl-cc-registry-"));
afterAll(async () => {
  await harness?.close();
  await registry?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** Follows a push or pull stream to its end; the first error in it is thrown. */
async function follow(docker: Docker, stream: NodeJS.ReadableStream): Promise<void> {
  await new Promise<void>((res, rej) => {
    docker.modem.followProgress(stream, (err: Error | null, out: { error?: string }[]) => {
      const failed = err ?? out.find((o) => o.error)?.error;
      if (failed) rej(failed instanceof Error ? failed : new Error(failed));
      else res();
    });
  });
}

/** The engine's image events of one kind (`pull`, …) for `image` since `since` (seconds). */
async function imageEvents(docker: Docker, action: string, image: string, since: number): Promise<unknown[]> {
  const raw = (await docker.getEvents({
    since,
    until: Math.ceil(Date.now() / 1000) + 1,
    filters: JSON.stringify({ type: ["image"], event: [action], image: [image] }),
  })) as unknown as NodeJS.ReadableStream;
  let text = "";
  for await (const chunk of raw) text += String(chunk);
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as unknown);
}

describe("chaincode images from a registry and from Node.js source", () => {
  it.skipIf(!host || !bins || !goOk || !registryBin)(
    `pulls a chaincode image from a registry and runs a Node.js source as an image (Fabric ${VERSION})`,
    { timeout: 900_000 },
    async () => {
      const docker = dockerClient({ name: "test", host: host! });
      registry = await startTestRegistry(registryBin!);
      // The Go test chaincode's image, pushed to the registry and then removed from the engine.
      const image = `${registry.address}/cl-test/asset-go:${process.pid}`;
      await buildAssetGoImage(docker, work, image);
      // An anonymous push: the engine wants an X-Registry-Auth header even when it is empty.
      await follow(docker, await docker.getImage(image).push({ authconfig: {} }));
      await docker.getImage(image).remove({ force: true });
      await expect(docker.getImage(image).inspect()).rejects.toMatchObject({ statusCode: 404 });

      const h = await fabricApi({ env: { CHAINLAUNCH_DOCKER_HOST: host! } });
      harness = h;
      const org = await h.ok("POST", "/organizations", { mspId: "RgOrg1MSP", name: "Registry Org 1" });
      const ord = await h.ok("POST", "/organizations", { mspId: "RgOrdMSP", name: "Registry Orderers" });
      const [peer] = await h.createNodes(org, 1, 0, "rg1-");
      const [orderer] = await h.createNodes(ord, 0, 1, "rgo-");
      const net = await h.ok("POST", "/networks/fabric", {
        name: "rgchannel",
        config: {
          batchTimeout: TEST_BATCH_TIMEOUT,
          peerOrganizations: [{ id: org.id, nodeIds: [peer.id] }],
          ordererOrganizations: [{ id: ord.id, nodeIds: [orderer.id] }],
        },
      });
      await h.ok("POST", `/networks/fabric/${net.id}/orderers/${orderer.id}/join`);
      await h.ok("POST", `/networks/fabric/${net.id}/peers/${peer.id}/join`);

      /** A definition of a new chaincode on the channel. */
      const define = async (name: string, fields: Record<string, unknown>) => {
        const cc = (await h.ok("POST", "/sc/fabric/chaincodes", { name, network_id: net.id })).chaincode;
        const def = (
          await h.ok("POST", `/sc/fabric/chaincodes/${cc.id}/definitions`, { version: "1.0", sequence: 1, ...fields })
        ).definition;
        return { cc, def };
      };
      /** Install, approve and commit (deploy is the caller's). */
      const commit = async (defId: number) => {
        await h.ok("POST", `/sc/fabric/definitions/${defId}/install`, { peer_ids: [peer.id] });
        await h.ok("POST", `/sc/fabric/definitions/${defId}/approve`, { peer_id: peer.id });
        await h.ok("POST", `/sc/fabric/definitions/${defId}/commit`, { peer_id: peer.id });
      };
      /** Writes and reads an asset through the peer: the chaincode container answers. */
      const answers = async (ccId: number, id: string, value: string) => {
        const wrote = await h.ok("POST", `/sc/fabric/chaincodes/${ccId}/invoke`, {
          function: "CreateAsset",
          args: [id, value],
        });
        expect(wrote.transaction_id).toMatch(/^[0-9a-f]{64}$/);
        const read = await h.ok("POST", `/sc/fabric/chaincodes/${ccId}/query`, { function: "ReadAsset", args: [id] });
        expect(read.result).toEqual({ id, value, version: "1" });
      };

      // An image the registry does not have: a 400 naming it, nothing runs.
      const absent = `${registry.address}/cl-test/not-pushed:1`;
      const pulled = await define("assetpull", { docker_image: absent, chaincode_address: "" });
      const notThere = await h.call("POST", `/sc/fabric/definitions/${pulled.def.id}/deploy`, {});
      expect(notThere.status).toBe(400);
      expect(notThere.body.message).toContain(`docker_image: image "${absent}" is not on the engine and could not`);
      expect(notThere.body.message).toMatch(/not found|manifest unknown/);

      // The pushed image: deploy pulls it from the registry and runs it.
      await h.ok("PUT", `/sc/fabric/definitions/${pulled.def.id}`, {
        version: "1.0",
        sequence: 1,
        docker_image: image,
      });
      await commit(pulled.def.id);
      const since = Math.floor(Date.now() / 1000) - 1;
      const deployed = await h.ok("POST", `/sc/fabric/definitions/${pulled.def.id}/deploy`, {});
      expect(deployed.message).toMatch(/^chaincode container chainlaunch-/);
      expect((await docker.getImage(image).inspect()).RepoTags).toContain(image);
      expect(await imageEvents(docker, "pull", image, since)).toHaveLength(1);
      const info = await h.ok("GET", `/sc/fabric/definitions/${pulled.def.id}/docker-info`);
      expect(info).toMatchObject({ image, state: "running" });
      expect((await docker.getContainer(info.id).inspect()).State.Running).toBe(true);
      await answers(pulled.cc.id, "p1", "pulled");
      await h.ok("POST", `/sc/fabric/definitions/${pulled.def.id}/undeploy`, {});
      await docker.getImage(image).remove({ force: true });

      // A Node.js source with docker_image: npm install in the sandbox as for a process, then an
      // image of it with its node_modules and the console's node, run as a container.
      const src = join(work, "asset-node");
      cpSync(ASSET_NODE, src, { recursive: true, filter: (p) => !/node_modules/.test(p) });
      const nodeImage = `cl-test/asset-node-src:${process.pid}`;
      const node = await define("assetnodeimg", { source_path: src, docker_image: nodeImage });
      expect(node.def.source_type).toBe("node");
      await commit(node.def.id);
      await h.ok("POST", `/sc/fabric/definitions/${node.def.id}/deploy`, {});
      const info2 = await h.ok("GET", `/sc/fabric/definitions/${node.def.id}/docker-info`);
      expect(info2).toMatchObject({ image: nodeImage, state: "running" });
      const inspected = await docker.getContainer(info2.id).inspect();
      expect(inspected.Config.Cmd?.[0]).toBe("node");
      expect(inspected.Config.WorkingDir).toBe("/chaincode");
      await answers(node.cc.id, "n1", "from-node");
      await h.ok("POST", `/sc/fabric/definitions/${node.def.id}/undeploy`, {});
      await docker.getImage(nodeImage).remove({ force: true });
    },
  );
});
