import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, screenshot, type Session } from "../support/browser.js";

const NAME = `edited-${Date.now().toString(36)}`;

/**
 * The plugin YAML editor: the server's validation shows inline as the user types (a YAML error
 * with its line), fixing it shows "Valid", and saving creates the plugin; editing it again saves
 * the change.
 */
describe("plugin editor", () => {
  let s: Session;
  const admin = adminUser;

  beforeAll(async () => {
    s = await openSession();
  });
  afterAll(async () => {
    await apiCall(s.baseUrl, admin(), "DELETE", `/plugins/${NAME}`);
    await s?.close();
  });

  it("validates inline, creates the plugin and saves an edit", { timeout: 120_000 }, async () => {
    const { page } = s;
    await openAs(s, admin(), "/plugins/new");
    await page.locator(".monaco-editor .view-lines").first().waitFor();
    const state = page.getByTestId("validation-state");
    await expect.poll(() => state.textContent(), { timeout: 20_000 }).toContain("Valid");

    // Rename the template's plugin, then break the YAML on the line after it.
    await page.locator(".monaco-editor .view-lines").first().click();
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("Control+F");
    await page.keyboard.type("name: my-plugin");
    await page.keyboard.press("Escape");
    await page.keyboard.type(`name: ${NAME}`);
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("bad: value: other");
    const problems = page.getByRole("list", { name: "Problems" });
    await problems.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => problems.textContent(), { timeout: 20_000 })
      .toMatch(/^5:\d+ YAML: Nested mappings are not allowed/);
    await expect.poll(() => state.textContent()).toMatch(/\d+ problems?/);
    await screenshot(page, "plugins-editor-problems");

    // Undo the break: valid again, then create.
    await page.keyboard.press("Control+Z");
    await page.keyboard.press("Control+Z");
    await expect.poll(() => state.textContent(), { timeout: 20_000 }).toContain("Valid");
    await page.getByRole("button", { name: "Create plugin" }).click();
    await page.waitForURL(`**/plugins/${NAME}`, { timeout: 30_000 });
    const created = await apiCall<{ yaml: string }>(s.baseUrl, admin(), "GET", `/plugins/${NAME}`);
    expect(created.status).toBe(200);
    expect(created.data.yaml).toContain(`name: ${NAME}`);
    expect(created.data.yaml).not.toContain("bad: value");

    // Edit: change the description and save with Ctrl+S.
    await page.goto(`/plugins/${NAME}/edit`);
    await page.locator(".monaco-editor .view-lines").first().waitFor();
    await expect.poll(() => state.textContent(), { timeout: 20_000 }).toContain("Valid");
    await page.locator(".monaco-editor .view-lines").first().click();
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("Control+F");
    await page.keyboard.type("description: ");
    await page.keyboard.press("Escape");
    await page.keyboard.press("End");
    await page.keyboard.type(" (edited)");
    await page.keyboard.press("Control+S");
    await expect
      .poll(
        async () =>
          (await apiCall<{ metadata: { description: string } }>(s.baseUrl, admin(), "GET", `/plugins/${NAME}`)).data
            .metadata.description,
        { timeout: 20_000 },
      )
      .toMatch(/\(edited\)$/);
  });
});
