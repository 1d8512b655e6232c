import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAssetGoImage, haveGo } from "../../server/src/test-support/chaincode-image.js";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { consoleContainers, specEngine } from "../support/docker.js";
import { createOneOrgChannel, removeFabricFixtures } from "../support/fabric.js";

const SUFFIX = Date.now().toString(36);
const MSP = `CcDock${SUFFIX}MSP`;
const CHANNEL = `ccdock-${SUFFIX}`;
const CHAINCODE = `assetdock-${SUFFIX}`;
/** Built by this spec on the run's dockerd from the Go test chaincode, FROM scratch, no registry. */
const IMAGE = `cl-e2e/asset-go:${SUFFIX}`;

const engine = specEngine("chaincode from a Docker image (browser)");
const goOk = engine ? await haveGo("chaincode from a Docker image (browser)") : false;

/**
 * Issue 31: the chaincode flow of the browser, with the definition form's source "Docker image": an
 * image the spec builds on the real dockerd is installed, approved, committed and deployed from the
 * lifecycle screen; it answers an invoke and a query from the chaincode's page, the page shows its
 * container as the engine reports it, and undeploy (then the cleanup) leaves no container.
 */
describe.skipIf(!engine || !goOk)("chaincode from a Docker image", () => {
  let s: Session;
  let orgId = 0;
  let definitionId = 0;
  const nodeIds: number[] = [];
  const ports: string[] = [];
  const work = mkdtempSync(join(tmpdir(), "cl-e2e-ccdock-"));
  const admin = adminUser;

  /** The console's containers of this spec's definition, stopped ones included. */
  const ccContainers = async () => (definitionId ? consoleContainers(engine!.docker, `cc-${definitionId}`) : []);

  beforeAll(async () => {
    s = await openSession();
    // The channel's nodes (processes) and the image are independent: made side by side.
    const [fx] = await Promise.all([
      createOneOrgChannel(s.baseUrl, admin(), {
        mspId: MSP,
        orgName: `ccdock-e2e-${SUFFIX}`,
        channel: CHANNEL,
        tag: `ccdock-${SUFFIX}`,
        ports,
      }),
      buildAssetGoImage(engine!.docker, work, IMAGE),
    ]);
    orgId = fx.orgId;
    nodeIds.push(...fx.nodeIds);
  }, 240_000);

  afterAll(async () => {
    // Deleting the chaincode stops its server, which removes the container.
    const list = await apiCall<{ chaincodes: { id: number; name: string }[] }>(
      s.baseUrl,
      admin(),
      "GET",
      "/sc/fabric/chaincodes",
    );
    for (const c of list.data.chaincodes.filter((x) => x.name === CHAINCODE)) {
      await apiCall(s.baseUrl, admin(), "DELETE", `/sc/fabric/chaincodes/${c.id}`);
    }
    const survivors = await removeFabricFixtures(s.baseUrl, admin(), { channels: [CHANNEL], orgId, nodeIds, ports });
    const containersLeft = await ccContainers();
    await engine!.docker
      .getImage(IMAGE)
      .remove({ force: true })
      .catch(() => undefined); // not built when the setup failed
    rmSync(work, { recursive: true, force: true });
    await s.close();
    expect(survivors).toEqual([]);
    expect(containersLeft).toEqual([]);
  }, 120_000);

  it("creates a definition with the source Docker image from the form", async () => {
    const page = s.page;
    await openAs(s, admin(), "/smart-contracts/fabric");
    await page.getByRole("heading", { name: "Fabric Chaincodes" }).waitFor();
    await page.getByRole("button", { name: "Create chaincode" }).first().click();
    await page.getByLabel("Name").fill(CHAINCODE);
    await page.getByLabel("Network").selectOption({ label: CHANNEL });
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.waitForURL(/\/sc\/fabric\/chaincodes\/\d+$/);
    await page.getByRole("heading", { name: CHAINCODE }).waitFor();

    await page.getByRole("link", { name: "Add definition" }).first().click();
    await page.waitForURL(/add-definition$/);
    await page.getByLabel("Version").fill("1.0");
    await page.getByLabel("Sequence").fill("1");
    await page.getByLabel("Policy builder").getByLabel(MSP).check();
    await page.getByRole("button", { name: "Use this policy" }).click();
    // The source "Docker image" swaps the source path and upload for the image field.
    await page.getByLabel("Source type").selectOption({ label: "Docker image (needs a Docker engine)" });
    const image = page.getByRole("textbox", { name: "Docker image" });
    await image.waitFor();
    expect(await page.getByLabel("Source path").count()).toBe(0);
    // No image named: the form says so before sending anything.
    await page.getByRole("button", { name: "Create definition" }).click();
    await page.getByText("docker_image: name the image to run").waitFor();

    await image.fill(IMAGE);
    const created = page.waitForResponse(
      (r) => r.request().method() === "POST" && /\/api\/v1\/sc\/fabric\/chaincodes\/\d+\/definitions$/.test(r.url()),
    );
    await page.getByRole("button", { name: "Create definition" }).click();
    const res = await created;
    // 200, as upstream answers it.
    expect(res.status(), await res.text()).toBe(200);
    const def = ((await res.json()) as { definition: { id: number; source_type: string; docker_image: string } })
      .definition;
    expect(def).toMatchObject({ source_type: "docker", docker_image: IMAGE });
    definitionId = def.id;
    await page.waitForURL(/\/sc\/fabric\/chaincodes\/\d+$/);
    // The definition's summary names the image; the console chose the address.
    await page
      .getByRole("definition")
      .filter({ hasText: `Docker image ${IMAGE}` })
      .waitFor();
  });

  it("installs, approves, commits and deploys the image from the lifecycle screen", { timeout: 180_000 }, async () => {
    const page = s.page;
    await page.getByRole("button", { name: "Install", exact: true }).click();
    await page.locator('[data-step="install"][data-state="done"]').waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: `Approve for ${MSP}` }).click();
    await page.locator('[data-step="approve"][data-state="done"]').waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: "Commit", exact: true }).click();
    await page.locator('[data-step="commit"][data-state="done"]').waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: "Deploy", exact: true }).click();
    await page.locator('[data-step="deploy"][data-state="done"]').waitFor({ timeout: 120_000 });

    // The page shows the container the engine runs: its id (short, the full one as the title), image and state.
    const containers = await ccContainers();
    expect(containers).toHaveLength(1);
    const c = containers[0]!;
    expect(c).toMatchObject({ Image: IMAGE, State: "running" });
    const shown = page.getByTestId("definition-container");
    await shown.getByTitle(c.Id).getByText(c.Id.slice(0, 12), { exact: true }).waitFor();
    await shown.getByText(IMAGE, { exact: true }).waitFor();
    await shown.getByText("running", { exact: true }).waitFor();
    await screenshot(page, "chaincode-docker-deployed");
  });

  it("answers an invoke and a query from the chaincode's page", async () => {
    const page = s.page;
    const panel = page
      .locator('[data-slot="card"]')
      .filter({ has: page.getByRole("heading", { name: "Invoke or query" }) });
    await panel.getByLabel("Function", { exact: true }).fill("CreateAsset");
    await panel.getByLabel("Arguments (one per line)").fill(`d-${SUFFIX}\ngreen`);
    await panel.getByRole("button", { name: "Invoke" }).click();
    await panel.getByText(/^Committed in \d+ ms/).waitFor({ timeout: 60_000 });

    await panel.getByLabel("Function", { exact: true }).fill("ReadAsset");
    await panel.getByLabel("Arguments (one per line)").fill(`d-${SUFFIX}`);
    await panel.getByRole("button", { name: "Query" }).click();
    await panel.getByText(/^Evaluated in \d+ ms/).waitFor({ timeout: 30_000 });
    const result = await panel.getByTestId("call-result").locator("pre").textContent();
    expect(JSON.parse(result ?? "{}")).toEqual({ id: `d-${SUFFIX}`, value: "green", version: "1" });
  });

  it("undeploys from the screen and leaves no container", async () => {
    const page = s.page;
    await page.getByRole("button", { name: "Undeploy", exact: true }).click();
    await page.getByRole("button", { name: "Deploy", exact: true }).waitFor({ timeout: 60_000 });
    await page.getByTestId("definition-container").waitFor({ state: "detached" });
    expect(await ccContainers()).toEqual([]);
  });
});
