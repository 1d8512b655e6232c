import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, type Session } from "../support/browser.js";

/** The shared delete confirmation on keys, key providers, API keys and users: confirm, toast, navigate or refuse. */
describe("delete confirmations", () => {
  let s: Session;
  const tag = Date.now().toString(36);
  beforeAll(async () => {
    s = await openSession();
    await openAs(s, adminUser(), "/dashboard");
  });
  afterAll(async () => {
    await s.close();
  });

  it("deletes a key after confirmation", async () => {
    const name = `doomed-key-${tag}`;
    const r = await apiCall<{ id: number }>(s.baseUrl, adminUser(), "POST", "/keys", { name, algorithm: "EC" });
    expect(r.status).toBe(201);
    await s.page.goto(`/settings/keys/${r.data.id}`);
    await s.page.getByRole("heading", { name }).waitFor();
    await s.page.getByRole("button", { name: "Delete", exact: true }).click();
    const dialog = s.page.getByRole("alertdialog", { name: `Delete ${name}?` });
    await dialog.getByText(/The private key is destroyed/).waitFor();
    await dialog.getByRole("button", { name: "Delete key" }).click();
    await s.page.waitForURL(/\/settings\/keys$/);
    await s.page.getByText("Key deleted").first().waitFor();
  });

  it("keeps the key provider dialog open with the server's refusal, then deletes an empty provider", async () => {
    const list = await apiCall<{ id: number; name: string; isDefault: number | boolean }[]>(
      s.baseUrl,
      adminUser(),
      "GET",
      "/key-providers",
    );
    const def = list.data.find((p) => Boolean(p.isDefault));
    expect(def).toBeDefined();
    await s.page.goto(`/settings/providers/${def!.id}`);
    await s.page.getByRole("heading", { name: def!.name }).waitFor();
    await s.page.getByRole("button", { name: "Delete", exact: true }).click();
    let dialog = s.page.getByRole("alertdialog", { name: `Delete ${def!.name}?` });
    await dialog.getByRole("button", { name: "Delete provider" }).click();
    await dialog.getByRole("alert").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });

    const name = `doomed-provider-${tag}`;
    const r = await apiCall<{ id: number }>(s.baseUrl, adminUser(), "POST", "/key-providers", {
      name,
      type: "DATABASE",
    });
    expect(r.status).toBe(201);
    await s.page.goto(`/settings/providers/${r.data.id}`);
    await s.page.getByRole("heading", { name }).waitFor();
    await s.page.getByRole("button", { name: "Delete", exact: true }).click();
    dialog = s.page.getByRole("alertdialog", { name: `Delete ${name}?` });
    expect(await dialog.getByRole("alert").count()).toBe(0);
    await dialog.getByRole("button", { name: "Delete provider" }).click();
    await s.page.waitForURL(/\/settings\/providers$/);
    await s.page.getByText("Key provider deleted").first().waitFor();
  });

  it("revokes an API key after confirmation", async () => {
    const name = `doomed-api-key-${tag}`;
    const r = await apiCall<{ api_key: { id: number } }>(s.baseUrl, adminUser(), "POST", "/api-keys", { name });
    expect(r.status).toBe(201);
    await s.page.goto(`/settings/api-keys/${r.data.api_key.id}`);
    await s.page.getByRole("heading", { name }).waitFor();
    await s.page.getByRole("button", { name: "Revoke", exact: true }).click();
    const dialog = s.page.getByRole("alertdialog", { name: `Revoke ${name}?` });
    await dialog.getByText(/loses access immediately/).waitFor();
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await s.page.waitForURL(/\/settings\/api-keys$/);
    await s.page.getByText("API key revoked").first().waitFor();
  });

  it("deletes a user from the Users list after confirmation", async () => {
    const username = `doomed.${tag}`;
    const r = await apiCall(s.baseUrl, adminUser(), "POST", "/users", {
      username,
      password: "doomed-pass-1",
      role: "viewer",
    });
    expect(r.status).toBe(201);
    await s.page.goto("/users");
    await s.page.getByRole("button", { name: `Actions for ${username}` }).click();
    await s.page.getByRole("menuitem", { name: "Delete" }).click();
    const dialog = s.page.getByRole("alertdialog", { name: `Delete ${username}?` });
    await dialog.getByText(/They are signed out at once/).waitFor();
    await dialog.getByRole("button", { name: "Delete user" }).click();
    await s.page.getByText("User deleted").first().waitFor();
    await dialog.waitFor({ state: "detached" });
    await s.page.getByRole("button", { name: `Actions for ${username}` }).waitFor({ state: "detached" });
  });
});
