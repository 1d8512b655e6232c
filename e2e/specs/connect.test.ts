import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { startServer, type RunningServer } from "../support/server.js";

const SUFFIX = Date.now().toString(36);
const MSP = `Fed${SUFFIX}MSP`;

interface Identity {
  node_id: string;
  endpoint: string | null;
}

/**
 * Issue 16's browser test of federation: two real consoles (the shared server as A, a second one
 * with its own data directory and port as B). A invites on its Connect screen; B sets its endpoint in
 * Settings and accepts on its Connect screen; both list each other as connected; B syncs A's
 * organization and sees it under External Nodes; A shares a Besu network from its page and B accepts it on
 * Shared Networks; B disconnects and both show the connection revoked.
 */
describe("connect two consoles", () => {
  let b: RunningServer;
  let sa: Session;
  let sb: Session;
  let aSettings: Record<string, unknown> = {};
  let aId = "";
  let bId = "";
  let orgId = 0;
  let besuKeyId = 0;
  const besuNets: { url: string; id: number }[] = [];
  let invitation = "";
  const admin = adminUser;

  beforeAll(async () => {
    b = await startServer({ CHAINLAUNCH_FEDERATION_PING_SECONDS: "2" });
    sa = await openSession();
    sb = await openSession({ baseUrl: b.url });
    // A's endpoint through the API (restored after); B's is set on its Settings screen below.
    aSettings = (await apiCall<{ config: Record<string, unknown> }>(sa.baseUrl, admin(), "GET", "/settings")).data
      .config;
    const set = await apiCall(sa.baseUrl, admin(), "POST", "/settings", {
      config: { ...aSettings, federationEndpoint: sa.baseUrl },
    });
    expect(set.status).toBe(200);
    aId = (await apiCall<Identity>(sa.baseUrl, admin(), "GET", "/node/identity")).data.node_id;
    bId = (await apiCall<Identity>(b.url, admin(), "GET", "/node/identity")).data.node_id;
  }, 180_000);

  afterAll(async () => {
    for (const n of besuNets) await apiCall(n.url, admin(), "DELETE", `/networks/besu/${n.id}`);
    if (besuKeyId) await apiCall(sa.baseUrl, admin(), "DELETE", `/keys/${besuKeyId}`);
    if (orgId) await apiCall(sa.baseUrl, admin(), "DELETE", `/organizations/${orgId}`);
    await apiCall(sa.baseUrl, admin(), "POST", "/settings", { config: aSettings });
    await sa?.close();
    await sb?.close();
    await b?.stop();
  });

  it("B has no endpoint yet and sets one in Settings", async () => {
    await openAs(sb, admin(), "/connect");
    const page = sb.page;
    await page.getByRole("heading", { name: "Connect", level: 1 }).waitFor();
    await page.getByText(bId).first().waitFor();
    const missing = page.getByRole("status").filter({ hasText: "No endpoint is set" });
    await missing.waitFor();
    expect(await page.getByRole("button", { name: "Accept invitation" }).isDisabled()).toBe(true);
    await missing.getByRole("link", { name: "Settings" }).click();
    await page.waitForURL(/\/settings\/general#federation$/);
    const card = page.locator("#federation");
    await card.getByLabel("Federation endpoint").fill("not a url");
    await card.getByRole("button", { name: "Save changes" }).click();
    await card.getByText("Use an http(s) URL").waitFor();
    await card.getByLabel("Federation endpoint").fill(b.url);
    await card.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Settings saved").first().waitFor();
    const id = await apiCall<Identity>(b.url, admin(), "GET", "/node/identity");
    expect(id.data.endpoint).toBe(b.url);
  });

  it("A generates an invitation with a QR code", async () => {
    await openAs(sa, admin(), "/connect");
    const page = sa.page;
    await page.getByRole("heading", { name: "Connect", level: 1 }).waitFor();
    await page.getByTestId("federation-endpoint").getByText(sa.baseUrl).waitFor();
    await page.getByLabel("Expires in (hours)").fill("2");
    await page.getByRole("button", { name: "Generate invitation" }).click();
    const jwt = page.getByLabel("Invitation", { exact: true });
    await jwt.waitFor();
    invitation = await jwt.inputValue();
    expect(invitation.split(".")).toHaveLength(3);
    await page.getByRole("img", { name: "Invitation QR code" }).waitFor();
    await page.getByRole("button", { name: "Copy invitation" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(invitation);
    await screenshot(page, "connect-invitation");
  });

  it("B accepts it and both list each other as connected", async () => {
    const page = sb.page;
    await page.goto("/connect");
    await page.getByLabel("Invitation JWT").fill(invitation);
    await page.getByRole("definition").filter({ hasText: aId }).first().waitFor();
    await page.getByRole("button", { name: "Accept invitation" }).click();
    await page.getByRole("status").filter({ hasText: aId }).waitFor();
    await page.getByTestId(`peer-${aId}`).getByText("Connected").waitFor();
    await page.getByTestId(`peer-${aId}`).scrollIntoViewIfNeeded();
    await screenshot(page, "connect-accepted");

    await sa.page.reload();
    await sa.page.getByTestId(`peer-${bId}`).getByText("Connected").waitFor();

    // The invitation works once: a second accept is refused with the server's reason.
    await page.getByLabel("Invitation JWT").fill(invitation);
    await page.getByRole("button", { name: "Accept invitation" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: /already used|already connected|refused/ })
      .waitFor();
  });

  it("B sees A's organization live, syncs it and finds it under External Nodes", async () => {
    const created = await apiCall<{ id: number }>(sa.baseUrl, admin(), "POST", "/organizations", {
      mspId: MSP,
      name: `fed-${SUFFIX}`,
      description: "Made by the connect browser test",
    });
    expect(created.status).toBe(201);
    orgId = created.data.id;

    const page = sb.page;
    await page.getByTestId(`peer-${aId}`).getByRole("link").click();
    await page.waitForURL(new RegExp(`/connect/${aId}$`));
    await page.getByRole("heading", { name: aId, level: 1 }).waitFor();
    await page.getByRole("table", { name: "Organizations" }).getByText(MSP).waitFor();
    await page.getByRole("button", { name: "Sync external nodes" }).click();
    await page
      .getByTestId("sync-result")
      .getByText(/Organizations: [1-9]\d* added/)
      .waitFor();
    await screenshot(page, "connect-connection");

    await page.goto("/external-nodes");
    await page.getByRole("heading", { name: "External Nodes", level: 1 }).waitFor();
    const row = page.getByTestId(`external-org-${MSP}`);
    await row.waitFor();
    await row.getByText(aId).waitFor();
    await screenshot(page, "external-nodes");
  });

  it("A shares a Besu network from its page; B accepts it on Shared Networks and opens it", async () => {
    const name = `fed-besu-${SUFFIX}`;
    const key = await apiCall<{ id: number }>(sa.baseUrl, admin(), "POST", "/keys", {
      name: `fed-validator-${SUFFIX}`,
      algorithm: "EC",
      curve: "secp256k1",
    });
    expect(key.status, JSON.stringify(key.data)).toBeLessThan(300);
    besuKeyId = key.data.id;
    const net = await apiCall<{ id: number }>(sa.baseUrl, admin(), "POST", "/networks/besu", {
      name,
      description: "Shared by the connect browser test",
      config: {
        chainId: 31337,
        blockPeriod: 5,
        epochLength: 30000,
        requestTimeout: 10,
        initialValidatorsKeyIds: [besuKeyId],
      },
    });
    expect(net.status, JSON.stringify(net.data)).toBeLessThan(300);
    besuNets.push({ url: sa.baseUrl, id: net.data.id });

    const pa = sa.page;
    await pa.goto(`/networks/${net.data.id}/besu`);
    await pa.getByRole("heading", { name, level: 1 }).waitFor();
    await pa.getByRole("button", { name: "Share" }).click();
    const dialog = pa.getByRole("dialog", { name: `Share ${name}` });
    await dialog.getByLabel(`Share with ${bId}`).check();
    await dialog.getByRole("button", { name: "Share with 1" }).click();
    await dialog.waitFor({ state: "detached" });

    const pb = sb.page;
    await pb.goto("/networks/fabric/shared");
    await pb.getByRole("heading", { name: "Shared Networks", level: 1 }).waitFor();
    const row = pb.getByRole("table", { name: "Received networks" }).getByRole("row").filter({ hasText: name });
    await row.getByText("Pending").waitFor();
    await row.getByText(aId).waitFor();
    await screenshot(pb, "shared-networks-received");
    await row.getByRole("button", { name: `Accept ${name}` }).click();
    await row.getByText("Accepted").waitFor();
    const imported = (
      await apiCall<{ networks: { id: number; name: string }[] }>(b.url, admin(), "GET", "/networks/besu?limit=1000")
    ).data.networks.find((n) => n.name === name);
    expect(imported).toBeDefined();
    besuNets.push({ url: b.url, id: imported!.id });
    await row.getByRole("link", { name: "Open network" }).click();
    await pb.waitForURL(new RegExp(`/networks/${imported!.id}/besu$`));
    await pb.getByRole("heading", { name, level: 1 }).waitFor();

    // A's Sent tab shows the answer.
    await pa.goto("/networks/fabric/shared");
    await pa.getByRole("tab", { name: "Sent" }).click();
    await pa
      .getByRole("table", { name: "Sent networks" })
      .getByRole("row")
      .filter({ hasText: name })
      .getByText("Accepted")
      .first()
      .waitFor();
  });

  it("B disconnects and both show the connection revoked", async () => {
    const page = sb.page;
    await page.goto(`/connect/${aId}`);
    await page.getByRole("button", { name: "Disconnect" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Disconnect this console?" });
    await dialog.getByRole("button", { name: "Disconnect" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByText("Revoked").first().waitFor();
    await page.getByText("This connection is revoked").first().waitFor();
    expect(await page.getByRole("button", { name: "Sync external nodes" }).count()).toBe(0);

    await sa.page.goto("/connect");
    await sa.page.getByTestId(`peer-${bId}`).getByText("Revoked").waitFor();
    await sa.page.getByTestId(`peer-${bId}`).scrollIntoViewIfNeeded();
    await screenshot(sa.page, "connect-revoked");
  });
});
