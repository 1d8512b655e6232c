import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { join } from "node:path";
import { adminUser, ARTIFACTS, MOBILE, openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { createOneOrgChannel, removeFabricFixtures } from "../support/fabric.js";
import { freePort } from "../support/server.js";

const SUFFIX = Date.now().toString(36);
const CHANNEL = `an-${SUFFIX}`;

interface NodeRow {
  id: number;
  name: string;
}

/**
 * Issue 14's Analytics screen on a real one-org channel (peer + orderer): the channel with both
 * members' heights, both nodes' uptime from real health checks, the certificate timeline with the
 * nodes' certificates, and with a real Prometheus the transactions card.
 */
describe("analytics", () => {
  let s: Session;
  let orgId = 0;
  const nodeIds: number[] = [];
  const nodes: NodeRow[] = [];
  const ports: string[] = [];
  const admin = adminUser;
  let settings: Record<string, unknown> = {};

  beforeAll(async () => {
    s = await openSession();
    // Health checks every second, so the uptime rows have checks within the test (restored after).
    settings = (await apiCall<{ config: Record<string, unknown> }>(s.baseUrl, admin(), "GET", "/settings")).data.config;
    await apiCall(s.baseUrl, admin(), "POST", "/settings", { config: { ...settings, healthCheckInterval: "1s" } });
    const fx = await createOneOrgChannel(s.baseUrl, admin(), {
      mspId: `AnE2e${SUFFIX}MSP`,
      orgName: `an-e2e-${SUFFIX}`,
      channel: CHANNEL,
      tag: `an-${SUFFIX}`,
      ports,
    });
    orgId = fx.orgId;
    nodeIds.push(...fx.nodeIds);
    for (const id of nodeIds) nodes.push((await apiCall<NodeRow>(s.baseUrl, admin(), "GET", `/nodes/${id}`)).data);
  }, 240_000);

  afterAll(async () => {
    await apiCall(s.baseUrl, admin(), "POST", "/metrics/undeploy");
    await apiCall(s.baseUrl, admin(), "POST", "/settings", { config: settings });
    const survivors = await removeFabricFixtures(s.baseUrl, admin(), { channels: [CHANNEL], orgId, nodeIds, ports });
    await s.close();
    expect(survivors).toEqual([]);
  });

  it("shows the channel's heights, the nodes' uptime and their certificates", async () => {
    await openAs(s, admin(), "/platform/analytics");
    const page = s.page;
    await page.getByRole("heading", { name: "Analytics", level: 1 }).waitFor();

    const channel = page.getByRole("region", { name: `Channel ${CHANNEL}` });
    for (const n of nodes) {
      // Both members answer with a height of at least the genesis block.
      await channel
        .getByLabel(`${n.name} height`)
        .getByText(/^[1-9]\d*$/)
        .waitFor({ timeout: 30_000 });
    }

    for (const n of nodes) {
      const row = page.getByLabel(`${n.name} uptime`);
      await row.getByText(/^\d+(\.\d)?%$/).waitFor({ timeout: 30_000 });
      await row.getByText(/^Up since|^Not healthy/).waitFor();
    }

    const table = page.getByRole("table", { name: "Certificates by expiry" });
    await table.waitFor();
    expect(await page.getByTestId("timeline-marker").count()).toBeGreaterThanOrEqual(4);
    for (const n of nodes) {
      await page.getByRole("img", { name: new RegExp(`^Node TLS certificate, ${n.name}: Valid for`) }).waitFor();
      await page.getByRole("img", { name: new RegExp(`^Node signing certificate, ${n.name}:`) }).waitFor();
    }
    // Without Prometheus the transactions card points at Monitoring.
    await page.getByRole("link", { name: "Go to Monitoring" }).waitFor();
    await screenshot(page, "analytics-no-prometheus");
  });

  it("charts transactions per minute once Prometheus runs", async () => {
    const port = await freePort();
    const deployed = await apiCall(s.baseUrl, admin(), "POST", "/metrics/deploy", {
      prometheus_port: port,
      prometheus_version: "installed",
      scrape_interval: 1,
    });
    expect(deployed.status).toBeLessThan(300);
    // Wait (bounded) until Prometheus answers the card's own query for the peer, so what the page
    // must show is known: a chart when a series exists, the no-data state when none turned up.
    const peerId = nodeIds[1] as number;
    const query = encodeURIComponent("sum by (channel) (rate(ledger_transaction_count[2m])) * 60");
    let seriesCount = 0;
    for (let i = 0; i < 60 && seriesCount === 0; i++) {
      const end = Math.ceil(Date.now() / 1000);
      const r = await apiCall<{ data?: { result?: unknown[] } }>(
        s.baseUrl,
        admin(),
        "GET",
        `/metrics/node/${peerId}/range?query=${query}&start=${end - 900}&end=${end}&step=8s`,
      );
      seriesCount = r.data.data?.result?.length ?? 0;
      if (seriesCount === 0) await new Promise((res) => setTimeout(res, 1000));
    }
    const page = s.page;
    await page.reload();
    await page.getByLabel("Time range").waitFor({ timeout: 30_000 });
    if (seriesCount > 0) {
      await page.getByRole("img", { name: "Transactions per minute chart" }).waitFor({ timeout: 30_000 });
      // Nothing invokes chaincode here: the chart says so when every point is 0.
      await page.getByText(CHANNEL).first().waitFor();
    } else {
      await page.getByText("No transaction data in this range yet.").waitFor();
    }
    await screenshot(page, "analytics");
    await page.screenshot({ path: join(ARTIFACTS, "analytics-full.png"), fullPage: true });

    await page.setViewportSize(MOBILE);
    await page.getByLabel(`${nodes[0]?.name} uptime`).scrollIntoViewIfNeeded();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "analytics-mobile");
    await page.screenshot({ path: join(ARTIFACTS, "analytics-mobile-full.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
