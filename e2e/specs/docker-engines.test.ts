import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, screenshot, settled, type Session } from "../support/browser.js";
import { consoleContainers, deleteNodesOf, specEngine } from "../support/docker.js";
import { USERS, type Credentials } from "../support/users.js";

const SUFFIX = Date.now().toString(36);
/** The run's dockerd registered a second time, under this name. */
const ENGINE = `e2e-rack-${SUFFIX}`;
const MSP = `EngE2e${SUFFIX}MSP`;
const PEER = `peer0-engine-${SUFFIX}`;

const engine = specEngine("Docker engines (browser)");
const dockerHost = engine?.host;

type Engine = { id: number; name: string; status: string };

/**
 * Issue 31: Settings → Docker engines. An admin registers an engine (the run's dockerd under a
 * second name) and sees it up; a manager and a viewer see the list without a way to change it; the
 * Fabric node form places a container peer on that engine and the node's page names it; an engine
 * that runs a node can't be removed; the node and then the engine are deleted from their screens.
 */
describe.skipIf(!engine)("Docker engines", () => {
  let s: Session;
  let orgId = 0;
  let nodeId = 0;

  /** The console's containers of this spec's peer, stopped ones included. */
  const peerContainers = () => consoleContainers(engine!.docker, PEER);
  const engines = async (): Promise<Engine[]> =>
    (await apiCall<{ engines: Engine[] }>(s.baseUrl, adminUser(), "GET", "/docker/engines")).data.engines;

  beforeAll(async () => {
    s = await openSession();
    const r = await apiCall<{ id: number }>(s.baseUrl, adminUser(), "POST", "/organizations", {
      mspId: MSP,
      name: `engine-e2e-${SUFFIX}`,
    });
    expect(r.status).toBe(201);
    orgId = r.data.id;
  });

  afterAll(async () => {
    if (!s) return;
    // Nodes first (an engine that runs one can't be removed), then the engine: nothing may outlive the spec.
    await deleteNodesOf(s.baseUrl, orgId);
    for (const e of (await engines()).filter((x) => x.name === ENGINE)) {
      await apiCall(s.baseUrl, adminUser(), "DELETE", `/docker/engines/${e.id}`);
    }
    const containersLeft = await peerContainers();
    await s.close();
    expect(containersLeft).toEqual([]);
  });

  it("registers the engine from the settings page and lists it up", async () => {
    const page = s.page;
    await openAs(s, adminUser(), "/settings/docker-engines");
    const table = page.getByRole("table", { name: "Docker engines" });
    // The list appears once every engine has been pinged.
    await table.getByRole("row").filter({ hasText: "local" }).getByText("Up", { exact: true }).waitFor();

    await page.getByRole("button", { name: "Register engine" }).click();
    const dialog = page.getByRole("dialog", { name: "Register engine" });
    await dialog.getByLabel("Name").fill(ENGINE);
    // An engine that does not answer is refused, and the server's reason lands on the Host field.
    await dialog.getByLabel("Host").fill(`unix:///nonexistent-${SUFFIX}/docker.sock`);
    await dialog.getByRole("button", { name: "Register engine" }).click();
    await dialog.getByText(/ENOENT/).waitFor({ timeout: 15_000 });
    expect(await dialog.getByLabel("Host").getAttribute("aria-invalid")).toBe("true");

    await dialog.getByLabel("Host").fill(dockerHost!);
    await dialog.getByRole("button", { name: "Register engine" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByText("Engine registered").waitFor();
    const row = table.getByRole("row").filter({ hasText: ENGINE });
    await row.getByText("Up", { exact: true }).waitFor();
    await row.getByText(/^Docker \d+\.\d+/).waitFor();
    await row.getByText(dockerHost!, { exact: true }).waitFor();
    await screenshot(page, "docker-engines-registered");
  });

  for (const role of ["manager", "viewer"] as const) {
    it(`shows a ${role} the engines without a way to register or remove one`, async () => {
      const user: Credentials = USERS[role];
      await openAs(s, user, "/settings/docker-engines");
      const table = s.page.getByRole("table", { name: "Docker engines" });
      await table.getByRole("row").filter({ hasText: ENGINE }).getByText("Up", { exact: true }).waitFor();
      await settled(s.page);
      expect(await s.page.getByRole("button", { name: "Register engine" }).count()).toBe(0);
      expect(await s.page.getByRole("button", { name: `Remove ${ENGINE}` }).count()).toBe(0);
      // The server refuses it too.
      const r = await apiCall(s.baseUrl, user, "POST", "/docker/engines", { name: `${ENGINE}-x`, host: dockerHost });
      expect(r.status).toBe(403);
    });
  }

  it("creates a container peer on that engine from the node form; its page names the engine", async () => {
    const page = s.page;
    await openAs(s, adminUser(), "/nodes/fabric/create?type=peer");
    await page.getByRole("heading", { name: "Create Fabric Node" }).waitFor();
    await page.waitForFunction(() =>
      Boolean((document.getElementById("fabric-listenAddress") as HTMLInputElement)?.value),
    );
    await settled(page);
    const proposal = page.waitForResponse(
      (r) => r.url().includes("/api/v1/nodes/defaults/fabric?") && r.url().includes("mode=docker"),
    );
    await page
      .getByRole("radiogroup", { name: "Runtime" })
      .getByRole("radio", { name: /^Docker container/ })
      .click();
    expect((await proposal).status()).toBe(200);
    await settled(page);

    // The select offers every engine that answers; this one is chosen by name.
    const engine = page.getByRole("combobox", { name: "Engine" });
    await engine.filter({ hasText: "local" }).waitFor({ timeout: 60_000 });
    await engine.click();
    await page.getByRole("option", { name: ENGINE, exact: true }).click();
    await engine.filter({ hasText: ENGINE }).waitFor();
    await page.getByRole("combobox", { name: "Organization" }).click();
    await page.getByRole("option", { name: MSP }).click();
    await page.getByLabel("Name", { exact: true }).fill(PEER);
    const created = page.waitForResponse((r) => r.url().endsWith("/api/v1/nodes?start=true"), { timeout: 180_000 });
    await page.getByRole("button", { name: "Create node" }).click();
    const res = await created;
    expect(res.status(), await res.text()).toBe(201);
    const body = (await res.json()) as { id: number; fabricPeer: { mode: string; dockerEngine?: string } };
    expect(body.fabricPeer).toMatchObject({ mode: "docker", dockerEngine: ENGINE });
    nodeId = body.id;

    await page.waitForURL(new RegExp(`/nodes/${nodeId}$`));
    await page.getByRole("heading", { name: PEER }).waitFor();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="node-status"]')?.getAttribute("data-status") === "RUNNING",
      undefined,
      { timeout: 120_000 },
    );
    expect(await page.getByTestId("node-runtime").textContent()).toBe("Docker container");
    expect(await page.getByTestId("node-engine").textContent()).toBe(ENGINE);
    const containers = await peerContainers();
    expect(containers).toHaveLength(1);
    expect(containers[0]!.State).toBe("running");
  }, 240_000);

  it("refuses to remove the engine while the node runs there", async () => {
    const page = s.page;
    await page.goto("/settings/docker-engines");
    await page.getByRole("button", { name: `Remove ${ENGINE}` }).click();
    const dialog = page.getByRole("alertdialog", { name: `Remove engine ${ENGINE}?` });
    await dialog.getByRole("button", { name: "Remove engine" }).click();
    await dialog.getByRole("alert").getByText(`engine '${ENGINE}' runs`, { exact: false }).waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect((await engines()).map((e) => e.name)).toContain(ENGINE);
  });

  it("deletes the node, then the engine, from their screens", async () => {
    const page = s.page;
    await page.goto(`/nodes/${nodeId}`);
    await page.getByRole("heading", { name: PEER }).waitFor();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page
      .getByRole("alertdialog", { name: `Delete ${PEER}?` })
      .getByRole("button", { name: "Delete node" })
      .click();
    await page.waitForURL(/\/nodes$/, { timeout: 60_000 });
    expect(await peerContainers()).toEqual([]);

    await page.goto("/settings/docker-engines");
    const table = page.getByRole("table", { name: "Docker engines" });
    await page.getByRole("button", { name: `Remove ${ENGINE}` }).click();
    await page
      .getByRole("alertdialog", { name: `Remove engine ${ENGINE}?` })
      .getByRole("button", { name: "Remove engine" })
      .click();
    await page.getByText("Engine removed").waitFor();
    await table.getByRole("row").filter({ hasText: ENGINE }).waitFor({ state: "detached" });
    await table.getByRole("row").filter({ hasText: "local" }).waitFor();
    expect((await engines()).map((e) => e.name)).not.toContain(ENGINE);
  }, 90_000);
});
