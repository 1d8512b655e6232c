import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { createFabricNodes, fabricProcesses, removeFabricFixtures, waitNodeStatus } from "../support/fabric.js";
import { adminUser, openAs, openSession, screenshot, type Session } from "../support/browser.js";

const SUFFIX = Date.now().toString(36);
const MSP = `ChanE2e${SUFFIX}MSP`;
const CHANNEL = `ch-${SUFFIX}`;
const CHANNEL2 = `ch2-${SUFFIX}`;
const PEER = `peer0-ch-${SUFFIX}`;
const ORDERER = `orderer0-ch-${SUFFIX}`;

/** Issue 6: a channel created from the UI on a real orderer and peer, joined, inspected and changed. */
describe("fabric network", () => {
  let s: Session;
  let orgId = 0;
  const nodeIds: number[] = [];
  const ports: string[] = [];
  let networkId = 0;
  const admin = adminUser;

  const waitRunning = async (id: number, want = "RUNNING"): Promise<void> => {
    await waitNodeStatus(s.baseUrl, admin(), id, want);
  };

  beforeAll(async () => {
    s = await openSession();
    const org = await apiCall<{ id: number }>(s.baseUrl, admin(), "POST", "/organizations", {
      mspId: MSP,
      name: `chan-e2e-${SUFFIX}`,
    });
    expect(org.status).toBe(201);
    orgId = org.data.id;
    const created = await createFabricNodes(
      s.baseUrl,
      admin(),
      { id: orgId, mspId: MSP },
      { orderers: [ORDERER], peers: [PEER] },
      ports,
    );
    nodeIds.push(...created.map((n) => n.id));
  }, 240_000);

  afterAll(async () => {
    // The network first, then every node (delete stops it): no peer or orderer may outlive the run.
    const survivors = await removeFabricFixtures(s.baseUrl, admin(), {
      channels: [CHANNEL, CHANNEL2],
      orgId,
      nodeIds,
      ports,
    });
    await s.close();
    expect(survivors).toEqual([]);
  }, 120_000);

  it("sees the test's peer and orderer processes running", () => {
    expect(fabricProcesses(ports).length).toBeGreaterThanOrEqual(2);
  });

  it("creates a channel from the form and watches both joins reach joined", { timeout: 180_000 }, async () => {
    await openAs(s, admin(), "/networks");
    await s.page.getByRole("link", { name: "Create Fabric network" }).first().click();
    await s.page.waitForURL(/\/networks\/fabric\/create$/);
    await s.page.getByRole("heading", { name: "Create Fabric Network" }).waitFor();
    await s.page.waitForFunction(() => document.title === "Create Fabric Network | ChainLaunch");
    // Fabric's rule is shown and enforced before the request.
    await s.page.getByLabel("Channel name").fill("Bad_Name");
    await s.page.getByRole("button", { name: "Create network" }).click();
    await s.page.getByText("starting with a letter").first().waitFor();
    await s.page.getByLabel("Channel name").fill(CHANNEL);
    await s.page.getByLabel("Description").fill("e2e channel");
    await s.page.getByTestId("orderer-orgs").getByLabel(MSP).check();
    await s.page.getByTestId("orderer-orgs").getByLabel(ORDERER).waitFor();
    expect(await s.page.getByTestId("orderer-orgs").getByLabel(ORDERER).isChecked()).toBe(true);
    await s.page.getByTestId("peer-orgs").getByLabel(MSP).check();
    expect(await s.page.getByTestId("peer-orgs").getByLabel(PEER).isChecked()).toBe(true);
    await s.page.getByLabel("Batch timeout").fill("2s");
    await s.page.getByRole("button", { name: "Create network" }).click();

    const progress = s.page.getByTestId("join-progress");
    await progress.waitFor({ timeout: 60_000 });
    for (const name of [ORDERER, PEER]) {
      await s.page.locator(`[data-testid="join-row-${name}"][data-state="joined"]`).waitFor({ timeout: 120_000 });
    }
    await progress.and(s.page.locator('[data-done="true"]')).waitFor();
    await screenshot(s.page, "fabric-network-joined");
    await s.page.getByRole("link", { name: `Open network ${CHANNEL}` }).click();
    await s.page.waitForURL(/\/networks\/\d+\/fabric$/);
    networkId = Number(/\/networks\/(\d+)\/fabric$/.exec(s.page.url())![1]);
    await s.page.getByRole("heading", { name: CHANNEL }).waitFor();
    await s.page.waitForFunction(() => document.title === "Fabric Network | ChainLaunch");
  });

  it("shows both nodes joined on the Nodes tab", async () => {
    await s.page.getByRole("tab", { name: "Nodes" }).click();
    for (const name of [ORDERER, PEER]) {
      const row = s.page.getByTestId(`member-row-${name}`);
      await row.waitFor();
      expect(await row.getAttribute("data-status")).toBe("joined");
    }
  });

  it("lists the org on the Organizations tab and sets its anchor peer", { timeout: 120_000 }, async () => {
    await s.page.getByRole("tab", { name: "Organizations" }).click();
    // The list comes from the current channel config once a joined node serves it (no fallback note).
    await s.page.getByTestId("orgs-source").waitFor({ state: "detached", timeout: 60_000 });
    await s.page.getByTestId("network-orgs").getByRole("link", { name: MSP }).waitFor();
    expect(await s.page.getByTestId(`org-row-${MSP}`).getAttribute("data-external")).toBe("false");
    await s.page.getByRole("tab", { name: "Anchor peers" }).click();
    await s.page.getByTestId("anchor-current").getByText("None").waitFor({ timeout: 60_000 });
    await s.page.getByLabel(PEER).check();
    await s.page.getByRole("button", { name: "Set anchor peers" }).click();
    await s.page.getByText("Anchor peers set").first().waitFor({ timeout: 90_000 });
    await s.page.getByTestId("anchor-current").locator("span.font-mono").first().waitFor({ timeout: 30_000 });
  });

  it("lists block 0 in Blocks and opens it", { timeout: 90_000 }, async () => {
    await s.page.getByRole("tab", { name: "Blocks" }).click();
    const link = s.page.getByTestId("block-list").getByRole("link", { name: "Block 0", exact: true });
    await link.waitFor({ timeout: 60_000 });
    await link.click();
    await s.page.waitForURL(new RegExp(`/networks/${networkId}/blocks/0$`));
    await s.page.getByRole("heading", { name: "Block 0" }).waitFor();
    await s.page.getByTestId("block-header").waitFor();
    await s.page.getByTestId("tx-0").getByText("CONFIG", { exact: true }).first().waitFor();
    expect(await s.page.getByTestId("tx-0").innerText()).toContain(CHANNEL);
    await screenshot(s.page, "fabric-block-0");
  });

  it("changes the batch timeout and sees it in the channel config", { timeout: 120_000 }, async () => {
    await s.page.goto(`/networks/${networkId}/fabric`);
    await s.page.getByRole("heading", { name: CHANNEL }).waitFor();
    await s.page.getByRole("tab", { name: "Channel config" }).click();
    const json = s.page.getByTestId("channel-config-json");
    await json.waitFor({ timeout: 60_000 });
    expect(await json.innerText()).toContain('"timeout": "2s"');
    const input = s.page.getByLabel("Batch timeout");
    await s.page.waitForFunction(
      () => (document.getElementById("cfg-batchTimeout") as HTMLInputElement)?.value === "2s",
    );
    await input.fill("3s");
    await s.page.getByRole("button", { name: "Update config" }).click();
    const diff = s.page.getByTestId("config-diff");
    await diff.waitFor({ timeout: 90_000 });
    const changed = diff.locator('[data-changed="true"]');
    expect(await changed.count()).toBe(1);
    expect(await changed.innerText()).toMatch(/Batch timeout\s+2s\s+3s/);
    await s.page.waitForFunction(
      () => document.querySelector('[data-testid="channel-config-json"]')?.textContent?.includes('"timeout": "3s"'),
      undefined,
      { timeout: 30_000 },
    );
    await screenshot(s.page, "fabric-channel-config-diff");
  });

  it("shows a failed join with the server's message and retries only that node", { timeout: 240_000 }, async () => {
    const peerId = nodeIds[1]!;
    await apiCall(s.baseUrl, admin(), "POST", `/nodes/${peerId}/stop`);
    await waitRunning(peerId, "STOPPED");
    await s.page.goto("/networks/fabric/create");
    await s.page.getByLabel("Channel name").fill(CHANNEL2);
    await s.page.getByTestId("orderer-orgs").getByLabel(MSP).check();
    await s.page.getByTestId("peer-orgs").getByLabel(MSP).check();
    // Only RUNNING nodes are pre-selected; choose the stopped peer explicitly.
    await s.page.getByTestId("peer-orgs").getByLabel(PEER).check();
    await s.page.getByRole("button", { name: "Create network" }).click();
    const peerRow = s.page.getByTestId(`join-row-${PEER}`);
    await s.page.locator(`[data-testid="join-row-${PEER}"][data-state="failed"]`).waitFor({ timeout: 120_000 });
    await s.page.locator(`[data-testid="join-row-${ORDERER}"][data-state="joined"]`).waitFor();
    // The server's own message, not a generic one.
    expect(await peerRow.innerText()).toContain("STOPPED");
    await screenshot(s.page, "fabric-join-failed");

    await apiCall(s.baseUrl, admin(), "POST", `/nodes/${peerId}/start`);
    await waitRunning(peerId);
    await s.page.getByRole("button", { name: `Retry ${PEER}` }).click();
    await s.page.locator(`[data-testid="join-row-${PEER}"][data-state="joined"]`).waitFor({ timeout: 120_000 });
    expect(await s.page.getByTestId(`join-row-${ORDERER}`).getAttribute("data-state")).toBe("joined");
    await s.page.getByRole("link", { name: `Open network ${CHANNEL2}` }).waitFor();
  });
});
