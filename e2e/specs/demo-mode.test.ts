import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession, screenshot, type Session } from "../support/browser.js";
import { startServer, type RunningServer } from "../support/server.js";

/**
 * Demo mode on its own real server (CHAINLAUNCH_DEMO=true): an anonymous visitor gets the read-only
 * demo user, the header offers Login with the spec's dialog text, and signing in there turns the
 * visitor into the real admin.
 */
describe("demo mode", () => {
  let server: RunningServer;
  let s: Session;

  beforeAll(async () => {
    server = await startServer({ CHAINLAUNCH_DEMO: "true" });
    s = await openSession({ baseUrl: server.url });
  }, 120_000);

  afterAll(async () => {
    await s?.close();
    await server?.stop();
  });

  it("shows the console to an anonymous visitor as the read-only demo user", async () => {
    const me = await s.context.request.get("/api/v1/auth/me");
    expect(me.status()).toBe(200);
    expect(await me.json()).toMatchObject({ id: 0, demo_mode: true });
    await s.page.goto("/dashboard");
    await s.page.getByRole("button", { name: "Toggle Sidebar" }).waitFor();
    await s.page.getByRole("button", { name: "Login" }).waitFor();
    // Read-only: the create menu is hidden, and the server refuses writes.
    expect(await s.page.getByRole("button", { name: "Create" }).count()).toBe(0);
    const write = await s.context.request.post("/api/v1/organizations", { data: { mspId: "DemoMSP", name: "demo" } });
    expect(write.status()).toBe(403);
  });

  it("signs in from the header's Login dialog", async () => {
    await s.page.getByRole("button", { name: "Login" }).click();
    const dialog = s.page.getByRole("dialog");
    await dialog
      .getByText("You are currently in demo mode. Enter your credentials to log in with your account.")
      .waitFor();
    await screenshot(s.page, "demo-login-dialog");
    await dialog.getByLabel("Username").fill("admin");
    await dialog.getByLabel("Password").fill(server.adminPassword);
    await dialog.getByRole("button", { name: "Sign in" }).click();
    await s.page.waitForURL("**/dashboard");
    await s.page.getByRole("button", { name: "Create" }).waitFor({ timeout: 30_000 });
    expect(await s.page.getByRole("button", { name: "Login" }).count()).toBe(0);
    const me = await s.context.request.get("/api/v1/auth/me");
    expect(await me.json()).toMatchObject({ username: "admin", role: "admin", demo_mode: false });
  });
});
