import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, screenshot, toastsClosed, type Session } from "../support/browser.js";
import { startMoto } from "../support/moto.js";
import { USERS } from "../support/users.js";

/**
 * Backups in the browser against real restic and a real S3 endpoint (moto_server): a target created
 * from its form (with Test connection), "Back up now" until the row shows completed, and the
 * schedule form's live cron preview (next times, then the parser's message for a bad expression); the
 * recovery key made and shown once; a manager sees no target form, recovery key button or Verify.
 */
describe("backups", () => {
  let s: Session;
  let moto: Awaited<ReturnType<typeof startMoto>>;
  beforeAll(async () => {
    moto = await startMoto();
    await moto.createBucket("e2e-backups");
    s = await openSession();
  });
  afterAll(async () => {
    await s?.close();
    moto?.stop();
  });

  it("creates an S3 target from the form after testing the connection", async () => {
    // Through the page, as an operator comes: the Backups tab is seen with no target first, so the target
    // list the page shows after the create starts from that empty answer.
    await openAs(s, adminUser(), "/settings/backups");
    const page = s.page;
    await page.getByText("Add a target to back up to.").waitFor();
    await page.getByRole("link", { name: "Add target" }).click();
    await page.waitForURL(/\/settings\/backups\/targets\/create$/);
    await page.getByLabel("Name", { exact: true }).fill("e2e-s3");
    await page.getByLabel("Endpoint", { exact: true }).fill(moto.endpoint);
    await page.getByLabel("Bucket", { exact: true }).fill("e2e-backups");
    await page.getByLabel("Path in the bucket", { exact: true }).fill("console");
    await page.getByLabel("Access key id", { exact: true }).fill("AKIDE2E");
    await page.getByLabel("Secret key", { exact: true }).fill("e2e-secret");
    await page.getByLabel(/Path-style/).check();
    expect((await page.getByLabel("Repository password", { exact: true }).inputValue()).length).toBeGreaterThanOrEqual(
      8,
    );
    await page.getByRole("button", { name: "Test connection" }).click();
    await page.getByTestId("test-result").filter({ hasText: "reachable" }).waitFor();
    await page.getByRole("button", { name: "Create target" }).click();
    await page.waitForURL(/\/settings\/backups$/);
    const targets = await apiCall<Array<{ name: string; secretKey: string }>>(
      s.baseUrl,
      adminUser(),
      "GET",
      "/backups/targets",
    );
    const t = targets.data.find((x) => x.name === "e2e-s3");
    expect(t?.secretKey).toBe("********");
  });

  it("makes the recovery key, shown once, then backs up now and shows the completed backup", async () => {
    const page = s.page;
    const card = page.getByTestId("recovery-key-card");
    await card.getByText("None yet", { exact: false }).waitFor();
    await card.getByRole("button", { name: "Create recovery key" }).click();
    const shown = await card.getByTestId("recovery-key").innerText();
    expect(shown).toMatch(/^clrk1-[A-Za-z0-9_-]{43}$/);
    await card.getByRole("button", { name: "I have saved it" }).click();
    await card.getByText("Fingerprint", { exact: false }).waitFor();
    expect(await card.innerText()).not.toContain(shown);
    const status = await apiCall<{ configured: boolean }>(s.baseUrl, adminUser(), "GET", "/backups/recovery-key");
    expect(status.data.configured).toBe(true);
    await page.getByRole("tab", { name: "Backups" }).click();
    // The first target, just created, is the one shown and the one used: nothing to pick first.
    const select = page.getByLabel("Backup target", { exact: true });
    expect(await select.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.text)).toBe("e2e-s3");
    await expect.poll(() => page.getByRole("button", { name: "Back up now" }).isEnabled()).toBe(true);
    await page.getByRole("button", { name: "Back up now" }).click();
    const row = page.locator("[data-testid^=backup-]").first();
    await row.getByText("completed", { exact: true }).waitFor({ timeout: 120_000 });
    await screenshot(page, "backups-completed");
    const list = await apiCall<Array<{ status: string; snapshotId: string | null; targetName: string }>>(
      s.baseUrl,
      adminUser(),
      "GET",
      "/backups",
    );
    expect(list.data[0]).toMatchObject({ status: "completed", targetName: "e2e-s3" });
    expect(list.data[0]?.snapshotId).toMatch(/^[0-9a-f]{64}$/);
    expect(await row.innerText()).toContain(list.data[0]?.snapshotId?.slice(0, 8));
    // One unit everywhere: the size in the row is the size the backup's notification gives.
    const size = /(\d+\.\d\d) MB/.exec(await row.innerText())?.[1];
    expect(size).toBeDefined();
    await page.getByRole("button", { name: /^Notifications/ }).click();
    await page
      .getByTestId("notification-list")
      .first()
      .getByText(`Backup to e2e-s3 completed (${size} MB)`)
      .first()
      .waitFor();
    await page.keyboard.press("Escape");
  });

  it("previews a cron expression live, and shows the parser's message for a bad one", async () => {
    const page = s.page;
    await page.getByRole("tab", { name: "Schedules" }).click();
    const cron = page.getByLabel("Cron expression", { exact: true });
    await cron.fill("0 */6 * * *");
    const preview = page.getByTestId("cron-preview");
    await preview.waitFor();
    expect(await preview.locator("li").count()).toBe(5);
    await cron.fill("61 * * * *");
    const error = page.getByTestId("cron-error");
    await error.waitFor();
    expect((await error.innerText()).toLowerCase()).toContain("minute");
  });

  it("says in a toast when a schedule is added, disabled and enabled", async () => {
    const page = s.page;
    await page.getByRole("tab", { name: "Schedules" }).click();
    await page.getByLabel("Cron expression", { exact: true }).fill("0 3 * * *");
    await page.getByLabel("Name", { exact: true }).fill("nightly-e2e");
    await page.getByRole("button", { name: "Add schedule" }).click();
    const toast = (text: string) => page.locator('[data-toast-kind="success"]').getByText(text, { exact: true });
    await toast("Schedule nightly-e2e added").waitFor();
    const enabled = page.getByLabel("Enable nightly-e2e");
    // The box is controlled by the server's answer, so it is clicked (not checked) and read back.
    await enabled.click();
    await toast("Schedule nightly-e2e disabled").waitFor();
    expect(await enabled.isChecked()).toBe(false);
    // The two toasts sit over the table's Enabled column; a click would only hover them (CI at load 13).
    await toastsClosed(page);
    await enabled.click();
    await toast("Schedule nightly-e2e enabled").waitFor();
    const list = await apiCall<{ name: string; enabled: boolean }[]>(
      s.baseUrl,
      adminUser(),
      "GET",
      "/backups/schedules",
    );
    expect(list.data.find((x) => x.name === "nightly-e2e")?.enabled).toBe(true);
  });

  it("shows a manager the targets read-only, and no recovery key button or Verify", async () => {
    await openAs(s, USERS.manager, "/settings/backups");
    const page = s.page;
    await page.locator("[data-testid^=backup-]").first().getByText("completed", { exact: true }).waitFor();
    await page.getByTestId("recovery-key-card").getByText("Fingerprint", { exact: false }).waitFor();
    expect(await page.getByRole("button", { name: /recovery key/ }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Add target" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Verify" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Back up now" }).count()).toBe(1);
    await page.getByRole("tab", { name: "Targets" }).click();
    await page.getByRole("link", { name: "e2e-s3" }).click();
    await page.getByTestId("target-summary").waitFor();
    expect(await page.getByRole("button", { name: "Save" }).count()).toBe(0);
    await page.goto("/settings/backups/targets/create");
    await page.getByText("Only admins add backup targets", { exact: false }).waitFor();
    await screenshot(page, "backups-manager");
  });
});
