import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUser, openAs, openSession, type Session } from "../support/browser.js";

const STAMP = Date.now().toString(36);
const CHAIN_ID = String(20_000 + Math.floor(Math.random() * 100_000));

/** Issue 7 (network level): a secp256k1 key and a QBFT network from the form, then its validators and genesis. */
describe("besu networks", () => {
  let s: Session;
  beforeAll(async () => {
    s = await openSession();
  });
  afterAll(async () => {
    await s.close();
  });

  it("creates a secp256k1 key from key management and shows its Ethereum address", async () => {
    await openAs(s, adminUser(), "/settings/keys");
    await s.page.getByRole("heading", { name: "Key Management" }).waitFor();
    await s.page.getByRole("button", { name: "Create key" }).click();
    const dialog = s.page.getByRole("dialog", { name: "Create key" });
    await dialog.getByLabel("Name").fill(`val-a-${STAMP}`);
    await dialog.getByRole("combobox", { name: "Curve" }).click();
    await s.page.getByRole("option", { name: "secp256k1" }).click();
    await dialog.getByRole("button", { name: "Create key" }).click();
    await s.page.waitForURL(/\/settings\/keys\/\d+$/);
    await s.page.getByRole("heading", { name: `val-a-${STAMP}` }).waitFor();
    await s.page.getByText("Ethereum address").waitFor();
    await s.page.getByText("No certificate", { exact: true }).waitFor();
  });

  it("filters keys by type", async () => {
    await s.page.goto("/settings/keys");
    await s.page.getByRole("combobox", { name: "Key type" }).click();
    await s.page.getByRole("option", { name: "EC secp256k1" }).click();
    await s.page.getByRole("link", { name: `val-a-${STAMP}` }).waitFor();
    await s.page.getByText("EC P-256").first().waitFor({ state: "detached" });
  });

  it("creates a network with a key picked and one created inline", async () => {
    await s.page.goto("/networks/besu/create");
    await s.page.getByRole("heading", { name: "Create Besu Network" }).waitFor();
    await s.page.getByLabel("Name", { exact: true }).fill(`net-${STAMP}`);
    await s.page.getByLabel("Chain ID").fill(CHAIN_ID);
    await s.page.getByRole("checkbox", { name: `val-a-${STAMP}` }).check();
    await s.page.getByRole("button", { name: "Create validator key" }).click();
    const dialog = s.page.getByRole("dialog", { name: "Create key" });
    expect(await dialog.getByRole("combobox", { name: "Curve" }).innerText()).toContain("secp256k1");
    await dialog.getByLabel("Name").fill(`val-b-${STAMP}`);
    await dialog.getByRole("button", { name: "Create key" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await s.page.getByRole("checkbox", { name: `val-b-${STAMP}` }).isChecked()).toBe(true);
    expect(s.page.url()).toContain("/networks/besu/create");
    await s.page.getByRole("button", { name: "Add account" }).click();
    await s.page.getByLabel("Address").fill("0xabc");
    await s.page.getByRole("button", { name: "Create network" }).click();
    await s.page.getByText("0x and 40 hex digits").waitFor();
    await s.page.getByLabel("Address").fill("0x0000000000000000000000000000000000000abc");
    await s.page.getByRole("button", { name: "Create network" }).click();
    await s.page.waitForURL(/\/networks\/\d+\/besu$/);
    await s.page.getByRole("heading", { name: `net-${STAMP}` }).waitFor();
    await s.page.getByText(CHAIN_ID, { exact: true }).waitFor();
  });

  it("shows the validators as local keys and the genesis", async () => {
    await s.page.getByRole("tab", { name: "Validators" }).click();
    const list = s.page.getByTestId("validator-list");
    await list.getByText(`val-a-${STAMP}`).waitFor();
    await list.getByText(`val-b-${STAMP}`).waitFor();
    expect(await list.getByText("Local").count()).toBe(2);
    await s.page.getByRole("tab", { name: "Genesis" }).click();
    const genesis = await s.page.getByTestId("genesis-json").innerText();
    const parsed = JSON.parse(genesis) as { config: { chainId: number; qbft: unknown }; extraData: string };
    expect(parsed.config.chainId).toBe(Number(CHAIN_ID));
    expect(parsed.config.qbft).toBeTruthy();
    expect(parsed.extraData).toMatch(/^0x[0-9a-f]+$/);
  });

  it("rejects a duplicate chain id on its field", async () => {
    await s.page.goto("/networks/besu/create");
    await s.page.getByLabel("Name", { exact: true }).fill(`dup-${STAMP}`);
    await s.page.getByLabel("Chain ID").fill(CHAIN_ID);
    await s.page.getByRole("checkbox", { name: `val-a-${STAMP}` }).check();
    await s.page.getByRole("button", { name: "Create network" }).click();
    await s.page
      .getByText(/chain id \d+ is already used/)
      .first()
      .waitFor();
  });

  it("lists the network on the networks pages", async () => {
    await s.page.goto("/networks");
    await s.page.getByRole("link", { name: `net-${STAMP}` }).waitFor();
    await s.page.goto("/network/besu");
    await s.page.getByRole("link", { name: `net-${STAMP}` }).click();
    await s.page.waitForURL(/\/networks\/\d+\/besu$/);
  });
});
