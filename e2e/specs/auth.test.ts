import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUser, openSession, type Session } from "../support/browser.js";

describe("login and logout", () => {
  let s: Session;
  beforeAll(async () => {
    s = await openSession();
  });
  afterAll(async () => {
    await s.close();
  });

  it("validates required fields", async () => {
    await s.page.goto("/");
    await s.page.getByText("Enter your credentials to access your account").waitFor();
    expect(await s.page.title()).toBe("Login | ChainLaunch");
    await s.page.getByRole("button", { name: "Sign in" }).click();
    await s.page.getByText("Username is required").waitFor();
    await s.page.getByText("Password is required").waitFor();
  });

  it("shows 'Invalid credentials' for a wrong password", async () => {
    await s.page.getByLabel("Username").fill("admin");
    await s.page.getByLabel("Password").fill("definitely-wrong");
    await s.page.getByRole("button", { name: "Sign in" }).click();
    await s.page.getByText("Invalid credentials").waitFor();
    expect(await s.page.getByRole("button", { name: "User menu" }).count()).toBe(0);
  });

  it("signs in, toasts and lands on /dashboard", async () => {
    const admin = adminUser();
    await s.page.getByLabel("Username").fill(admin.username);
    await s.page.getByLabel("Password").fill(admin.password);
    await s.page.getByRole("button", { name: "Sign in" }).click();
    await s.page.getByText("Logged in successfully").waitFor();
    await s.page.waitForURL("**/dashboard");
    await s.page.getByRole("button", { name: "User menu" }).waitFor();
    await s.page.getByRole("heading", { name: /Welcome back/ }).waitFor();
    expect(await s.page.title()).toBe("Dashboard | ChainLaunch");
  });

  it("redirects / to /dashboard and shows not-found for unknown paths", async () => {
    await s.page.goto("/");
    await s.page.waitForURL("**/dashboard");
    await s.page.goto("/no/such/page");
    await s.page.getByRole("heading", { name: "Page not found" }).waitFor();
  });

  it("logs out only after confirmation", async () => {
    await s.page.goto("/dashboard");
    await s.page.getByRole("button", { name: "User menu" }).click();
    await s.page.getByRole("menuitem", { name: "Log out" }).click();
    const dialog = s.page.getByRole("alertdialog");
    await dialog.getByText("Are you sure you want to log out?").waitFor();
    await dialog.getByText("You will need to log in again to access your account.").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    await s.page.getByRole("button", { name: "User menu" }).waitFor();

    // Hold the logout call until the in-progress label has been seen.
    let release = () => {};
    const seen = new Promise<void>((r) => (release = r));
    await s.page.route("**/api/v1/auth/logout", async (route) => {
      await seen;
      await route.continue();
    });
    await s.page.getByRole("button", { name: "User menu" }).click();
    await s.page.getByRole("menuitem", { name: "Log out" }).click();
    await s.page.getByRole("alertdialog").getByRole("button", { name: "Log out" }).click();
    await s.page.getByRole("alertdialog").getByText("Logging out...").waitFor();
    release();
    await s.page.getByText("Enter your credentials to access your account").waitFor();
    const me = await s.context.request.get("/api/v1/auth/me");
    expect(me.status()).toBe(401);
  });
});
