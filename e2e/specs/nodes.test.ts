import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, type Session } from "../support/browser.js";
import { USERS } from "../support/users.js";

const SUFFIX = Date.now().toString(36);
const MSP = `NodesE2e${SUFFIX}MSP`;
const PEER = `peer0-e2e-${SUFFIX}`;

/** Issue 5's browser test: a peer created from the form turns RUNNING, streams its logs and stops. */
describe("nodes", () => {
  let s: Session;
  let orgId = 0;
  let nodeId = 0;

  beforeAll(async () => {
    s = await openSession();
    const r = await apiCall<{ id: number }>(s.baseUrl, adminUser(), "POST", "/organizations", {
      mspId: MSP,
      name: `nodes-e2e-${SUFFIX}`,
    });
    expect(r.status).toBe(201);
    orgId = r.data.id;
  });

  afterAll(async () => {
    // No peer process may outlive the run: delete (which stops) every node this test made.
    const left = await apiCall<{ items: { id: number; name: string }[] }>(
      s.baseUrl,
      adminUser(),
      "GET",
      `/nodes?limit=1000&organizationId=${orgId}`,
    );
    const ids = new Set([...(nodeId ? [nodeId] : []), ...(left.data.items ?? []).map((n) => n.id)]);
    for (const id of ids) await apiCall(s.baseUrl, adminUser(), "DELETE", `/nodes/${id}`);
    await s.close();
  });

  it("lists nodes with filters and an empty state for no match", async () => {
    await openAs(s, adminUser(), "/nodes");
    await s.page.getByRole("heading", { name: "Nodes", exact: true }).waitFor();
    expect(await s.page.title()).toBe("Nodes | ChainLaunch");
    await s.page.getByLabel("Search nodes by name").fill(`no-such-node-${SUFFIX}`);
    await s.page.getByText("No matching nodes").waitFor();
  });

  it("creates a peer from the form with the proposed defaults", async () => {
    await s.page.goto("/nodes/create");
    await s.page.getByRole("link", { name: "Fabric peer" }).click();
    await s.page.waitForURL(/\/nodes\/fabric\/create/);
    await s.page.getByRole("heading", { name: "Create Fabric Node" }).waitFor();
    // Defaults arrive from /nodes/defaults/fabric-peer.
    await s.page.waitForFunction(() => {
      const el = document.getElementById("fabric-listenAddress") as HTMLInputElement | null;
      return Boolean(el?.value);
    });
    expect(await s.page.getByLabel("Listen address").inputValue()).toMatch(/:\d+$/);
    expect(await s.page.getByLabel("Chaincode address").inputValue()).toMatch(/:\d+$/);
    await s.page.getByRole("combobox", { name: "Organization" }).click();
    await s.page.getByRole("option", { name: MSP }).click();
    await s.page.getByLabel("Name", { exact: true }).fill(PEER);
    await s.page.getByRole("button", { name: "Create node" }).click();
    await s.page.waitForURL(/\/nodes\/\d+$/, { timeout: 60_000 });
    nodeId = Number(/\/nodes\/(\d+)$/.exec(s.page.url())![1]);
    await s.page.getByRole("heading", { name: PEER }).waitFor();
    expect(await s.page.title()).toBe("Node | ChainLaunch");
  });

  it("watches the peer turn RUNNING", async () => {
    const header = s.page.locator("main").getByTestId("node-status").first();
    await s.page.waitForFunction(
      () => document.querySelector('[data-testid="node-status"]')?.getAttribute("data-status") === "RUNNING",
      undefined,
      { timeout: 90_000 },
    );
    expect(await header.getAttribute("data-status")).toBe("RUNNING");
    await s.page.getByText(MSP).first().waitFor();
  });

  it("streams the peer's log", async () => {
    await s.page.getByRole("tab", { name: "Logs" }).click();
    const log = s.page.getByRole("log", { name: "Node log" });
    await s.page.getByTestId("node-logs").getByText("Live", { exact: true }).waitFor({ timeout: 20_000 });
    // Fabric peers log "Started peer with ID=[name], ..." once serving.
    await log.getByText(`Started peer with ID=[${PEER}]`).first().waitFor({ timeout: 30_000 });
    expect(await log.locator("div").count()).toBeGreaterThan(1);
  });

  it("searches the whole log on the server and shows a match with the lines around it", async () => {
    const logs = s.page.getByTestId("node-logs");
    // The header says what the file holds (logs/stats), beyond the lines streamed.
    await logs
      .getByTestId("log-stats")
      .filter({ hasText: /file: [\d,]+ lines, [\d.]+ (B|KiB|MiB)/ })
      .waitFor();
    await logs.getByRole("button", { name: "Search", exact: true }).click();
    const search = logs.getByTestId("log-search");
    const input = search.getByLabel("Search the whole log (regular expression)");
    // A pattern RE2 can't compile is the server's 400 naming the field.
    await input.fill("started peer with (");
    await search.getByRole("button", { name: "Search", exact: true }).click();
    await search
      .getByRole("alert")
      .filter({ hasText: /pattern/ })
      .waitFor();
    // Case-insensitive, as the checkbox says by default.
    await input.fill(`started peer with ID=\\[${PEER}\\]`);
    await search.getByRole("button", { name: "Search", exact: true }).click();
    await search
      .getByTestId("log-search-count")
      .filter({ hasText: /^1 matching line$/ })
      .waitFor();
    const match = search.getByRole("list", { name: "Matching lines" }).getByRole("button").first();
    const line = Number(await match.getAttribute("data-line"));
    expect(line).toBeGreaterThan(1);
    await match.click();
    // logs/range: the match and up to ten lines each side, numbered as in the file.
    const around = search.getByRole("region", { name: "Lines around the match" });
    await around
      .locator(`[data-line="${line}"]`)
      .filter({ hasText: `Started peer with ID=[${PEER}]` })
      .waitFor();
    await around.locator(`[data-line="${line - 1}"]`).waitFor();
    // What the server answers for the same search, to compare with the page.
    const api = await apiCall<{ data: { line_number: number }[] }>(
      s.baseUrl,
      adminUser(),
      "GET",
      `/nodes/${nodeId}/logs/filter?pattern=${encodeURIComponent(`Started peer with ID=\\[${PEER}\\]`)}`,
    );
    expect(api.data.data.map((e) => e.line_number)).toEqual([line]);
    await search.getByRole("button", { name: "Close search" }).click();
  });

  it("shows the certificates with their expiry", async () => {
    await s.page.getByRole("tab", { name: "Certificates" }).click();
    await s.page.getByTestId("certificate-details").first().waitFor();
    await s.page.getByText("TLS certificate").waitFor();
  });

  it("shows the RUNNING peer in the list", async () => {
    await s.page.goto("/nodes");
    const row = s.page.getByTestId(`node-row-${PEER}`);
    await row.waitFor();
    expect(await row.getByTestId("node-status").getAttribute("data-status")).toBe("RUNNING");
  });

  it("hides start/stop from viewers", async () => {
    const viewer = await openSession();
    try {
      await openAs(viewer, USERS.viewer, `/nodes/${nodeId}`);
      await viewer.page.getByRole("heading", { name: PEER }).waitFor();
      await viewer.page.getByRole("tab", { name: "Overview" }).waitFor();
      for (const name of [`Stop ${PEER}`, `Start ${PEER}`, `Restart ${PEER}`, "Delete", "Edit"]) {
        expect(await viewer.page.getByRole("button", { name, exact: true }).count()).toBe(0);
      }
      await viewer.page.goto("/nodes");
      await viewer.page.getByTestId(`node-row-${PEER}`).waitFor();
      expect(await viewer.page.getByRole("button", { name: `Stop ${PEER}` }).count()).toBe(0);
      expect(await viewer.page.getByRole("link", { name: "Create node" }).count()).toBe(0);
    } finally {
      await viewer.close();
    }
  });

  it("stops the peer from the UI while its log streams the shutdown", async () => {
    await s.page.goto(`/nodes/${nodeId}`);
    await s.page.getByRole("heading", { name: PEER }).waitFor();
    await s.page.getByRole("tab", { name: "Logs" }).click();
    const log = s.page.getByRole("log", { name: "Node log" });
    await s.page.getByTestId("node-logs").getByText("Live", { exact: true }).waitFor({ timeout: 20_000 });
    await log.getByText(`Started peer with ID=[${PEER}]`).first().waitFor({ timeout: 30_000 });
    expect(await log.getByText("Stopping gossip").count()).toBe(0);
    await s.page.getByRole("button", { name: `Stop ${PEER}` }).click();
    // Stop asks first, saying what stopping does; nothing stops until it is confirmed.
    const confirm = s.page.getByRole("alertdialog", { name: `Stop ${PEER}?` });
    await confirm.getByText("it no longer endorses").waitFor();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "hidden" });
    expect((await apiCall<{ status: string }>(s.baseUrl, adminUser(), "GET", `/nodes/${nodeId}`)).data.status).toBe(
      "RUNNING",
    );
    await s.page.getByRole("button", { name: `Stop ${PEER}` }).click();
    await confirm.getByRole("button", { name: "Stop", exact: true }).click();
    // These lines are written after the page opened the log: they arrive over the followed stream.
    await log.getByText("Stopping gossip").first().waitFor({ timeout: 30_000 });
    await s.page.waitForFunction(
      () => document.querySelector('[data-testid="node-status"]')?.getAttribute("data-status") === "STOPPED",
      undefined,
      { timeout: 60_000 },
    );
    await s.page.getByRole("button", { name: `Start ${PEER}` }).waitFor();
    await s.page.getByRole("tab", { name: "Events" }).click();
    await s.page.getByTestId("node-events").waitFor();
  });

  it("follows another operator's start and stop on the open node page and list, without a reload", async () => {
    // The peer was stopped above; the page's queries don't poll a settled node: only the server's event moves it.
    const status = (): Promise<string | null> =>
      s.page.locator("main").getByTestId("node-status").first().getAttribute("data-status");
    await openAs(s, adminUser(), `/nodes/${nodeId}`);
    await s.page.getByRole("heading", { name: PEER }).waitFor();
    expect(await status()).toBe("STOPPED");
    let navigations = 0;
    s.page.on("framenavigated", () => navigations++);
    expect((await apiCall(s.baseUrl, USERS.manager, "POST", `/nodes/${nodeId}/start`)).status).toBe(200);
    await expect.poll(status, { timeout: 30_000, interval: 200 }).toBe("RUNNING");
    expect((await apiCall(s.baseUrl, USERS.manager, "POST", `/nodes/${nodeId}/stop`)).status).toBe(200);
    await expect.poll(status, { timeout: 5_000, interval: 100 }).toBe("STOPPED");
    expect(navigations).toBe(0);
    // The list follows too.
    await s.page.goto("/nodes");
    const rowStatus = () =>
      s.page.getByTestId(`node-row-${PEER}`).getByTestId("node-status").getAttribute("data-status");
    await expect.poll(rowStatus).toBe("STOPPED");
    expect((await apiCall(s.baseUrl, USERS.manager, "POST", `/nodes/${nodeId}/start`)).status).toBe(200);
    await expect.poll(rowStatus, { timeout: 30_000, interval: 200 }).toBe("RUNNING");
    expect((await apiCall(s.baseUrl, USERS.manager, "POST", `/nodes/${nodeId}/stop`)).status).toBe(200);
    await expect.poll(rowStatus, { timeout: 5_000, interval: 100 }).toBe("STOPPED");
  });
});
