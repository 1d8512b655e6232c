import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFabricBinaryResolver } from "../../server/src/runtime/index.js";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { createOneOrgChannel, removeFabricFixtures } from "../support/fabric.js";

const SUFFIX = Date.now().toString(36);
const MSP = `CcE2e${SUFFIX}MSP`;
const CHANNEL = `cc-${SUFFIX}`;
const CHAINCODE = `asset-${SUFFIX}`;
/** Committed with Fabric's own peer CLI, outside the console. */
const EXTERNAL = `outside-${SUFFIX}`;
const run = promisify(execFile);
/** The Node.js test chaincode, copied by the console from this host path. */
const SOURCE = resolve(
  import.meta.dirname,
  "..",
  "..",
  "server",
  "src",
  "fabric",
  "test-support",
  "chaincode",
  "asset-node",
);

/**
 * Issue 11: a user goes from an empty chaincode list to a successful invoke on the playground, on a
 * real peer and orderer: create the chaincode, add a definition from a source folder, install,
 * approve, commit and deploy from the lifecycle screen, then submit and evaluate in the playground.
 * Issue 32: a chaincode committed with the peer CLI shows on the network's Chaincodes tab, marked as
 * committed outside this console, and its page shows the definition.
 */
describe("fabric chaincode", () => {
  let s: Session;
  let orgId = 0;
  let networkId = 0;
  let peerId = 0;
  const nodeIds: number[] = [];
  const ports: string[] = [];
  const admin = adminUser;

  beforeAll(async () => {
    s = await openSession();
    const fx = await createOneOrgChannel(s.baseUrl, admin(), {
      mspId: MSP,
      orgName: `cc-e2e-${SUFFIX}`,
      channel: CHANNEL,
      tag: `cc-${SUFFIX}`,
      ports,
    });
    orgId = fx.orgId;
    networkId = fx.networkId;
    peerId = fx.peerId;
    nodeIds.push(...fx.nodeIds);
  }, 240_000);

  afterAll(async () => {
    const list = await apiCall<{ chaincodes: { id: number; name: string }[] }>(
      s.baseUrl,
      admin(),
      "GET",
      "/sc/fabric/chaincodes",
    );
    for (const c of list.data.chaincodes.filter((x) => x.name === CHAINCODE || x.name === EXTERNAL)) {
      await apiCall(s.baseUrl, admin(), "DELETE", `/sc/fabric/chaincodes/${c.id}`);
    }
    const survivors = await removeFabricFixtures(s.baseUrl, admin(), { channels: [CHANNEL], orgId, nodeIds, ports });
    await s.close();
    expect(survivors).toEqual([]);
  }, 120_000);

  it("goes from an empty list to a successful invoke in the playground", { timeout: 300_000 }, async () => {
    const page = s.page;
    await openAs(s, admin(), "/smart-contracts/fabric");
    await page.getByRole("heading", { name: "Fabric Chaincodes" }).waitFor();
    await page.getByText("No chaincodes yet").waitFor();
    await page.getByRole("button", { name: "Create chaincode" }).first().click();
    await page.getByLabel("Name").fill(CHAINCODE);
    await page.getByLabel("Network").selectOption({ label: CHANNEL });
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.waitForURL(/\/sc\/fabric\/chaincodes\/\d+$/);
    await page.getByRole("heading", { name: CHAINCODE }).waitFor();

    // A definition whose code comes from a folder on the console host.
    await page.getByRole("link", { name: "Add definition" }).first().click();
    await page.waitForURL(/add-definition$/);
    await page.getByLabel("Version").fill("1.0");
    await page.getByLabel("Sequence").fill("1");
    // The policy builder writes the DSL.
    await page.getByLabel("Policy builder").getByLabel(MSP).check();
    await page.getByRole("button", { name: "Use this policy" }).click();
    expect(await page.getByLabel("Endorsement policy").inputValue()).toBe(`AND('${MSP}.peer')`);
    await page.getByLabel("Source path").fill(SOURCE);
    await page.getByRole("button", { name: "Create definition" }).click();
    await page.waitForURL(/\/sc\/fabric\/chaincodes\/\d+$/);

    // The lifecycle, step by step, with the state read back from the peer.
    await page.getByRole("button", { name: "Install", exact: true }).click();
    await page.locator('[data-step="install"][data-state="done"]').waitFor({ timeout: 60_000 });
    // Each step says it is done in a toast too.
    await page.locator('[data-toast-kind="success"]').getByText("Install done").waitFor();
    await page.getByRole("button", { name: `Approve for ${MSP}` }).click();
    await page.locator('[data-step="approve"][data-state="done"]').waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: "Commit", exact: true }).click();
    await page.locator('[data-step="commit"][data-state="done"]').waitFor({ timeout: 60_000 });
    await page.locator('[data-toast-kind="success"]').getByText("Commit done").waitFor();
    await page.getByRole("button", { name: "Deploy", exact: true }).click();
    await page.locator('[data-step="deploy"][data-state="done"]').waitFor({ timeout: 180_000 });
    await screenshot(page, "chaincode-lifecycle-done");

    // The playground lists the contract's functions from its metadata.
    await page.getByRole("link", { name: "Playground" }).click();
    await page.waitForURL(/\/playground$/);
    await page.getByRole("button", { name: /^CreateAsset/ }).click();
    const create = page.getByTestId("fn-CreateAsset");
    // fabric-shim numbers a plain JavaScript contract's parameters (arg0, arg1…); the console names
    // them from the definition's source.
    await create.getByLabel(/^id/).fill("e2e-1");
    expect(await create.getByLabel(/^arg0/).count()).toBe(0);
    await create.getByLabel(/^value/).fill("violet");
    await create.getByRole("button", { name: "Submit" }).click();
    await create.getByText(/^Committed in \d+ ms/).waitFor({ timeout: 60_000 });

    await page.getByRole("button", { name: /^ReadAsset/ }).click();
    const read = page.getByTestId("fn-ReadAsset");
    await read.getByLabel(/^id/).fill("e2e-1");
    await read.getByRole("button", { name: "Evaluate" }).click();
    await read.getByText(/^Evaluated in \d+ ms/).waitFor({ timeout: 30_000 });
    const result = await read.getByTestId("call-result").locator("pre").textContent();
    expect(JSON.parse(result ?? "{}")).toEqual({ id: "e2e-1", value: "violet", version: "1" });
    // Both calls are in the history, newest first.
    const history = page.getByRole("table", { name: "Call history" });
    await history.getByText("query ReadAsset(e2e-1)").waitFor();
    await history.getByText("invoke CreateAsset(e2e-1, violet)").waitFor();
    await screenshot(page, "chaincode-playground");
  });

  it("shows a chaincode the peer CLI committed on the network's Chaincodes tab", { timeout: 180_000 }, async () => {
    const ok = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const r = await apiCall<T>(s.baseUrl, admin(), method, path, body);
      if (r.status < 200 || r.status > 299) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.data)}`);
      return r.data;
    };
    type FabricNodeJson = {
      fabricPeer?: { externalEndpoint: string; version: string };
      fabricOrderer?: { externalEndpoint: string };
    };
    const peer = await ok<FabricNodeJson>("GET", `/nodes/${peerId}`);
    const ordererId = nodeIds.find((id) => id !== peerId)!;
    const orderer = await ok<FabricNodeJson>("GET", `/nodes/${ordererId}`);
    // The org admin's MSP folder, written by the console on this host; its peer's folder has a core.yaml.
    const msp = await ok<{ path: string; tlsRootCertFile: string }>("POST", `/organizations/${orgId}/msp/export`, {});
    const nodesDir = join(msp.path.slice(0, msp.path.indexOf("/exports/")), "nodes");
    const cfgDir = join(
      nodesDir,
      readdirSync(nodesDir).find((n) => n.startsWith(`peer0-cc-${SUFFIX}`))!,
      "config",
    );
    const bins = await createFabricBinaryResolver({ downloader: null }).findLocal(peer.fabricPeer!.version, ["peer"]);
    const env = {
      ...process.env,
      FABRIC_CFG_PATH: cfgDir,
      CORE_PEER_LOCALMSPID: MSP,
      CORE_PEER_MSPCONFIGPATH: msp.path,
      CORE_PEER_ADDRESS: peer.fabricPeer!.externalEndpoint,
      CORE_PEER_TLS_ENABLED: "true",
      CORE_PEER_TLS_ROOTCERT_FILE: msp.tlsRootCertFile,
    };
    const common = [
      ...["-o", orderer.fabricOrderer!.externalEndpoint, "--tls", "--cafile", msp.tlsRootCertFile],
      ...["--channelID", CHANNEL, "--name", EXTERNAL, "--version", "3.0", "--sequence", "1"],
    ];
    // Nothing installed: approve without a package, then commit.
    await run(bins!.paths.peer!, ["lifecycle", "chaincode", "approveformyorg", ...common], { env });
    await run(
      bins!.paths.peer!,
      [
        ...["lifecycle", "chaincode", "commit", ...common],
        ...["--peerAddresses", peer.fabricPeer!.externalEndpoint, "--tlsRootCertFiles", msp.tlsRootCertFile],
      ],
      { env },
    );

    const page = s.page;
    await openAs(s, admin(), `/networks/${networkId}/fabric?tab=chaincodes`);
    const row = page.getByRole("row").filter({ hasText: EXTERNAL });
    await row.getByText("Committed outside this console").waitFor({ timeout: 30_000 });
    expect(await row.textContent()).toContain("v3.0 · sequence 1");
    await screenshot(page, "chaincode-committed-outside");
    await row.getByRole("link", { name: EXTERNAL }).click();
    await page.waitForURL(/\/networks\/fabric\/chaincodes\/\d+$/);
    await page.getByRole("link", { name: "Manage lifecycle" }).click();
    await page.waitForURL(/\/sc\/fabric\/chaincodes\/\d+$/);
    await page.getByText("Definition v3.0 (sequence 1)").waitFor();
    await page.getByText(/Committed on .* outside this console/).waitFor();
    // Away from the tab, which reads the channel again (and would adopt it again) while it is shown.
    await openAs(s, admin(), "/smart-contracts/fabric");
  });
});
