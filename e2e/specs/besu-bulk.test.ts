import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, screenshot, type Session } from "../support/browser.js";

const STAMP = Date.now().toString(36);
const NAME = `bulk-${STAMP}`;
const DUP = `bulk-dup-${STAMP}`;
const CHAIN_ID = String(200_000 + Math.floor(Math.random() * 100_000));

interface Named {
  id: number;
  name: string;
}

/** Issue 7: bulk create from the header menu with live progress, and a failing one that leaves nothing behind. */
describe("besu bulk create", () => {
  let s: Session;
  const admin = adminUser;

  const nodesNamed = async (prefix: string): Promise<Named[]> => {
    const r = await apiCall<{ items: Named[] }>(s.baseUrl, admin(), "GET", `/nodes?limit=1000&platform=BESU`);
    return (r.data.items ?? []).filter((n) => n.name.startsWith(`${prefix}-node-`));
  };
  const networksNamed = async (name: string): Promise<Named[]> => {
    const r = await apiCall<{ networks: Named[] }>(s.baseUrl, admin(), "GET", `/networks/besu?limit=1000`);
    return (r.data.networks ?? []).filter((n) => n.name === name);
  };
  const keysNamed = async (prefix: string): Promise<Named[]> => {
    const r = await apiCall<{ items: Named[] }>(s.baseUrl, admin(), "GET", `/keys?page=1&pageSize=1000`);
    return (r.data.items ?? []).filter((k) => k.name.startsWith(`${prefix}-validator-`));
  };

  beforeAll(async () => {
    s = await openSession();
  });

  afterAll(async () => {
    for (const name of [NAME, DUP]) {
      for (const n of await nodesNamed(name)) await apiCall(s.baseUrl, admin(), "DELETE", `/nodes/${n.id}`);
      for (const n of await networksNamed(name)) await apiCall(s.baseUrl, admin(), "DELETE", `/networks/besu/${n.id}`);
      for (const k of await keysNamed(name)) await apiCall(s.baseUrl, admin(), "DELETE", `/keys/${k.id}`);
    }
    await s.close();
  });

  it("creates keys, network and 2 nodes from the header create menu, with progress steps", async () => {
    await openAs(s, admin(), "/dashboard");
    await s.page.getByRole("button", { name: "Create" }).click();
    await s.page.getByRole("menuitem", { name: "Besu Create Network" }).click();
    await s.page.waitForURL(/\/networks\/besu\/bulk-create$/);
    await s.page.getByRole("heading", { name: "Create Besu Network" }).waitFor();
    await s.page.getByLabel("Network name").fill(NAME);
    await s.page.getByLabel("Chain ID").fill(CHAIN_ID);
    await s.page.getByLabel("Number of validator nodes").fill("2");
    await s.page.getByLabel("Start the nodes once created").uncheck();
    await s.page.getByRole("button", { name: "Create network" }).click();

    const progress = s.page.getByTestId("bulk-progress");
    await progress.and(s.page.locator('[data-status="done"]')).waitFor({ timeout: 60_000 });
    for (const step of ["keys", "network", "nodes"]) {
      expect(await s.page.getByTestId(`bulk-step-${step}`).getAttribute("data-state")).toBe("done");
    }
    expect(await s.page.getByTestId("bulk-step-keys").innerText()).toContain("2/2");
    expect(await s.page.getByTestId("bulk-step-nodes").innerText()).toContain("2/2");
    // The server's own progress messages arrived over the websocket.
    const messages = s.page.getByRole("list", { name: "Server messages" });
    await messages.getByText("keys: validator key 2 of 2").waitFor();
    await messages.getByText(`nodes: node '${NAME}-node-1'`).waitFor();

    await screenshot(s.page, "besu-bulk-create-done");
    const result = s.page.getByTestId("bulk-result");
    await result.getByRole("link", { name: `${NAME}-node-0` }).waitFor();
    await result.getByRole("link", { name: `${NAME}-node-1` }).waitFor();
    await result.getByRole("link", { name: `Open network ${NAME}` }).click();
    await s.page.waitForURL(/\/networks\/\d+\/besu$/);
    await s.page.getByRole("heading", { name: NAME }).waitFor();
    await s.page.getByRole("tab", { name: "Validators" }).click();
    const list = s.page.getByTestId("validator-list");
    await list.getByText(`${NAME}-validator-0`).waitFor();
    await list.getByText(`${NAME}-validator-1`).waitFor();
    expect(await list.getByText("Local").count()).toBe(2);
    expect((await nodesNamed(NAME)).length).toBe(2);
  });

  it("checks pre-funded account rows before sending, and removes them", async () => {
    await s.page.goto("/networks/besu/bulk-create");
    await s.page.getByText("No pre-funded accounts.").waitFor();
    await s.page.getByRole("button", { name: "Add account" }).click();
    expect(await s.page.getByLabel("Balance (wei)").inputValue()).toBe("1000000000000000000000");
    await s.page.getByLabel("Address").fill("0xnothex");
    await s.page.getByLabel("Balance (wei)").fill("ten");
    await s.page.getByRole("button", { name: "Create network" }).click();
    await s.page.getByText("0x and 40 hex digits").waitFor();
    await s.page.getByText("0x-hex or decimal").waitFor();
    expect(await s.page.getByTestId("bulk-progress").count()).toBe(0);
    await s.page.getByRole("button", { name: "Remove account 1" }).click();
    await s.page.getByText("No pre-funded accounts.").waitFor();
  });

  it("shows the server's error for a duplicate chain id and leaves nothing behind", async () => {
    await s.page.goto("/networks/besu/bulk-create");
    await s.page.getByLabel("Network name").fill(DUP);
    await s.page.getByLabel("Chain ID").fill(CHAIN_ID);
    await s.page.getByLabel("Number of validator nodes").fill("2");
    await s.page.getByLabel("Start the nodes once created").uncheck();
    await s.page.getByRole("button", { name: "Create network" }).click();

    const progress = s.page.getByTestId("bulk-progress");
    await progress.and(s.page.locator('[data-status="failed"]')).waitFor({ timeout: 60_000 });
    await progress
      .getByRole("alert")
      .getByText(/chain id \d+ is already used/)
      .waitFor();
    await progress.getByText(/removed again; nothing is left behind/).waitFor();
    expect(await s.page.getByTestId("bulk-step-network").getAttribute("data-state")).toBe("failed");
    await screenshot(s.page, "besu-bulk-create-failed");
    // The field shows it too.
    await s.page
      .locator("form")
      .getByText(/chain id \d+ is already used/)
      .first()
      .waitFor();

    expect(await networksNamed(DUP)).toEqual([]);
    expect(await nodesNamed(DUP)).toEqual([]);
    expect(await keysNamed(DUP)).toEqual([]);
  });
});
