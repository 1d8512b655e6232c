import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { seedCatalog } from "../support/seed.js";
import { adminUser, MOBILE, openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { startServer, type RunningServer } from "../support/server.js";
import { USERS } from "../support/users.js";

/**
 * Not-found and permission errors get their own states (a way back, the kind of thing or the role
 * needed), not the generic "Something went wrong"; and the main pages fit a 390 px phone.
 */
describe("error states", () => {
  let s: Session;
  beforeAll(async () => {
    s = await openSession();
  });
  let peerId = 0;
  afterAll(async () => {
    if (peerId) await apiCall(s.baseUrl, adminUser(), "DELETE", `/nodes/${peerId}`);
    await s?.close();
  });

  async function generic(): Promise<number> {
    return s.page.getByText("Something went wrong").count();
  }

  it("shows a not-found page with a way back for an unknown route", async () => {
    await openAs(s, adminUser(), "/nope");
    await s.page.getByRole("heading", { name: "Page not found" }).waitFor();
    await s.page.goto("/nodes/xyz/abc");
    await s.page.getByRole("heading", { name: "Page not found" }).waitFor();
    await s.page.getByRole("link", { name: "Go to dashboard" }).click();
    await s.page.waitForURL("**/dashboard");
  });

  it("names the kind of thing a detail page can't find, with a link back to its list", async () => {
    for (const [path, title, back] of [
      ["/nodes/999999", "Node not found", "Back to Nodes"],
      ["/nodes/xyz", "Node not found", "Back to Nodes"],
      ["/organizations/999999", "Organization not found", "Back to Organizations"],
      ["/networks/999999/fabric", "Fabric network not found", "Back to Networks"],
      ["/settings/keys/999999", "Key not found", "Back to Key Management"],
    ] as const) {
      await s.page.goto(path);
      await s.page.getByRole("heading", { name: title }).waitFor();
      await s.page.getByRole("link", { name: back }).waitFor();
      expect(await generic(), path).toBe(0);
      expect(await s.page.getByRole("button", { name: "Try again" }).count(), path).toBe(0);
    }
    await screenshot(s.page, "error-states-not-found");
    await s.page.getByRole("link", { name: "Back to Key Management" }).click();
    await s.page.getByRole("heading", { name: "Key Management" }).waitFor();
  });

  it("tells a user which role a page needs", async () => {
    // The server refuses managers the user list and the audit log (403): the state names the roles.
    await openAs(s, USERS.manager, "/users");
    await s.page.getByRole("heading", { name: "You don't have access to this" }).waitFor();
    await s.page.getByText("This needs the admin or viewer role; your role is manager.").waitFor();
    expect(await generic()).toBe(0);
    await screenshot(s.page, "error-states-forbidden");
    await s.page.goto("/settings/audit-logs");
    await s.page.getByText("This needs the admin or viewer role; your role is manager.").waitFor();
    // A viewer opening an operators' page gets the role-gate state naming admins and managers.
    await openAs(s, USERS.viewer, "/settings/providers");
    await s.page.getByText("Only admins and managers can see key providers.", { exact: false }).waitFor();
    await s.page.goto("/nodes/fabric/create");
    await s.page.getByText("Only admins and managers can create nodes.", { exact: false }).waitFor();
  });

  it("has no sideways scroll on the main pages of a 390 px phone", async () => {
    // Realistic content, plus names long enough to push a careless layout sideways.
    const seeded = await seedCatalog(s.baseUrl, adminUser());
    const long = `Supply${Date.now().toString(36)}ChainConsortiumMemberOrganizationMSP`;
    await apiCall(s.baseUrl, adminUser(), "POST", "/organizations", { mspId: long, name: long.toLowerCase() });
    await apiCall(s.baseUrl, adminUser(), "POST", "/api-keys", { name: "phone-check", description: "CI deployments" });
    await apiCall(s.baseUrl, adminUser(), "POST", "/user-notifications/test", {
      event_type: "node.downtime",
      event_data: { node_name: "peer0-org1", node_id: 3, downtime_mins: 12 },
    });
    peerId = await createPeer(s.baseUrl, seeded.orgId);
    const phone = await openSession({ viewport: MOBILE });
    try {
      await openAs(phone, adminUser(), "/dashboard");
      const overflow: string[] = [];
      for (const [path, heading] of [
        ["/dashboard", /^Welcome back/],
        ["/nodes", "Nodes"],
        ["/networks", "Networks"],
        ["/network/besu", "Besu Networks"],
        ["/fabric/organizations", "Organizations"],
        ["/settings/keys", "Key Management"],
        ["/users", "Users"],
        ["/settings/audit-logs", "Audit Logs"],
        ["/settings/api-keys", "API Keys"],
        ["/nodes/999999", "Node not found"],
        ["/network/fabric", "Fabric Networks"],
        ["/settings/general", /./],
        ["/settings/access", /./],
        ["/account", /./],
        ["/settings/providers", /./],
        ["/nodes/fabric/create", /./],
        ["/fabric-wizard", /./],
        [`/organizations/${seeded.orgId}`, /./],
        [`/settings/keys/${seeded.caKeyId}`, /./],
        [`/networks/${seeded.besuId}/besu`, /./],
        ["/settings/audit-logs/1", /./],
        [`/nodes/${peerId}`, "error-states-peer"],
        ["/nodes/create", /./],
        ["/nodes/logs", /./],
        ["/networks/import", /./],
        ["/networks/fabric/create", /./],
        ["/networks/besu/create", /./],
        ["/networks/besu/bulk-create", /./],
        ["/fabric-join", /./],
        ["/settings/api-keys/new", /./],
        ["/settings/network", /./],
        ["/smart-contracts/besu", /./],
      ] as const satisfies readonly (readonly [string, string | RegExp])[]) {
        await phone.page.goto(path);
        await phone.page
          .getByRole("heading", { name: heading, ...(typeof heading === "string" ? { exact: true } : {}) })
          .first()
          .waitFor();
        // Let lists and cards settle before measuring.
        await phone.page.waitForLoadState("networkidle");
        const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
        if (width > MOBILE.width) overflow.push(`${path}: ${width}px (${await widest(phone)})`);
      }
      await phone.page.goto("/dashboard");
      await phone.page.waitForLoadState("networkidle");
      await screenshot(phone.page, "error-states-mobile-dashboard");
      expect(overflow).toEqual([]);
    } finally {
      await phone.close();
    }
  }, 150_000);
});

/** A real Fabric peer of the seeded organization, so node lists and the dashboard's counts have content. */
async function createPeer(baseUrl: string, orgId: number): Promise<number> {
  const defaults = await apiCall<Record<string, string>>(baseUrl, adminUser(), "GET", "/nodes/defaults/fabric-peer");
  const r = await apiCall<{ id: number }>(baseUrl, adminUser(), "POST", "/nodes", {
    name: "error-states-peer",
    blockchainPlatform: "FABRIC",
    fabricPeer: {
      organizationId: orgId,
      mspId: "Org1MSP",
      listenAddress: defaults.data.listenAddress,
      externalEndpoint: defaults.data.externalEndpoint,
      operationsListenAddress: defaults.data.operationsListenAddress,
      chaincodeAddress: defaults.data.chaincodeAddress,
      domainNames: ["peer0.org1.example.com"],
    },
  });
  if (r.status !== 201) throw new Error(`creating the peer: ${r.status} ${JSON.stringify(r.data)}`);
  return r.data.id;
}

/** The outermost elements that stick out past the right edge of the viewport, for the failure message. */
async function widest(s: Session): Promise<string> {
  return s.page.evaluate(() => {
    const out: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>("*"))) {
      const r = el.getBoundingClientRect();
      const parent = el.parentElement?.getBoundingClientRect();
      if (r.right > window.innerWidth + 1 && (!parent || parent.right <= window.innerWidth + 1)) {
        out.push(`<${el.tagName.toLowerCase()} class="${el.className}"> ${Math.round(r.width)}px`);
      }
    }
    return out.slice(0, 3).join("; ");
  });
}

/** The demo visitor (CHAINLAUNCH_DEMO=true, its own server) may not see users: it is told to log in. */
describe("error states for the demo visitor", () => {
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

  it("asks the demo visitor to log in to see the user list", async () => {
    await s.page.goto("/users");
    await s.page.getByRole("heading", { name: "You don't have access to this" }).waitFor();
    await s.page.getByText("The demo visitor can't see this. Log in with your account to continue.").waitFor();
    expect(await s.page.getByText("Something went wrong").count()).toBe(0);
  });
});
