import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { createOneOrgChannel, removeFabricFixtures } from "../support/fabric.js";
import { freePort } from "../support/server.js";

const SUFFIX = Date.now().toString(36);
const CHANNEL = `mt-${SUFFIX}`;

/**
 * Issue 14 in the browser: Prometheus deployed from the Monitoring page (real Debian prometheus),
 * its targets (a real peer and orderer) turning up, and the peer's Metrics tab drawing the block
 * height of the channel from what Prometheus scraped.
 */
describe("metrics", () => {
  let s: Session;
  let orgId = 0;
  const nodeIds: number[] = [];
  const ports: string[] = [];
  const admin = adminUser;

  beforeAll(async () => {
    s = await openSession();
    const fx = await createOneOrgChannel(s.baseUrl, admin(), {
      mspId: `MtE2e${SUFFIX}MSP`,
      orgName: `mt-e2e-${SUFFIX}`,
      channel: CHANNEL,
      tag: `mt-${SUFFIX}`,
      ports,
    });
    orgId = fx.orgId;
    nodeIds.push(...fx.nodeIds);
  }, 240_000);

  afterAll(async () => {
    await apiCall(s.baseUrl, admin(), "POST", "/metrics/undeploy");
    const survivors = await removeFabricFixtures(s.baseUrl, admin(), { channels: [CHANNEL], orgId, nodeIds, ports });
    await s.close();
    expect(survivors).toEqual([]);
  });

  it("deploys Prometheus from the Monitoring page and lists the nodes as healthy targets", async () => {
    await openAs(s, admin(), "/monitoring");
    const page = s.page;
    await page.getByText("Prometheus is not deployed").waitFor();
    await page.getByLabel("Port", { exact: true }).fill(String(await freePort()));
    await page.getByLabel("Scrape interval (seconds)").fill("1");
    await page.getByRole("button", { name: "Deploy Prometheus" }).click();
    await page.getByText("running", { exact: true }).waitFor({ timeout: 60_000 });
    for (const id of nodeIds) {
      const row = page.getByRole("row").filter({ has: page.locator(`a[href="/nodes/${id}"]`) });
      await row.getByText("up", { exact: true }).waitFor({ timeout: 60_000 });
    }
    await screenshot(page, "monitoring-deployed");
  });

  it("draws the peer's block height on its Metrics tab", async () => {
    const peerId = nodeIds[1] as number;
    const page = s.page;
    await page.goto(`${s.baseUrl}/nodes/${peerId}`);
    await page.getByRole("tab", { name: "Metrics" }).click();
    const panel = page.getByTestId("metric-height");
    // The first scrape may land just after the tab opened: the auto refresh picks it up.
    await page.getByLabel("Auto refresh").selectOption({ label: "15 s" });
    await panel.getByRole("img", { name: "Block height chart" }).waitFor({ timeout: 60_000 });
    await panel.getByText(CHANNEL).first().waitFor();
    await page.getByTestId("metric-memory").getByRole("img", { name: "Memory (resident) chart" }).waitFor();
    await screenshot(page, "node-metrics");
    const height = await apiCall<{ height: number }>(
      s.baseUrl,
      admin(),
      "GET",
      `/nodes/${peerId}/channels/${CHANNEL}/height`,
    );
    expect(height.data.height).toBeGreaterThanOrEqual(1);
  });
});
