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
    const memory = page.getByTestId("metric-memory").getByRole("img", { name: "Memory (resident) chart" });
    await memory.waitFor();
    await screenshot(page, "node-metrics");
    // The y axis is as wide as its widest label: no label's ink is cut at the chart's left edge
    // (a fixed 60 px axis cut "67.1 MiB" to "7.1 MiB").
    await page.waitForFunction(() => document.querySelector('[aria-label="Memory (resident) chart"] canvas') !== null);
    const edge = await memory.locator("canvas").evaluate((c: HTMLCanvasElement) => {
      const ctx = c.getContext("2d");
      if (!ctx) return { inked: -1, labels: 0 };
      const ratio = window.devicePixelRatio || 1;
      // Columns 0-3 (CSS px) hold no ink; somewhere in the axis band (up to 120 px) there is some.
      const left = ctx.getImageData(0, 0, Math.ceil(4 * ratio), c.height).data;
      const band = ctx.getImageData(0, 0, Math.ceil(120 * ratio), c.height).data;
      const count = (d: Uint8ClampedArray) => d.filter((_, i) => i % 4 === 3 && d[i]! > 0).length;
      return { inked: count(left), labels: count(band) };
    });
    expect(edge.labels).toBeGreaterThan(0);
    expect(edge.inked).toBe(0);
    const height = await apiCall<{ height: number }>(
      s.baseUrl,
      admin(),
      "GET",
      `/nodes/${peerId}/channels/${CHANNEL}/height`,
    );
    expect(height.data.height).toBeGreaterThanOrEqual(1);
  });
});
