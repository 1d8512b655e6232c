import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { createFabricNodes, removeFabricFixtures, type FabricNode } from "../support/fabric.js";

const SUFFIX = Date.now().toString(36);
const CHANNEL = `govdiff-${SUFFIX}`;
const MSP_A = `DiffA${SUFFIX}MSP`;
const MSP_B = `DiffB${SUFFIX}MSP`;
const MSP_O = `DiffO${SUFFIX}MSP`;
const APP = "channel_group.groups.Application";
const ORD = "channel_group.groups.Orderer";

interface Org {
  id: number;
  mspId: string;
}

/**
 * Issue 33 item 4 on real nodes: a channel of two peer orgs and a running orderer; proposals made
 * on the create screen are computed by the server against the orderer's config. Removing an org
 * used to read "No changes" on the proposal screen (the read/write sets hold nothing of a removed
 * org); the screen must name the removed org, and a batch-size change must read old → new.
 */
describe("proposal screen shows what the config update changes", () => {
  let s: Session;
  let networkId = 0;
  let orderer: FabricNode | undefined;
  const orgs: Org[] = [];
  const ports: string[] = [];
  const admin = adminUser;

  beforeAll(async () => {
    s = await openSession();
    for (const mspId of [MSP_A, MSP_B, MSP_O]) {
      const o = await apiCall<Org>(s.baseUrl, admin(), "POST", "/organizations", { mspId, name: mspId });
      expect(o.status, JSON.stringify(o.data)).toBe(201);
      orgs.push(o.data);
    }
    const ord = orgs[2]!;
    [orderer] = await createFabricNodes(
      s.baseUrl,
      admin(),
      ord,
      { orderers: [`orderer0-${CHANNEL}`], peers: [] },
      ports,
    );
    const net = await apiCall<{ id: number }>(s.baseUrl, admin(), "POST", "/networks/fabric", {
      name: CHANNEL,
      config: {
        peerOrganizations: orgs.slice(0, 2).map((o) => ({ id: o.id, nodeIds: [] })),
        ordererOrganizations: [{ id: ord.id, nodeIds: [orderer!.id] }],
        batchTimeout: "500ms",
      },
    });
    expect(net.status, JSON.stringify(net.data)).toBe(201);
    networkId = net.data.id;
    const j = await apiCall(s.baseUrl, admin(), "POST", `/networks/fabric/${networkId}/orderers/${orderer!.id}/join`);
    expect(j.status, JSON.stringify(j.data)).toBe(200);
  }, 240_000);

  afterAll(async () => {
    const survivors = await removeFabricFixtures(s.baseUrl, admin(), {
      channels: [CHANNEL],
      orgId: orgs[2]?.id ?? 0,
      nodeIds: orderer ? [orderer.id] : [],
      ports,
    });
    await s.close();
    expect(survivors).toEqual([]);
  }, 120_000);

  const createFromScreen = async (fill: () => Promise<void>): Promise<void> => {
    const page = s.page;
    await page.goto(`/networks/${networkId}/fabric/proposals/create`);
    await page.getByRole("heading", { name: "Create proposal", level: 1 }).waitFor();
    await fill();
    await page.getByRole("button", { name: "Create proposal" }).click();
    await page.waitForURL(new RegExp(`/networks/${networkId}/fabric/proposals/[0-9a-f-]{36}$`), { timeout: 60_000 });
  };

  it("a removal names the removed organization, not 'No changes'", { timeout: 120_000 }, async () => {
    await openAs(s, admin(), `/networks/${networkId}/fabric?tab=proposals`);
    const page = s.page;
    await createFromScreen(async () => {
      // The editors need the channel's config from the running orderer.
      await page.getByLabel("Operation", { exact: true }).selectOption("remove_org");
      await page.getByRole("button", { name: "Add operation" }).click();
      await page.getByTestId("operation-0").getByLabel("Organization").selectOption(MSP_B);
    });
    await page.getByRole("heading", { name: "Proposal: remove_org", level: 1 }).waitFor();
    await page.getByRole("heading", { name: "Changes" }).waitFor();
    expect(await page.getByText("No changes", { exact: true }).count()).toBe(0);
    const diff = page.getByTestId("proposal-diff");
    await diff.waitFor();
    const removed = diff.locator('li[data-kind="removed"]');
    expect(await removed.getByTestId("change-path").allTextContents()).toEqual([`${APP}.groups.${MSP_B}`]);
    expect(await removed.getByTestId("change-values").textContent()).toMatch(
      new RegExp(`^group: organization ${MSP_B}, root CA certificate .*; values MSP; policies Admins`),
    );
    expect(await page.getByTestId("proposal-diff-summary").textContent()).toBe("1 removed");
    expect(await page.getByText("No changes").count()).toBe(0);
    await screenshot(page, "proposal-diff-removal");
  });

  it("a batch-size change reads old → new", { timeout: 120_000 }, async () => {
    const page = s.page;
    await createFromScreen(async () => {
      await page.getByLabel("Operation", { exact: true }).selectOption("batch");
      await page.getByRole("button", { name: "Add operation" }).click();
      const op = page.getByTestId("operation-0");
      const count = op.getByLabel("Max message count");
      // The editor starts from the channel's current value, read from the orderer.
      await page.waitForFunction((el) => (el as HTMLInputElement | null)?.value !== "", await count.elementHandle());
      await count.fill("20");
    });
    await page.getByRole("heading", { name: "Proposal: batch", level: 1 }).waitFor();
    const changed = page.getByTestId("proposal-diff").locator('li[data-kind="changed"]');
    await changed.first().waitFor();
    expect(await changed.getByTestId("change-path").allTextContents()).toEqual([
      `${ORD}.values.BatchSize.value.max_message_count`,
    ]);
    const before = await changed.getByTestId("change-before").textContent();
    expect(before).toMatch(/^\d+$/);
    expect(before).not.toBe("20");
    expect(await changed.getByTestId("change-after").textContent()).toBe("20");
    expect(await changed.getByTestId("change-values").textContent()).toBe(`${before} → 20`);
    await screenshot(page, "proposal-diff-batch");
  });
});
