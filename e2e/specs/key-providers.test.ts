import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { reservePorts } from "../support/server.js";

const SUFFIX = Date.now().toString(36);
const PROVIDER = `bao-e2e-${SUFFIX}`;
const KEY = `vault-p256-${SUFFIX}`;
/** Where the server looks for OpenBao when CHAINLAUNCH_BAO is not set (scripts/system-deps.sh vault puts it there). */
const BAO = process.env.CHAINLAUNCH_BAO || join(homedir(), ".cache", "chainlaunch", "openbao", "bao");
const HAVE_BAO = existsSync(BAO);
if (!HAVE_BAO) {
  console.log(`key-providers: skipped, the OpenBao binary is missing at ${BAO} (run scripts/system-deps.sh vault)`);
}

/**
 * Issue 18's browser test: an admin adds a managed OpenBao provider from Add Key Provider → Vault,
 * finds it running and unsealed when the create answers, stops and starts it on its page, then creates a P-256 key in
 * it from the page and finds it in the provider's key table.
 */
describe.skipIf(!HAVE_BAO)("key providers: managed Vault", () => {
  let s: Session;
  let providerId = 0;
  let keyId = 0;

  beforeAll(async () => {
    s = await openSession();
  });
  afterAll(async () => {
    // Leave the shared server as found: the key, the OpenBao process and the provider go.
    const admin = adminUser();
    if (s && keyId) await apiCall(s.baseUrl, admin, "DELETE", `/keys/${keyId}`);
    if (s && providerId) {
      await apiCall(s.baseUrl, admin, "POST", `/key-providers/${providerId}/vault/stop`);
      await apiCall(s.baseUrl, admin, "DELETE", `/key-providers/${providerId}`);
    }
    await s?.close();
  });

  it(
    "creates a managed Vault that runs at once, stops and starts it, and creates a P-256 key in it",
    { timeout: 240_000 },
    async () => {
      const { page } = s;
      // Managed OpenBao listens on `port` and clusters on `port + 1`.
      const port = await reservePorts(2);
      await openAs(s, adminUser(), "/settings/providers");
      await page.getByRole("link", { name: "Add provider" }).first().click();
      await page.waitForURL("**/settings/providers/add");
      await page.getByRole("radio", { name: "HashiCorp Vault" }).click();
      await page.waitForURL("**/settings/providers/create/vault");

      // The add page stays on screen (with its own Name field) until the form's chunk loads.
      await page.getByRole("radio", { name: /Managed OpenBao/ }).check();
      await page.getByLabel("Name", { exact: true }).fill(PROVIDER);
      await page.getByText(/the unseal keys and the root token\s+are kept encrypted/).waitFor();
      await page.getByLabel("Port", { exact: true }).fill(String(port));
      await page.getByLabel("Unseal key shares", { exact: true }).fill("3");
      await page.getByLabel("Threshold", { exact: true }).fill("2");
      // Its CAs will be issuers of the PKI engine, mounted on the first start.
      await page.getByRole("radio", { name: /PKI engine/ }).check();
      await page.getByLabel("PKI mount", { exact: true }).fill("fabric-pki");
      await page.getByRole("button", { name: "Create provider" }).click();
      await page.waitForURL(/\/settings\/providers\/\d+$/);
      providerId = Number(/(\d+)$/.exec(page.url())?.[1]);
      await page.getByRole("heading", { name: PROVIDER }).waitFor();
      await page.getByTestId("provider-settings").getByText("Managed OpenBao").waitFor();
      await page.getByTestId("provider-settings").getByText("PKI engine (Vault issues)").waitFor();
      await page.getByTestId("provider-settings").getByText("fabric-pki").waitFor();

      const status = page.getByTestId("vault-status");
      await status.waitFor();
      // The create started the server, initialised and unsealed it (upstream's behaviour).
      await status.getByText("Active (unsealed)").waitFor({ timeout: 120_000 });
      await page.getByTestId("vault-process").getByText("running").waitFor();
      expect(await page.getByRole("button", { name: "Stop" }).isEnabled()).toBe(true);
      expect(await page.getByRole("button", { name: "Start" }).isDisabled()).toBe(true);
      // Stop, then Start from the page: unsealed again with the stored keys.
      await page.getByRole("button", { name: "Stop" }).click();
      await page
        .getByRole("alertdialog", { name: "Stop the Vault server?" })
        .getByRole("button", { name: "Stop" })
        .click();
      await expect.poll(() => page.getByRole("button", { name: "Start" }).isEnabled(), { timeout: 60_000 }).toBe(true);
      await page.getByRole("button", { name: "Start" }).click();
      await status.getByText("Active (unsealed)").waitFor({ timeout: 120_000 });
      expect(await page.getByRole("button", { name: "Start" }).isDisabled()).toBe(true);

      await page.getByRole("button", { name: "Create key" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Name", { exact: true }).fill(KEY);
      // Preset to this provider; EC P-256 is the dialog's default.
      await dialog.getByRole("combobox", { name: "Provider" }).getByText(PROVIDER).waitFor();
      await dialog.getByRole("combobox", { name: "Curve" }).getByText("P-256").waitFor();
      await dialog.getByRole("button", { name: "Create key" }).click();
      await dialog.waitFor({ state: "detached" });

      const row = page.getByTestId("provider-keys").getByRole("row", { name: new RegExp(KEY) });
      await row.waitFor();
      expect(await row.innerText()).toContain(PROVIDER);
      expect(await row.innerText()).toContain("EC P-256");
      await screenshot(page, "key-provider-vault-managed");

      const keys = await apiCall<{ items: { id: number; name: string; provider: { id: number; type: string } }[] }>(
        s.baseUrl,
        adminUser(),
        "GET",
        `/keys?provider_id=${providerId}`,
      );
      const key = keys.data.items.find((k) => k.name === KEY);
      expect(key?.provider).toMatchObject({ id: providerId, type: "VAULT" });
      keyId = key?.id ?? 0;
      await row.getByRole("link", { name: KEY }).click();
      await page.waitForURL(`**/settings/keys/${keyId}`);
    },
  );
});
