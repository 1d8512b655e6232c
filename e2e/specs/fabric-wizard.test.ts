import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { fabricProcesses } from "../support/fabric.js";
import { adminUser, openSession, screenshot, type Session } from "../support/browser.js";

const SUFFIX = Date.now().toString(36);
const MSP = `Wiz${SUFFIX}MSP`;
const CHANNEL = `wiz-${SUFFIX}`;
// The wizard names nodes after the org: "Wiz<suffix>MSP" → orderer0-wiz<suffix>, peer0-wiz<suffix>.
const ORDERER = `orderer0-wiz${SUFFIX}`;
const PEER = `peer0-wiz${SUFFIX}`;

/** Issue 6's wizard: from the login page to a running channel with every node joined, all in the browser. */
describe("fabric wizard", () => {
  let s: Session;
  let networkId = 0;
  const ports: string[] = [];
  const admin = adminUser;

  beforeAll(async () => {
    s = await openSession();
  });

  afterAll(async () => {
    // The network, then every node the wizard made (delete stops it), then the org.
    const nets = await apiCall<{ networks: { id: number; name: string }[] }>(
      s.baseUrl,
      admin(),
      "GET",
      "/networks/fabric?limit=1000",
    );
    const netIds = new Set([
      ...(networkId ? [networkId] : []),
      ...(nets.data.networks ?? []).filter((n) => n.name === CHANNEL).map((n) => n.id),
    ]);
    for (const id of netIds) await apiCall(s.baseUrl, admin(), "DELETE", `/networks/fabric/${id}`);
    const orgs = await apiCall<{ items: { id: number; mspId: string }[] }>(
      s.baseUrl,
      admin(),
      "GET",
      "/organizations?limit=1000",
    );
    const org = (orgs.data.items ?? []).find((o) => o.mspId === MSP);
    if (org) {
      const left = await apiCall<{ items: { id: number }[] }>(
        s.baseUrl,
        admin(),
        "GET",
        `/nodes?limit=1000&organizationId=${org.id}`,
      );
      for (const n of left.data.items ?? []) await apiCall(s.baseUrl, admin(), "DELETE", `/nodes/${n.id}`);
      await apiCall(s.baseUrl, admin(), "DELETE", `/organizations/${org.id}`);
    }
    const until = Date.now() + 30_000;
    while (ports.length > 0 && fabricProcesses(ports).length > 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 500));
    }
    const survivors = ports.length > 0 ? fabricProcesses(ports) : [];
    await s.close();
    expect(survivors).toEqual([]);
  }, 120_000);

  it("signs in and opens the wizard from the header create menu", async () => {
    await s.page.goto("/");
    await s.page.getByLabel("Username").fill(admin().username);
    await s.page.getByLabel("Password").fill(admin().password);
    await s.page.getByRole("button", { name: "Sign in" }).click();
    await s.page.waitForURL("**/dashboard");
    await s.page.getByRole("button", { name: "Create", exact: true }).click();
    await s.page.getByRole("menuitem", { name: "Fabric Create Network" }).click();
    await s.page.waitForURL(/\/fabric-wizard$/);
    await s.page.getByRole("heading", { name: "Fabric Network Wizard" }).waitFor();
    await s.page.waitForFunction(() => document.title === "Fabric Network Wizard | ChainLaunch");
  });

  it("walks organization, nodes, channel and review", async () => {
    // 1. Organization: a new one.
    await s.page.getByTestId("wizard-step-1").waitFor();
    await s.page.getByRole("button", { name: "Next" }).click();
    await s.page.getByText("MSP ID is required").waitFor();
    await s.page.getByLabel("MSP ID").fill(MSP);
    await s.page.getByLabel("Organization name").fill(`wizard-e2e-${SUFFIX}`);
    await s.page.getByLabel("Description").fill("created by the wizard e2e");
    await s.page.getByRole("button", { name: "Next" }).click();

    // 2. Nodes: defaults 2 peers and 3 orderers; 1 and 1 keeps the run short.
    await s.page.getByTestId("wizard-step-2").waitFor();
    expect(await s.page.getByLabel("Peers").inputValue()).toBe("2");
    expect(await s.page.getByLabel("Orderers").inputValue()).toBe("3");
    await s.page.getByLabel("Peers").fill("1");
    await s.page.getByLabel("Orderers").fill("1");
    await s.page.getByText("Fewer than 3 raft orderers").waitFor();
    const nodes = s.page.getByTestId("wizard-nodes");
    await nodes.getByText(`2 nodes: ${ORDERER}, ${PEER}`).waitFor({ timeout: 30_000 });
    await nodes.getByRole("button", { name: /Advanced/ }).click();
    for (const id of ["wiz-orderer-0-listenAddress", "wiz-orderer-0-adminAddress", "wiz-peer-0-listenAddress"]) {
      const v = await s.page.locator(`#${id}`).inputValue();
      expect(v).toMatch(/:\d+$/);
      ports.push(v.split(":").at(-1)!);
    }
    ports.push((await s.page.locator("#wiz-peer-0-chaincodeAddress").inputValue()).split(":").at(-1)!);
    await s.page.getByRole("button", { name: "Next" }).click();

    // 3. Channel: Fabric's name rule is enforced before anything is created.
    await s.page.getByTestId("wizard-step-3").waitFor();
    await s.page.getByLabel("Channel name").fill("Bad_Name");
    await s.page.getByRole("button", { name: "Next" }).click();
    await s.page.getByText("starting with a letter").first().waitFor();
    await s.page.getByLabel("Channel name").fill(CHANNEL);
    expect(await s.page.getByLabel("Batch timeout").inputValue()).toBe("2s");
    await s.page.getByRole("button", { name: "Next" }).click();

    // 4. Review lists every action in order.
    const plan = s.page.getByTestId("wizard-plan");
    await plan.waitFor();
    expect((await plan.locator("li").allInnerTexts()).map((t) => t.trim())).toEqual([
      `Create organization ${MSP}`,
      `Create orderer ${ORDERER}`,
      `Create peer ${PEER}`,
      `Wait for ${ORDERER} to run`,
      `Wait for ${PEER} to run`,
      `Create channel ${CHANNEL}`,
      `Join orderer ${ORDERER}`,
      `Join peer ${PEER}`,
    ]);
  });

  it("creates everything and shows each row done", { timeout: 240_000 }, async () => {
    await s.page.getByRole("button", { name: "Create network" }).click();
    const progress = s.page.getByTestId("wizard-progress");
    await progress.waitFor();
    await s.page
      .locator('[data-testid="wizard-progress"][data-done="true"], [data-testid^="wizard-row-"][data-state="failed"]')
      .first()
      .waitFor({ timeout: 180_000 });
    const failed = s.page.locator('[data-testid^="wizard-row-"][data-state="failed"]');
    if ((await failed.count()) > 0) throw new Error(`wizard row failed: ${await failed.first().innerText()}`);
    const rows = s.page.locator('[data-testid^="wizard-row-"]');
    expect(await rows.count()).toBe(8);
    for (const st of await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-state")))) {
      expect(st).toBe("done");
    }
    // Real processes: the orderer and the peer listen on the ports the wizard proposed.
    expect(fabricProcesses(ports).length).toBeGreaterThanOrEqual(2);
    await screenshot(s.page, "fabric-wizard-done");
  });

  it("opens the network and sees both nodes joined", { timeout: 90_000 }, async () => {
    await s.page.getByRole("link", { name: `Open network ${CHANNEL}` }).click();
    await s.page.waitForURL(/\/networks\/\d+\/fabric$/);
    networkId = Number(/\/networks\/(\d+)\/fabric$/.exec(s.page.url())![1]);
    await s.page.getByRole("heading", { name: CHANNEL }).waitFor();
    await s.page.getByRole("tab", { name: "Nodes" }).click();
    for (const name of [ORDERER, PEER]) {
      const row = s.page.getByTestId(`member-row-${name}`);
      await row.waitFor({ timeout: 30_000 });
      expect(await row.getAttribute("data-status")).toBe("joined");
    }
  });
});
