import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, screenshot, settled, type Session } from "../support/browser.js";
import { createOneOrgChannel, deployChaincodeViaApi, removeFabricFixtures } from "../support/fabric.js";
import { seedCatalog } from "../support/seed.js";

const SUFFIX = Date.now().toString(36);
const MSP = `Tour${SUFFIX}MSP`;
const CHANNEL = `tour-${SUFFIX}`;
const CHAINCODE = `tour-${SUFFIX}`;
const SOURCE = resolve(import.meta.dirname, "../../server/src/fabric/test-support/chaincode/asset-node");
const ROUTES_FILE = resolve(import.meta.dirname, "../../web/src/app/routes.ts");

/** The four looks of every screen: a folder of e2e/artifacts/tour/ each. */
const LOOKS = [
  { dir: "tour/light-1440", colorScheme: "light", viewport: { width: 1440, height: 900 } },
  { dir: "tour/dark-1440", colorScheme: "dark", viewport: { width: 1440, height: 900 } },
  { dir: "tour/light-390", colorScheme: "light", viewport: { width: 390, height: 844 } },
  { dir: "tour/dark-390", colorScheme: "dark", viewport: { width: 390, height: 844 } },
] as const;

/** The things the tour's URLs name, made (or found) in beforeAll. */
interface Ids {
  orgId: number;
  caKeyId: number;
  besuId: number;
  keyProviderId: number;
  networkId: number;
  peerId: number;
  chaincodeId: number;
  definitionId: number;
  projectId: number;
  apiKeyId: number;
  backupTargetId: number;
  notificationProviderId: number;
  proposalId: string;
  auditId: string;
  templateId: number;
  plugin: string;
}

interface Stop {
  url: string;
  /** A selector that must be visible too (content that loads outside the app's queries). */
  wait?: string;
  /** The route's honest state when its concrete thing can't be made here; the table says why. */
  state?: "not-found";
}

/** Every route of web/src/app/routes.ts, as a URL over the tour's fixtures. */
function table(i: Ids): Record<string, Stop> {
  return {
    dashboard: { url: "/dashboard" },
    "fabric-wizard": { url: "/fabric-wizard" },
    "fabric-join": { url: "/fabric-join" },
    account: { url: "/account" },
    nodes: { url: "/nodes" },
    "nodes/create": { url: "/nodes/create" },
    "nodes/logs": { url: "/nodes/logs" },
    "nodes/:id": { url: `/nodes/${i.peerId}` },
    "nodes/fabric/create": { url: "/nodes/fabric/create" },
    "nodes/fabric/edit/:id": { url: `/nodes/fabric/edit/${i.peerId}` },
    "nodes/fabric/bulk": { url: "/nodes/fabric/bulk" },
    "nodes/besu/create": { url: "/nodes/besu/create" },
    // A Besu node needs a running Besu, which the e2e machine lacks: the not-found state.
    "nodes/besu/edit/:id": { url: "/nodes/besu/edit/999999", state: "not-found" },
    templates: { url: "/templates" },
    "templates/new": { url: "/templates/new" },
    "templates/:id": { url: `/templates/${i.templateId}` },
    "smart-contracts": { url: "/smart-contracts" },
    "smart-contracts/fabric": { url: "/smart-contracts/fabric" },
    "smart-contracts/besu": { url: "/smart-contracts/besu" },
    "smart-contracts/fabric/:id/playground": { url: `/smart-contracts/fabric/${i.chaincodeId}/playground` },
    "sc/fabric/chaincodes/:id": { url: `/sc/fabric/chaincodes/${i.chaincodeId}` },
    "sc/fabric/chaincodes/:id/add-definition": { url: `/sc/fabric/chaincodes/${i.chaincodeId}/add-definition` },
    "sc/fabric/chaincodes/:id/definitions/:definitionId/edit": {
      url: `/sc/fabric/chaincodes/${i.chaincodeId}/definitions/${i.definitionId}/edit`,
    },
    "sc/fabric/projects/chaincodes/:id": { url: `/sc/fabric/projects/chaincodes/${i.projectId}` },
    "sc/fabric/projects/chaincodes/:id/editor": {
      url: `/sc/fabric/projects/chaincodes/${i.projectId}/editor`,
      wait: '[aria-label="Project files"]',
    },
    monitoring: { url: "/monitoring" },
    "monitoring/providers/new": { url: "/monitoring/providers/new" },
    "monitoring/providers/:id": { url: `/monitoring/providers/${i.notificationProviderId}` },
    "settings/monitoring": { url: "/settings/monitoring" },
    networks: { url: "/networks" },
    "networks/import": { url: "/networks/import" },
    "network/fabric": { url: "/network/fabric" },
    "network/besu": { url: "/network/besu" },
    "networks/fabric/create": { url: "/networks/fabric/create" },
    "networks/besu/create": { url: "/networks/besu/create" },
    "networks/besu/bulk-create": { url: "/networks/besu/bulk-create" },
    "networks/fabric/shared": { url: "/networks/fabric/shared" },
    "networks/:id/besu": { url: `/networks/${i.besuId}/besu` },
    "networks/:id/fabric": { url: `/networks/${i.networkId}/fabric` },
    "networks/:id/blocks": { url: `/networks/${i.networkId}/blocks` },
    "networks/:id/blocks/:blockNumber": { url: `/networks/${i.networkId}/blocks/0` },
    // A Besu block needs a running Besu node, which the e2e machine lacks: the not-found state.
    "networks/besu/:networkId/:nodeId/blocks/:blockNumber": {
      url: `/networks/besu/${i.besuId}/999999/blocks/0`,
      state: "not-found",
    },
    "networks/:networkId/fabric/proposals/:id": { url: `/networks/${i.networkId}/fabric/proposals/${i.proposalId}` },
    "networks/:id/fabric/proposals/create": { url: `/networks/${i.networkId}/fabric/proposals/create` },
    "networks/fabric/proposals/:proposalId/sign": { url: `/networks/fabric/proposals/${i.proposalId}/sign` },
    "networks/:networkId/fabric/chaincodes/propose": { url: `/networks/${i.networkId}/fabric/chaincodes/propose` },
    "networks/fabric/chaincodes/:id": { url: `/networks/fabric/chaincodes/${i.chaincodeId}` },
    "organizations/:id": { url: `/organizations/${i.orgId}`, wait: '[data-testid="certificate-details"]' },
    "fabric/organizations": { url: "/fabric/organizations" },
    "settings/access": { url: "/settings/access" },
    "settings/network": { url: "/settings/network" },
    "settings/keys": { url: "/settings/keys" },
    "settings/keys/:id": { url: `/settings/keys/${i.caKeyId}`, wait: '[data-testid="certificate-details"]' },
    "settings/api-keys": { url: "/settings/api-keys" },
    "settings/api-keys/new": { url: "/settings/api-keys/new" },
    "settings/api-keys/:id": { url: `/settings/api-keys/${i.apiKeyId}` },
    "settings/mcp": { url: "/settings/mcp" },
    "settings/docker-engines": { url: "/settings/docker-engines" },
    "settings/providers": { url: "/settings/providers" },
    "settings/providers/add": { url: "/settings/providers/add" },
    "settings/providers/create/vault": { url: "/settings/providers/create/vault" },
    "settings/providers/create/aws-kms": { url: "/settings/providers/create/aws-kms" },
    "settings/providers/:id": { url: `/settings/providers/${i.keyProviderId}` },
    "settings/backups": { url: "/settings/backups" },
    "settings/backups/targets/create": { url: "/settings/backups/targets/create" },
    "settings/backups/targets/:id": { url: `/settings/backups/targets/${i.backupTargetId}` },
    "settings/backups/targets/:id/restore": { url: `/settings/backups/targets/${i.backupTargetId}/restore` },
    "settings/general": { url: "/settings/general" },
    "settings/audit-logs": { url: "/settings/audit-logs" },
    "settings/audit-logs/:id": { url: `/settings/audit-logs/${i.auditId}` },
    "views/audit-logs/:id": { url: `/views/audit-logs/${i.auditId}` },
    connect: { url: "/connect" },
    // A connection names a second console, which the tour does not start: the not-found state.
    "connect/:id": { url: "/connect/cl-tour-nowhere", state: "not-found" },
    "external-nodes": { url: "/external-nodes" },
    docs: { url: "/docs", wait: ".swagger-ui .info" },
    plugins: { url: "/plugins" },
    "plugins/new": { url: "/plugins/new" },
    "plugins/:name": { url: `/plugins/${i.plugin}` },
    "plugins/:name/edit": { url: `/plugins/${i.plugin}/edit` },
    "plugins/:name/deploy": { url: `/plugins/${i.plugin}/deploy` },
    users: { url: "/users" },
    "platform/analytics": { url: "/platform/analytics" },
    "platform/troubleshooting": { url: "/platform/troubleshooting" },
  };
}

/** The route paths, read from the file's text (not imported: it loads the pages). */
function routePaths(): string[] {
  return [...readFileSync(ROUTES_FILE, "utf8").matchAll(/\bpath: "([^"]+)"/g)].map((m) => m[1]!);
}

/** e.g. "nodes/:id" -> "nodes-id", the PNG's name. */
const shotName = (path: string): string => path.replace(/:/g, "").replace(/\//g, "-");

/**
 * Issue 33's screenshot tour: every route of the web app in light and dark, 1440 and 390 px wide,
 * into e2e/artifacts/tour/<look>/<route>.png, over real fixtures (a Fabric channel with its peer,
 * orderer, chaincode, config proposal and blocks). It is a test too: a route missing from the table
 * fails, and so does a screen with an uncaught error, the error boundary, an unexpected error or
 * not-found state, or no heading. One browser and one page load per route: the four looks are the
 * viewport and the emulated colour scheme (the app follows prefers-color-scheme live), switched in place.
 */
describe("screenshot tour", () => {
  let s: Session;
  let ids: Ids;
  /** What beforeAll made so far, for afterAll (a failed setup still cleans up). */
  const made: {
    chaincodeId?: number;
    projectId?: number;
    apiKeyId?: number;
    targetId?: number;
    providerId?: number;
    plugin?: string;
  } = {};
  const nodeIds: number[] = [];
  const ports: string[] = [];
  let fabricOrgId = 0;
  const admin = adminUser;
  const ok = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const r = await apiCall<T>(s.baseUrl, admin(), method, path, body);
    if (r.status < 200 || r.status > 299) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.data)}`);
    return r.data;
  };

  beforeAll(async () => {
    s = await openSession({ viewport: LOOKS[0].viewport, colorScheme: LOOKS[0].colorScheme });
    const catalog = await seedCatalog(s.baseUrl, admin());
    const fx = await createOneOrgChannel(s.baseUrl, admin(), {
      mspId: MSP,
      orgName: `tour-${SUFFIX}`,
      channel: CHANNEL,
      tag: `tour-${SUFFIX}`,
      ports,
    });
    fabricOrgId = fx.orgId;
    nodeIds.push(...fx.nodeIds);
    // A deployed chaincode: the playground lists its functions and the channel shows it committed.
    made.chaincodeId = await deployChaincodeViaApi(s.baseUrl, admin(), {
      name: CHAINCODE,
      networkId: fx.networkId,
      peerId: fx.peerId,
      mspId: MSP,
      source: SOURCE,
    });
    const defs = await ok<{ definitions: { id: number }[] }>(
      "GET",
      `/sc/fabric/chaincodes/${made.chaincodeId}/definitions`,
    );
    const project = await ok<{ id: number }>("POST", "/chaincode-projects", {
      name: `tour ${SUFFIX}`,
      networkId: fx.networkId,
      boilerplate: "chaincode-javascript",
    });
    made.projectId = project.id;
    const apiKey = await ok<{ api_key: { id: number } }>("POST", "/api-keys", {
      name: `tour-${SUFFIX}`,
      description: "CI tour",
    });
    made.apiKeyId = apiKey.api_key.id;
    // A LOCAL target must be inside the server's allowed roots; the refusal of "/" names them.
    const refused = await apiCall<{ message?: string; error?: string }>(
      s.baseUrl,
      admin(),
      "POST",
      "/backups/targets",
      {
        name: `tour-${SUFFIX}`,
        type: "LOCAL",
        bucketPath: "/",
      },
    );
    const root = /must be inside (\S+)/.exec(JSON.stringify(refused.data))?.[1];
    if (!root) throw new Error(`no LOCAL root in ${JSON.stringify(refused.data)}`);
    const target = await ok<{ id: number }>("POST", "/backups/targets", {
      name: `tour-${SUFFIX}`,
      type: "LOCAL",
      bucketPath: `${root}/tour-${SUFFIX}`,
    });
    made.targetId = target.id;
    const provider = await ok<{ id: number }>("POST", "/notifications/providers", {
      name: `tour-${SUFFIX}`,
      type: "SMTP",
      config: { host: "127.0.0.1", port: 2525, from_email: "console@example.com", to_email: "ops@example.com" },
      notifyNodeDowntime: true,
    });
    made.providerId = provider.id;
    const proposal = await ok<{ id: string }>("POST", "/pro/networks/proposals", {
      network_id: fx.networkId,
      proposal_type: "update_batch_size",
      operations: [{ type: "update_batch_size", payload: { max_message_count: 20 } }],
    });
    const audit = await ok<{ items: { id: string | number }[] }>("GET", "/audit/logs?page_size=1");
    const [firstTemplate] = await ok<{ id: number }[]>("GET", "/templates");
    if (!firstTemplate) throw new Error("no built-in template");
    // A plugin installed from the built-in catalogue, as its Install button does (not deployed).
    const available = await ok<{ plugins: { name: string; raw_yaml: string }[] }>("GET", "/plugins/available");
    const entry = available.plugins[0];
    if (!entry) throw new Error("the plugin catalogue is empty");
    const { username, password } = admin();
    const installed = await fetch(`${s.baseUrl}/api/v1/plugins`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`,
        "content-type": "application/yaml",
      },
      body: entry.raw_yaml,
    });
    if (installed.status !== 201)
      throw new Error(`installing ${entry.name}: ${installed.status} ${await installed.text()}`);
    made.plugin = entry.name;
    ids = {
      orgId: catalog.orgId,
      caKeyId: catalog.caKeyId,
      besuId: catalog.besuId,
      keyProviderId: catalog.providerId,
      networkId: fx.networkId,
      peerId: fx.peerId,
      chaincodeId: made.chaincodeId,
      definitionId: defs.definitions[0]!.id,
      projectId: project.id,
      apiKeyId: apiKey.api_key.id,
      backupTargetId: target.id,
      notificationProviderId: provider.id,
      proposalId: proposal.id,
      auditId: String(audit.items[0]!.id),
      templateId: firstTemplate.id,
      plugin: entry.name,
    };
  }, 300_000);

  afterAll(async () => {
    const del = (path: string, id?: number) => (id ? apiCall(s.baseUrl, admin(), "DELETE", `${path}/${id}`) : null);
    await del("/sc/fabric/chaincodes", made.chaincodeId);
    await del("/chaincode-projects", made.projectId);
    await del("/api-keys", made.apiKeyId);
    await del("/backups/targets", made.targetId);
    await del("/notifications/providers", made.providerId);
    if (made.plugin) await apiCall(s.baseUrl, admin(), "DELETE", `/plugins/${made.plugin}`);
    const survivors = await removeFabricFixtures(s.baseUrl, admin(), {
      channels: [CHANNEL],
      orgId: fabricOrgId,
      nodeIds,
      ports,
    });
    await s?.close();
    expect(survivors).toEqual([]);
  }, 120_000);

  it("every route has a stop on the tour", () => {
    const stops = table(ids);
    const paths = routePaths();
    expect(paths.length).toBeGreaterThan(50);
    expect(
      paths.filter((p) => !(p in stops)),
      "routes missing from the tour's table",
    ).toEqual([]);
    expect(
      Object.keys(stops).filter((p) => !paths.includes(p)),
      "tour stops that are no route",
    ).toEqual([]);
  });

  it("every route renders, in light and dark, 1440 and 390 px wide", { timeout: 600_000 }, async () => {
    const page = s.page;
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const problems: string[] = [];
    await openAs(s, admin());
    for (const path of routePaths()) {
      const stop = table(ids)[path];
      if (!stop) continue; // named by the test above
      errors.length = 0;
      await page.setViewportSize(LOOKS[0].viewport);
      await page.emulateMedia({ colorScheme: LOOKS[0].colorScheme });
      await page.goto(stop.url);
      try {
        const wait = { timeout: 15_000 };
        if (stop.state) await page.locator(`[role="alert"][data-state="${stop.state}"]`).first().waitFor(wait);
        else await page.locator("h1").first().waitFor(wait);
        if (stop.wait) await page.locator(stop.wait).first().waitFor(wait);
        await settled(page);
      } catch (e) {
        problems.push(`${path} (${stop.url}): ${(e as Error).message.split("\n")[0]}`);
      }
      const boundary = await page.getByText("This page could not be loaded").count();
      if (boundary) problems.push(`${path}: the error boundary`);
      const states = await page
        .locator('[role="alert"][data-state]')
        .evaluateAll((els) =>
          els.map((el) => `${el.getAttribute("data-state")}: ${el.textContent?.trim().slice(0, 120)}`),
        );
      const unexpected = states.filter((st) => !stop.state || !st.startsWith(`${stop.state}:`));
      if (unexpected.length) problems.push(`${path}: ${unexpected.join("; ")}`);
      for (const look of LOOKS) {
        await page.setViewportSize(look.viewport);
        await page.emulateMedia({ colorScheme: look.colorScheme });
        await page.evaluate(() => window.scrollTo(0, 0));
        if (!stop.state && !(await page.locator("h1").first().isVisible()))
          problems.push(`${path}: no visible heading at ${look.dir}`);
        await screenshot(page, shotName(path), { dir: look.dir });
      }
      if (errors.length) problems.push(`${path}: uncaught ${errors.join("; ")}`);
    }
    expect(problems).toEqual([]);
  });

  it("names an audit entry's resource instead of showing its id", async () => {
    const page = s.page;
    const logs = await apiCall<{ items: { id: number | string; affectedResource: string | null }[] }>(
      s.baseUrl,
      admin(),
      "GET",
      "/audit/logs?page_size=100",
    );
    const entry = logs.data.items.find((e) => e.affectedResource === `network:${ids.networkId}`);
    expect(entry, "an audit entry about the tour's channel").toBeDefined();
    await page.setViewportSize(LOOKS[0].viewport);
    await page.goto(`/settings/audit-logs/${entry!.id}`);
    const name = page.getByTestId("audit-resource-name");
    await name.waitFor();
    expect(await name.textContent()).toBe(CHANNEL);
    expect(await name.getAttribute("href")).toBe(`/networks/${ids.networkId}/fabric`);
  });
});
