import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { REPO_ROOT, startServer, type RunningServer } from "../support/server.js";
import type { Credentials } from "../support/users.js";

const SUFFIX = Date.now().toString(36);
const CHANNEL = `gov-${SUFFIX}`;
const MSP_A = `GovA${SUFFIX}MSP`;
const MSP_B = `GovB${SUFFIX}MSP`;
const MSP_C = `GovC${SUFFIX}MSP`;

interface Org {
  mspId: string;
  signCert: string;
  tlsCert: string;
}

/**
 * The configtx fixtures (server/src/test-support/governance-seed.ts): block 0 of a channel, and a
 * proposal stored on a console as POST /pro/networks/proposals stores it. Computing it through the
 * route needs a running orderer; the real-binary path is covered by governance.e2e.test.ts.
 */
function seed<T>(command: "genesis" | "proposal", input: unknown): T {
  const out = execFileSync(
    join(REPO_ROOT, "node_modules/.bin/tsx"),
    ["server/src/test-support/governance-seed.ts", command],
    { cwd: REPO_ROOT, input: JSON.stringify(input), encoding: "utf8" },
  );
  return JSON.parse(out) as T;
}

async function createOrg(url: string, admin: Credentials, mspId: string): Promise<Org> {
  const r = await apiCall<{ signCertificate: string; tlsCertificate: string }>(url, admin, "POST", "/organizations", {
    mspId,
    name: mspId,
  });
  expect(r.status, JSON.stringify(r.data)).toBe(201);
  return { mspId, signCert: r.data.signCertificate, tlsCert: r.data.tlsCertificate };
}

async function setEndpoint(s: RunningServer): Promise<void> {
  const admin = { username: "admin", password: s.adminPassword };
  const cfg = (await apiCall<{ config: Record<string, unknown> }>(s.url, admin, "GET", "/settings")).data.config;
  const r = await apiCall(s.url, admin, "POST", "/settings", { config: { ...cfg, federationEndpoint: s.url } });
  expect(r.status).toBe(200);
}

/**
 * Issue 17's browser test of config proposals between two real consoles (no Fabric binaries: the
 * channel's block comes from the configtx library and is imported on both). A shares its add-org
 * proposal from the detail page; B opens the bell, follows the "New Proposal Received" link to the
 * sign page, signs as its org and sends the signature back; A's page shows it counted.
 */
describe("config proposals between two consoles", () => {
  let a: RunningServer;
  let b: RunningServer;
  let sa: Session;
  let sb: Session;
  let adminA: Credentials;
  let adminB: Credentials;
  let aId = "";
  let bId = "";
  let aNet = 0;
  let proposalId = "";

  beforeAll(async () => {
    a = await startServer({ CHAINLAUNCH_FEDERATION_PING_SECONDS: "2" });
    b = await startServer({ CHAINLAUNCH_FEDERATION_PING_SECONDS: "2" });
    adminA = { username: "admin", password: a.adminPassword };
    adminB = { username: "admin", password: b.adminPassword };
    await setEndpoint(a);
    await setEndpoint(b);
    aId = (await apiCall<{ node_id: string }>(a.url, adminA, "GET", "/node/identity")).data.node_id;
    bId = (await apiCall<{ node_id: string }>(b.url, adminB, "GET", "/node/identity")).data.node_id;
    const inv = await apiCall<{ invitation_jwt: string }>(a.url, adminA, "POST", "/node/generate-invitation", {
      bidirectional: true,
    });
    expect(inv.status, JSON.stringify(inv.data)).toBeLessThan(300);
    const acc = await apiCall(b.url, adminB, "POST", "/node/accept-invitation", {
      invitation_jwt: inv.data.invitation_jwt,
    });
    expect(acc.status, JSON.stringify(acc.data)).toBeLessThan(300);

    const orgA = await createOrg(a.url, adminA, MSP_A);
    const orgC = await createOrg(a.url, adminA, MSP_C);
    const orgB = await createOrg(b.url, adminB, MSP_B);
    const { genesis_b64 } = seed<{ genesis_b64: string }>("genesis", { channel: CHANNEL, orgs: [orgA, orgB] });
    const nets: number[] = [];
    for (const [url, admin] of [
      [a.url, adminA],
      [b.url, adminB],
    ] as const) {
      const r = await apiCall<{ networkId: number }>(url, admin, "POST", "/networks/fabric/import", {
        genesisFile: genesis_b64,
      });
      expect(r.status, JSON.stringify(r.data)).toBe(200);
      nets.push(r.data.networkId);
    }
    aNet = nets[0]!;
    proposalId = seed<{ id: string }>("proposal", {
      dataDir: a.dataDir,
      networkId: aNet,
      channel: CHANNEL,
      genesis_b64,
      add: orgC,
    }).id;
    sa = await openSession({ baseUrl: a.url });
    sb = await openSession({ baseUrl: b.url });
  }, 240_000);

  afterAll(async () => {
    await sa?.close();
    await sb?.close();
    await a?.stop();
    await b?.stop();
  });

  it("A lists the proposal on the network's Proposals tab and opens it", async () => {
    await openAs(sa, adminA, `/networks/${aNet}/fabric?tab=proposals`);
    const page = sa.page;
    await page.getByRole("tab", { name: "Proposals", selected: true }).waitFor();
    const row = page.getByTestId(`proposal-row-${proposalId}`);
    await row.getByText("0 of 2 orgs signed").waitFor();
    await row.getByRole("link", { name: "add_org" }).click();
    await page.waitForURL(new RegExp(`/networks/${aNet}/fabric/proposals/${proposalId}$`));
    await page.getByRole("heading", { name: "Proposal: add_org", level: 1 }).waitFor();
    await page
      .getByTestId("proposal-diff")
      .getByText(`channel_group.groups.Application.groups.${MSP_C}`, { exact: true })
      .waitFor();
    await page.getByRole("progressbar", { name: "Signatures against the policy" }).waitFor();
    expect(await page.getByRole("button", { name: "Submit" }).isDisabled()).toBe(true);
  });

  it("A's create page checks the operations, previews them and shows the server's refusal", async () => {
    const page = sa.page;
    await page.goto(`/networks/${aNet}/fabric?tab=proposals`);
    await page.getByRole("link", { name: "Create proposal" }).click();
    await page.waitForURL(new RegExp(`/networks/${aNet}/fabric/proposals/create$`));
    await page.getByRole("heading", { name: "Create proposal", level: 1 }).waitFor();
    // No node of the channel runs here: the editors read the channel's block 0 and say so.
    await page.getByRole("status").filter({ hasText: "could not be read" }).waitFor();
    await page.getByRole("button", { name: "Create proposal" }).click();
    await page.getByRole("alert").filter({ hasText: "Add at least one operation" }).waitFor();
    await page.getByLabel("Operation", { exact: true }).selectOption("remove_org");
    await page.getByRole("button", { name: "Add operation" }).click();
    await page.getByRole("button", { name: "Create proposal" }).click();
    const op = page.getByTestId("operation-0");
    await op.getByRole("alert").filter({ hasText: "Choose an organization" }).waitFor();
    await op.getByLabel("Organization").selectOption(MSP_B);
    await page
      .getByTestId("proposal-diff")
      .getByText(`channel_group.groups.Application.groups.${MSP_B}`, { exact: true })
      .waitFor();
    await screenshot(page, "proposal-create");
    // Computing the update needs the newest config from a running orderer of the channel.
    await page.getByRole("button", { name: "Create proposal" }).click();
    await page.getByRole("alert").filter({ hasText: "no joined, running orderer" }).waitFor();
    expect(page.url()).toMatch(/\/fabric\/proposals\/create$/);
  });

  it("A shares it with B from the detail page", async () => {
    const page = sa.page;
    await page.goto(`/networks/${aNet}/fabric/proposals/${proposalId}`);
    await page.getByRole("heading", { name: "Proposal: add_org", level: 1 }).waitFor();
    const card = page.getByTestId("share-proposal");
    const option = await card.locator("option", { hasText: bId }).getAttribute("value");
    await card.getByLabel("Console").selectOption(option ?? "");
    await card.getByRole("button", { name: "Share proposal" }).click();
    await page.getByText("Proposal shared").first().waitFor();
    await page.getByRole("list", { name: "Proposal timeline" }).getByText(`to ${bId}`).waitFor();
  });

  it("B follows the notification to the sign page, signs as its org and sends the signature back", async () => {
    await openAs(sb, adminB, "/dashboard");
    const page = sb.page;
    await page.getByRole("button", { name: /^Notifications/ }).click();
    await page.getByRole("button", { name: /^New Proposal Received/ }).click();
    await page.waitForURL(/\/networks\/fabric\/proposals\/[^/]+\/sign$/);
    await page.getByRole("heading", { name: "Sign proposal", level: 1 }).waitFor();
    await page.getByText(`on ${aId} asks your organization to sign`).waitFor();
    await page
      .getByTestId("proposal-diff")
      .getByText(`channel_group.groups.Application.groups.${MSP_C}`, { exact: true })
      .waitFor();
    await page.getByRole("button", { name: `Sign as ${MSP_B}` }).click();
    await page.getByText("Proposal signed").first().waitFor();
    const send = page.getByRole("button", { name: `Send ${MSP_B} signature to ${aId}` });
    await send.click();
    await page.getByText("Signature shared").first().waitFor();
    await page.getByRole("list", { name: "Proposal timeline" }).getByText("Signature sent").waitFor();
  });

  it("A's detail page shows B's signature counted: 1 of 2, then 2 of 2 after A signs", async () => {
    const page = sa.page;
    await page.reload();
    await page.getByTestId(`signature-${MSP_B}`).waitFor();
    await page.getByTestId("policy-progress").getByText("1 of 2 orgs signed").waitFor();
    await page.getByRole("button", { name: `Sign as ${MSP_A}` }).click();
    await page.getByTestId("policy-progress").getByText("2 of 2 orgs signed").waitFor();
    await page.getByText("Policy met: ready to submit").waitFor();
    expect(await page.getByRole("button", { name: "Submit" }).isDisabled()).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, "proposal-detail");
  });

  it("asks before submitting, naming what the update changes; Cancel submits nothing", async () => {
    // Submitting needs a running orderer (governance-diff.test.ts has one); here the question is checked.
    const page = sa.page;
    await page.getByRole("button", { name: "Submit" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Submit this config update?" });
    await confirm.getByText("can't be withdrawn", { exact: false }).waitFor();
    await confirm.getByText(`added channel_group.groups.Application.groups.${MSP_C}`, { exact: true }).waitFor();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "hidden" });
    const p = await apiCall<{ status: string }>(a.url, adminA, "GET", `/pro/networks/proposals/${proposalId}`);
    expect(p.data.status).toBe("pending");
  });
});
