import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUser, openAs, openSession, type Session } from "../support/browser.js";

const MSP = `E2eOrg${Date.now().toString(36)}MSP`;

/** Issue 4's browser test: create an org, issue an identity, revoke it, and see it in the revoked list. */
describe("organizations", () => {
  let s: Session;
  beforeAll(async () => {
    s = await openSession();
  });
  afterAll(async () => {
    await s.close();
  });

  it("checks the MSP id rule before sending", async () => {
    await openAs(s, adminUser(), "/fabric/organizations");
    await s.page.getByRole("heading", { name: "Organizations" }).waitFor();
    await s.page.getByRole("button", { name: "Create organization" }).first().click();
    const dialog = s.page.getByRole("dialog", { name: "Create organization" });
    await dialog.getByLabel("MSP ID").fill("bad msp");
    await dialog.getByRole("button", { name: "Create organization" }).click();
    await dialog.getByText(/Use 1–249 letters, digits, dots or hyphens/).waitFor();
    await s.page.keyboard.press("Escape");
  });

  // The new organization's page: the shared server may hold more organizations than the list's first page.
  let orgPath = "";

  it("creates an organization and shows its CA certificates", async () => {
    await s.page.getByRole("button", { name: "Create organization" }).first().click();
    const dialog = s.page.getByRole("dialog", { name: "Create organization" });
    await dialog.getByLabel("MSP ID").fill(MSP);
    await dialog.getByLabel("Description").fill("Made by the browser test");
    await dialog.getByRole("button", { name: "Create organization" }).click();
    await s.page.waitForURL(/\/organizations\/\d+$/);
    orgPath = new URL(s.page.url()).pathname;
    await s.page.getByRole("heading", { name: MSP }).waitFor();
    const cert = s.page.getByTestId("certificate-details").first();
    await cert.getByText(`CN=ca.${MSP}`).first().waitFor();
    await cert.getByText("Certificate Sign").waitFor();
    expect(await s.page.title()).toBe("Organization | ChainLaunch");
  });

  it("shows the server's conflict on the MSP ID field", async () => {
    await s.page.goto("/fabric/organizations");
    await s.page.getByRole("heading", { name: "Organizations" }).waitFor();
    await s.page.getByRole("button", { name: "Create organization" }).first().click();
    const dialog = s.page.getByRole("dialog", { name: "Create organization" });
    await dialog.getByLabel("MSP ID").fill(MSP);
    await dialog.getByRole("button", { name: "Create organization" }).click();
    await dialog.getByText(/already exists/).waitFor();
    await s.page.keyboard.press("Escape");
    await s.page.goto(orgPath);
    await s.page.getByRole("heading", { name: MSP }).waitFor();
  });

  let serial = "";

  it("issues a peer identity with SANs", async () => {
    await s.page.getByRole("button", { name: "Issue identity" }).click();
    const dialog = s.page.getByRole("dialog", { name: "Issue identity" });
    await dialog.getByLabel("Name", { exact: true }).fill("peer0-e2e");
    await dialog.getByRole("combobox", { name: "Role (OU)" }).click();
    await s.page.getByRole("option", { name: "peer" }).click();
    await dialog.getByLabel("Subject alternative names").fill("peer0.e2e.example.com, 127.0.0.1");
    await dialog.getByRole("button", { name: "Issue identity" }).click();
    const row = s.page.getByTestId("identity-peer0-e2e");
    await row.waitFor();
    await row.getByText("peer", { exact: true }).waitFor();
    await s.page.waitForFunction(() => {
      const cell = document.querySelector('[data-testid="identity-peer0-e2e"] td:nth-child(4)');
      return cell !== null && /^[0-9a-f]+$/.test(cell.textContent ?? "");
    });
    serial = (await row.locator("td").nth(3).innerText()).trim();
    expect(serial).toMatch(/^[0-9a-f]{8,}$/);
  });

  it("revokes the identity and lists its serial as revoked", async () => {
    await s.page.getByText("Nothing revoked").waitFor();
    await s.page.getByRole("button", { name: "Actions for peer0-e2e" }).click();
    await s.page.getByRole("menuitem", { name: "Revoke" }).click();
    const dialog = s.page.getByRole("dialog", { name: "Revoke certificate" });
    expect(await dialog.getByLabel("Serial number (hex)").inputValue()).toBe(serial);
    await dialog.getByRole("combobox", { name: "Reason" }).click();
    await s.page.getByRole("option", { name: "Key compromise" }).click();
    await dialog.getByRole("button", { name: "Revoke certificate" }).click();
    // The revocation offers to publish the CRL to channels, and says it reaches them only that way.
    const offer = s.page.getByRole("dialog", { name: "Publish the CRL to channels?" });
    await offer
      .getByText("A revocation reaches a channel only when the organization's CRL is published to it.")
      .waitFor();
    await offer.getByRole("button", { name: "Not now" }).click();
    await offer.waitFor({ state: "detached" });
    const list = s.page.getByTestId("revoked-list");
    await list.getByText(serial).waitFor();
    await list.getByText("Key compromise").waitFor();
    await s.page.getByTestId("identity-peer0-e2e").getByText("Revoked").waitFor();
  });

  it("serves a CRL that lists the serial, and un-revokes it", async () => {
    const href = await s.page.getByRole("link", { name: "Download CRL" }).getAttribute("href");
    const crl = await s.context.request.get(href!);
    expect(crl.ok()).toBe(true);
    expect(await crl.text()).toContain("BEGIN X509 CRL");
    await s.page.getByRole("button", { name: `Un-revoke ${serial}` }).click();
    await s.page.getByText("Nothing revoked").waitFor();
  });

  it("refuses to delete a key the organization uses, with the server's reason", async () => {
    await s.page.getByRole("link", { name: `${MSP}-sign-ca` }).click();
    await s.page.getByRole("heading", { name: `${MSP}-sign-ca` }).waitFor();
    await s.page.getByText("Subject Key Identifier (SKI)").waitFor();
    await s.page.getByRole("button", { name: "Delete" }).click();
    const dialog = s.page.getByRole("alertdialog");
    await dialog.getByRole("button", { name: "Delete key" }).click();
    await dialog.getByText(/is used by organization/).waitFor();
  });

  it("finds the organization in the command palette", async () => {
    await s.page.goto("/dashboard");
    await s.page.getByRole("heading", { name: /Welcome back/ }).waitFor();
    await s.page.keyboard.press("Control+k");
    await s.page.getByPlaceholder("Type a command or search...").fill(MSP);
    await s.page.getByRole("option", { name: MSP }).click();
    await s.page.waitForURL(/\/organizations\/\d+$/);
    await s.page.getByRole("heading", { name: MSP }).waitFor();
  });
  it("deletes an organization after confirmation", async () => {
    const doomed = `Doomed${Date.now().toString(36)}MSP`;
    await openAs(s, adminUser(), "/fabric/organizations");
    await s.page.getByRole("button", { name: "Create organization" }).first().click();
    const dialog = s.page.getByRole("dialog", { name: "Create organization" });
    await dialog.getByLabel("MSP ID").fill(doomed);
    await dialog.getByRole("button", { name: "Create organization" }).click();
    await s.page.waitForURL(/\/organizations\/\d+$/);
    await s.page.getByRole("button", { name: "Delete" }).first().click();
    const confirm = s.page.getByRole("alertdialog", { name: `Delete ${doomed}?` });
    await confirm.getByText(/the console refuses and names the node/).waitFor();
    await confirm.getByRole("button", { name: "Delete organization" }).click();
    await s.page.waitForURL(/\/fabric\/organizations$/);
    await s.page.getByText("Organization deleted").first().waitFor();
  });
});
