import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { startSmtp } from "../support/smtp.js";

/**
 * Notification providers in the browser against a real SMTP server the test starts: an email
 * provider created from its form, "Send test" showing success, and the test email received.
 */
describe("notification providers", () => {
  let s: Session;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    s = await openSession();
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
  });

  it("creates an SMTP provider from the form and sends a test email", async () => {
    await openAs(s, adminUser(), "/monitoring/providers/new");
    const page = s.page;
    await page.getByLabel("Name", { exact: true }).fill("e2e-mail");
    await page.getByLabel("SMTP host", { exact: true }).fill("127.0.0.1");
    await page.getByLabel("Port", { exact: true }).fill(String(smtp.port));
    await page.getByLabel("From address", { exact: true }).fill("console@example.com");
    await page.getByLabel("Recipients", { exact: true }).fill("ops@example.com");
    await page.getByLabel("Skip TLS certificate verification").check();
    await page.getByLabel("Backup failed").check();
    await page.getByRole("button", { name: "Create provider" }).click();
    await page.waitForURL(/\/monitoring\/providers\/\d+$/);

    await page.getByLabel("Test email", { exact: true }).fill("tester@example.com");
    await page.getByRole("button", { name: "Send test" }).click();
    await page.getByTestId("test-result").filter({ hasText: "Success" }).waitFor();
    await page.getByTestId("last-test").getByText("Test passed").waitFor();
    await screenshot(page, "notification-provider-tested");

    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]?.to).toEqual(["tester@example.com"]);
    expect(smtp.mails[0]?.raw).toContain("Subject: [ChainLaunch] Test Notification");
    const list = await apiCall<Array<{ name: string; notifyBackupFailure: boolean; lastTestStatus: string }>>(
      s.baseUrl,
      adminUser(),
      "GET",
      "/notifications/providers",
    );
    expect(list.data.find((p) => p.name === "e2e-mail")).toMatchObject({
      notifyBackupFailure: true,
      lastTestStatus: "success",
    });
  });
});
