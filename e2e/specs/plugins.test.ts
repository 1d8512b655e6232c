import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { createOneOrgChannel, deployChaincodeViaApi, removeFabricFixtures } from "../support/fabric.js";
import { freePort } from "../support/server.js";

const SUFFIX = Date.now().toString(36);
const MSP = `PlE2e${SUFFIX}MSP`;
const CHANNEL = `pl-${SUFFIX}`;
const CHAINCODE = `plasset-${SUFFIX}`;
const PLUGIN = "fabric-rest-gateway";
/** Its row, not fabric-rest-gateway-compose's. */
const ROW = new RegExp(`${PLUGIN}(?!-)`);
/** The Node.js test chaincode, copied by the console from this host path. */
const SOURCE = resolve(
  import.meta.dirname,
  "..",
  "..",
  "server",
  "src",
  "fabric",
  "test-support",
  "chaincode",
  "asset-node",
);

type Property = { title?: string; type?: string; "x-source"?: string };
type PluginDoc = { spec: { parameters: { properties?: Record<string, Property> } } };

/** A call to the deployed REST gateway, from the test (not the browser). */
async function gateway(port: number, path: string, body: object): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: res.status, body: text };
  }
}

/** Whether anything answers on the port (the gateway's /healthz). */
async function listening(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Issue 15 in the browser: on a one-org channel whose chaincode the console deployed, an operator
 * installs the built-in REST gateway from the Available list, fills its generated deploy form with
 * the pickers (peer, the org's admin key, the channel) and a port, and sees it running with its
 * service; the test then invokes and queries the chaincode over HTTP through the gateway. Stop
 * closes the port, Resume brings it back with the same values, and Delete removes it.
 */
describe("plugins", () => {
  let s: Session;
  let orgId = 0;
  let networkId = 0;
  let peerId = 0;
  let port = 0;
  const nodeIds: number[] = [];
  const ports: string[] = [];
  const admin = adminUser;

  beforeAll(async () => {
    s = await openSession();
    const fx = await createOneOrgChannel(s.baseUrl, admin(), {
      mspId: MSP,
      orgName: `pl-e2e-${SUFFIX}`,
      channel: CHANNEL,
      tag: `pl-${SUFFIX}`,
      ports,
    });
    orgId = fx.orgId;
    networkId = fx.networkId;
    peerId = fx.peerId;
    nodeIds.push(...fx.nodeIds);
    await deployChaincodeViaApi(s.baseUrl, admin(), {
      name: CHAINCODE,
      networkId,
      peerId,
      mspId: MSP,
      source: SOURCE,
    });
    port = await freePort();
  }, 420_000);

  afterAll(async () => {
    // Whatever the test left: the plugin (stopped first by the server), the chaincode, the nodes.
    await apiCall(s.baseUrl, admin(), "DELETE", `/plugins/${PLUGIN}`);
    const list = await apiCall<{ chaincodes: { id: number; name: string }[] }>(
      s.baseUrl,
      admin(),
      "GET",
      "/sc/fabric/chaincodes",
    );
    for (const c of list.data.chaincodes.filter((x) => x.name === CHAINCODE)) {
      await apiCall(s.baseUrl, admin(), "DELETE", `/sc/fabric/chaincodes/${c.id}`);
    }
    const survivors = await removeFabricFixtures(s.baseUrl, admin(), { channels: [CHANNEL], orgId, nodeIds, ports });
    await s.close();
    expect(survivors).toEqual([]);
    expect(port === 0 || !(await listening(port))).toBe(true);
  }, 120_000);

  it(
    "installs the REST gateway, deploys it with the pickers, calls chaincode through it, stops and resumes it",
    {
      timeout: 300_000,
    },
    async () => {
      const page = s.page;
      await openAs(s, admin(), "/plugins");
      await page.getByRole("heading", { name: "Plugins", exact: true }).waitFor();

      // Install from the Available list (the built-in catalogue).
      const available = page.getByRole("table", { name: "Available plugins" });
      await available.getByRole("row", { name: ROW }).waitFor();
      await screenshot(page, "plugins-available");
      await available.getByRole("button", { name: `Install ${PLUGIN}`, exact: true }).click();
      await page.getByText("Plugin installed").waitFor();
      const installed = page.getByRole("table", { name: "Installed plugins" });
      await installed.getByRole("link", { name: PLUGIN, exact: true }).waitFor();
      await available.getByRole("row", { name: ROW }).getByRole("button", { name: "Installed" }).waitFor();

      // The deploy form is generated from spec.parameters: find each picker by its property's title.
      const doc = await apiCall<PluginDoc>(s.baseUrl, admin(), "GET", `/plugins/${PLUGIN}`);
      expect(doc.status).toBe(200);
      const props = Object.entries(doc.data.spec.parameters.properties ?? {});
      const labelOf = (pick: (p: Property, name: string) => boolean): string => {
        const found = props.find(([name, p]) => pick(p, name));
        if (!found) throw new Error(`no such parameter in ${JSON.stringify(props.map(([n]) => n))}`);
        return found[1].title ?? found[0];
      };
      const org = await apiCall<{ adminSignKeyId: number | null }>(
        s.baseUrl,
        admin(),
        "GET",
        `/organizations/${orgId}`,
      );
      const adminKeyId = org.data.adminSignKeyId;
      expect(adminKeyId).toBeTruthy();

      await installed.getByRole("link", { name: `Deploy ${PLUGIN}`, exact: true }).click();
      await page.waitForURL(`**/plugins/${PLUGIN}/deploy`);
      await page.getByRole("heading", { name: `Deploy ${PLUGIN}`, exact: true }).waitFor();
      // Required fields are checked before anything is sent.
      await page.getByRole("button", { name: "Deploy", exact: true }).click();
      await page.getByText(`${labelOf((p) => p["x-source"] === "fabric-peer")} is required`).waitFor();

      await page
        .getByLabel(
          labelOf((p) => p["x-source"] === "fabric-peer"),
          { exact: true },
        )
        .selectOption(String(peerId));
      // fabric-key values are {keyId, orgId}; the picker keys them by their JSON with sorted keys.
      await page
        .getByLabel(
          labelOf((p) => p["x-source"] === "fabric-key"),
          { exact: true },
        )
        .selectOption(JSON.stringify({ keyId: adminKeyId, orgId }));
      await page
        .getByLabel(
          labelOf((p) => p["x-source"] === "fabric-network"),
          { exact: true },
        )
        .selectOption(String(networkId));
      await page
        .getByLabel(
          labelOf((_p, name) => name === "port"),
          { exact: true },
        )
        .fill(String(port));
      await screenshot(page, "plugins-deploy-form");
      await page.getByRole("button", { name: "Deploy", exact: true }).click();

      // The plugin's page: running, with its gateway service.
      await page.waitForURL(`**/plugins/${PLUGIN}`, { timeout: 120_000 });
      await page.locator('[data-testid="plugin-status"][data-status="running"]').waitFor({ timeout: 120_000 });
      // The README is rendered Markdown: headings and code, not "# …" and backticks.
      const readme = page.getByTestId("plugin-readme");
      await readme.getByRole("heading", { name: "Fabric REST gateway" }).waitFor();
      expect(await readme.locator("code").count()).toBeGreaterThan(0);
      expect(await readme.textContent()).not.toContain("## ");
      await page.getByRole("tab", { name: "Services" }).click();
      const service = page.getByTestId("service-gateway");
      await service.locator('[data-testid="service-state"][data-status="running"]').waitFor({ timeout: 30_000 });
      await service.getByText(String(port)).waitFor();
      await screenshot(page, "plugins-running");

      // Through the gateway: a transaction, then a query reads the value back.
      const asset = `pl-${SUFFIX}`;
      const wrote = await gateway(port, "/invoke", {
        chaincode: CHAINCODE,
        function: "CreateAsset",
        args: [asset, "amber"],
      });
      expect(wrote.status, JSON.stringify(wrote.body)).toBe(200);
      expect((wrote.body as { transactionId: string }).transactionId).toMatch(/^[0-9a-f]{64}$/);
      const read = await gateway(port, "/query", { chaincode: CHAINCODE, function: "ReadAsset", args: [asset] });
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      expect((read.body as { result: unknown }).result).toEqual({ id: asset, value: "amber", version: "1" });

      // Its log and deployment are on the page too.
      await page.getByRole("tab", { name: "Logs" }).click();
      await page
        .getByTestId("plugin-logs")
        .getByText(new RegExp(`${port}`))
        .first()
        .waitFor({ timeout: 30_000 });
      await page.getByRole("tab", { name: "Deployment" }).click();
      await page.getByTestId("deployment-parameters").getByText(`"port": ${port}`).waitFor();

      // Stop: the status says so and the port closes.
      await page.getByRole("button", { name: "Stop", exact: true }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Stop", exact: true }).click();
      await page.locator('[data-testid="plugin-status"][data-status="stopped"]').waitFor({ timeout: 60_000 });
      await until("the gateway's port to close", async () => !(await listening(port)));
      await screenshot(page, "plugins-stopped");

      // Resume: the same values, running again, the value still there.
      await page.getByRole("button", { name: "Resume", exact: true }).click();
      await page.locator('[data-testid="plugin-status"][data-status="running"]').waitFor({ timeout: 120_000 });
      await until("the gateway to answer again", () => listening(port), 60_000);
      const again = await gateway(port, "/query", { chaincode: CHAINCODE, function: "ReadAsset", args: [asset] });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect((again.body as { result: { value: string } }).result.value).toBe("amber");

      // Delete (after the confirmation): back to the list, nothing left listening.
      await page.getByRole("button", { name: "Delete", exact: true }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Delete plugin" }).click();
      await page.waitForURL("**/plugins");
      await page.getByText("No plugins installed").waitFor();
      await until("the gateway's port to close after the delete", async () => !(await listening(port)));
    },
  );
});
