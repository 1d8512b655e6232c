import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, type Session } from "../support/browser.js";
import { USERS } from "../support/users.js";

/** Viewers see organizations, keys and networks but none of the create, revoke or delete actions. */
describe("viewer is read-only", () => {
  let s: Session;
  let orgId = 0;
  beforeAll(async () => {
    s = await openSession();
    const r = await apiCall<{ id: number }>(s.baseUrl, adminUser(), "POST", "/organizations", {
      mspId: `ViewerSeen${Date.now().toString(36)}MSP`,
      name: "viewer-seen",
    });
    orgId = r.data.id;
  });
  afterAll(async () => {
    await s.close();
  });

  it("shows organizations without create, issue, revoke or delete", async () => {
    await openAs(s, USERS.viewer, "/fabric/organizations");
    await s.page.getByRole("heading", { name: "Organizations" }).waitFor();
    await s.page.locator("tbody tr").first().waitFor();
    expect(await s.page.getByRole("button", { name: "Create organization" }).count()).toBe(0);
    await s.page.goto(`/organizations/${orgId}`);
    await s.page.getByRole("heading", { name: "Identities" }).waitFor();
    await s.page.getByTestId("certificate-details").first().waitFor();
    for (const name of ["Issue identity", "Revoke certificate", "Delete"]) {
      expect(await s.page.getByRole("button", { name, exact: true }).count()).toBe(0);
    }
    await s.page.getByRole("link", { name: "Download CRL" }).waitFor();
  });

  it("shows keys and networks without create buttons", async () => {
    await s.page.goto("/settings/keys");
    await s.page.getByRole("heading", { name: "Key Management" }).waitFor();
    await s.page.locator("tbody tr").first().waitFor();
    expect(await s.page.getByRole("button", { name: "Create key" }).count()).toBe(0);
    expect(await s.page.getByRole("combobox", { name: "Provider" }).count()).toBe(0);
    await s.page.goto("/network/besu");
    await s.page.getByRole("heading", { name: "Besu Networks" }).waitFor();
    expect(await s.page.getByRole("link", { name: "Create Besu network" }).count()).toBe(0);
  });

  it("can't open key providers or the create forms", async () => {
    await s.page.goto("/settings/providers");
    await s.page.getByText("You don't have access to this page").waitFor();
    await s.page.goto("/networks/besu/create");
    await s.page.getByText("You don't have access to this page").waitFor();
  });
});
