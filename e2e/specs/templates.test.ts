import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, screenshot, settled, type Session } from "../support/browser.js";
import { waitNodeStatus } from "../support/fabric.js";
import { USERS } from "../support/users.js";

const SUFFIX = Date.now().toString(36);
const MSP = `TplE2e${SUFFIX}MSP`;
const TEMPLATE = `e2e peer template ${SUFFIX}`;
const PEER = `tpl-peer-${SUFFIX}`;

type Template = { id: number; name: string; is_default: boolean; platform: string; node_type: string };

/**
 * Issue 32: the Templates screens. A manager writes a peer template in the form, finds it by search
 * and platform, uses it with variables (a bad value is named, then a real peer is created from the
 * result and runs), exports it as a file and imports that file, and makes the copy the default. A
 * viewer sees the templates without a control that changes them, and the API refuses them too.
 */
describe("templates", () => {
  let s: Session;
  let orgId = 0;
  let builtinDefault = 0;
  const admin = () => adminUser();
  const mine = async (): Promise<Template[]> =>
    (await apiCall<Template[]>(s.baseUrl, admin(), "GET", `/templates/search?query=${encodeURIComponent(SUFFIX)}`))
      .data;

  beforeAll(async () => {
    s = await openSession();
    const r = await apiCall<{ id: number }>(s.baseUrl, admin(), "POST", "/organizations", {
      mspId: MSP,
      name: `templates-e2e-${SUFFIX}`,
    });
    expect(r.status).toBe(201);
    orgId = r.data.id;
    const d = await apiCall<Template>(s.baseUrl, admin(), "GET", "/templates/platforms/FABRIC/peer/default");
    builtinDefault = d.status === 200 ? d.data.id : 0;
  });

  afterAll(async () => {
    if (!s) return;
    const left = await apiCall<{ items?: { id: number }[] }>(
      s.baseUrl,
      admin(),
      "GET",
      `/nodes?limit=1000&organizationId=${orgId}`,
    );
    for (const n of left.data.items ?? []) await apiCall(s.baseUrl, admin(), "DELETE", `/nodes/${n.id}`);
    for (const t of await mine()) await apiCall(s.baseUrl, admin(), "DELETE", `/templates/${t.id}`);
    // The shared server's default peer template is the built-in one again.
    if (builtinDefault) await apiCall(s.baseUrl, admin(), "POST", `/templates/${builtinDefault}/set-default`);
    await s.close();
  });

  it("creates a template from the form", async () => {
    const page = s.page;
    await openAs(s, USERS.manager, "/templates");
    await page.getByRole("heading", { name: "Templates", exact: true }).waitFor();
    await page.getByRole("link", { name: "New template" }).click();
    await page.getByRole("heading", { name: "New template" }).waitFor();
    await page.getByLabel("Name", { exact: true }).fill(TEMPLATE);
    await page.getByLabel("Description").fill("A peer for the templates browser test");
    await page.getByLabel("Tags").fill("e2e, peer");
    await page.getByLabel(/^Configuration/).fill(
      JSON.stringify({
        name: "{{name}}",
        blockchainPlatform: "FABRIC",
        fabricPeer: {
          organizationId: "{{organization_id}}",
          mspId: "{{msp_id}}",
          env: { FABRIC_LOGGING_SPEC: "{{log}}" },
        },
      }),
    );
    await page.getByLabel(/^Variables/).fill(
      JSON.stringify([
        {
          name: "name",
          type: "string",
          required: true,
          description: "Node name",
          validation: { pattern: "^[a-z0-9-]+$" },
        },
        { name: "organization_id", type: "number", required: true, validation: { min: 1 } },
        { name: "msp_id", type: "string", required: true },
        { name: "log", type: "string", default: "INFO", validation: { enum: ["INFO", "DEBUG"] } },
      ]),
    );
    await page.getByRole("button", { name: "Create template" }).click();
    await page.getByRole("heading", { name: TEMPLATE }).waitFor();
    await page.getByText("Template created").waitFor();
    const [t] = await mine();
    expect(t).toMatchObject({ name: TEMPLATE, platform: "FABRIC", node_type: "peer", is_default: false });
  });

  it("finds it by search and platform", async () => {
    const page = s.page;
    await page.goto("/templates");
    const table = page.getByRole("table", { name: "Templates" });
    await table.getByRole("link", { name: "Fabric peer", exact: true }).waitFor();
    await page.getByLabel("Search templates").fill(SUFFIX);
    await table.getByRole("link", { name: TEMPLATE }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Templates"] tbody tr').length === 1);
    await page.getByRole("combobox", { name: "Platform" }).click();
    await page.getByRole("option", { name: "BESU" }).click();
    await page.getByText("No template matches.").waitFor();
    await page.getByRole("combobox", { name: "Platform" }).click();
    await page.getByRole("option", { name: "FABRIC" }).click();
    await table.getByRole("link", { name: TEMPLATE }).waitFor();
    await screenshot(page, "templates-search");
  });

  it("uses it with variables: a bad value is named, then a real peer is created and runs", async () => {
    const page = s.page;
    await page.getByRole("link", { name: TEMPLATE }).click();
    await page.getByRole("heading", { name: TEMPLATE }).waitFor();
    await page.getByRole("button", { name: "Use template" }).click();
    const dialog = page.getByRole("dialog", { name: `Use ${TEMPLATE}` });
    await dialog.getByLabel("name *").fill("Bad Name");
    await dialog.getByLabel("organization_id *").fill(String(orgId));
    await dialog.getByLabel("msp_id *").fill(MSP);
    await dialog.getByRole("button", { name: "Generate configuration" }).click();
    await dialog.getByText("variables.name: must match ^[a-z0-9-]+$").waitFor();
    await dialog.getByLabel("name *").fill(PEER);
    await dialog.getByRole("combobox", { name: "log" }).click();
    await page.getByRole("option", { name: "DEBUG" }).click();
    await dialog.getByRole("button", { name: "Generate configuration" }).click();
    const generated = dialog.getByLabel("Generated configuration");
    await generated.waitFor();
    expect(JSON.parse(await generated.inputValue())).toEqual({
      name: PEER,
      blockchainPlatform: "FABRIC",
      fabricPeer: { organizationId: orgId, mspId: MSP, env: { FABRIC_LOGGING_SPEC: "DEBUG" } },
    });
    await screenshot(page, "templates-use");
    await dialog.getByRole("button", { name: "Create node" }).click();
    await page.waitForURL(/\/nodes\/\d+$/);
    const nodeId = Number(/\/nodes\/(\d+)$/.exec(page.url())?.[1]);
    const node = await waitNodeStatus(s.baseUrl, admin(), nodeId);
    expect(node).toMatchObject({ name: PEER, status: "RUNNING", nodeType: "FABRIC_PEER" });
    const [t] = await mine();
    expect(
      (await apiCall<{ usage_count: number }>(s.baseUrl, admin(), "GET", `/templates/${t!.id}`)).data.usage_count,
    ).toBe(1);
  });

  it("exports it as a file, imports the file and makes the copy the default", async () => {
    const page = s.page;
    const [t] = await mine();
    await page.goto(`/templates/${t!.id}`);
    await page.getByRole("heading", { name: TEMPLATE }).waitFor();
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export" }).click();
    const file = await (await download).path();
    const doc = JSON.parse(await readFile(file, "utf8")) as { export_version: string; template: Template };
    expect(doc.export_version).toBe("1.0");
    expect(doc.template.name).toBe(TEMPLATE);

    await page.goto("/templates");
    await page.getByRole("heading", { name: "Templates", exact: true }).waitFor();
    await page.locator('input[type="file"]').setInputFiles(file);
    await page.getByText("Template imported").waitFor();
    await page.waitForURL((u) => /\/templates\/\d+$/.test(u.pathname) && !u.pathname.endsWith(`/${t!.id}`));
    const copyId = Number(/\/templates\/(\d+)$/.exec(page.url())?.[1]);
    expect((await mine()).map((x) => x.id).sort()).toEqual([t!.id, copyId].sort());

    await page.getByRole("button", { name: "Set as default" }).click();
    await page.getByText("Default template set").waitFor();
    await page.getByText("Default", { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Set as default" }).isDisabled()).toBe(true);
    const d = await apiCall<Template>(s.baseUrl, admin(), "GET", "/templates/platforms/FABRIC/peer/default");
    expect(d.data.id).toBe(copyId);
  });

  it("shows a viewer the templates without a control that changes them; the API refuses them", async () => {
    const page = s.page;
    const [t] = await mine();
    await openAs(s, USERS.viewer, "/templates");
    await page
      .getByRole("table", { name: "Templates" })
      .getByRole("link", { name: "Fabric peer", exact: true })
      .waitFor();
    await settled(page);
    expect(await page.getByRole("link", { name: "New template" }).count()).toBe(0);
    expect(await page.locator('input[type="file"]').count()).toBe(0);
    await page.goto(`/templates/${t!.id}`);
    await page.getByRole("heading", { name: TEMPLATE }).waitFor();
    await page.getByRole("button", { name: "Export" }).waitFor();
    await settled(page);
    for (const name of ["Use template", "Set as default", "Delete", "Save changes"]) {
      expect(await page.getByRole("button", { name }).count(), name).toBe(0);
    }
    expect(await page.getByLabel("Name", { exact: true }).isDisabled()).toBe(true);
    const calls: [string, string, unknown][] = [
      ["POST", "/templates", { name: "x", platform: "FABRIC", node_type: "peer", version: "1", config: {} }],
      ["POST", `/templates/${t!.id}/apply`, { variables: {} }],
      ["POST", `/templates/${t!.id}/set-default`, undefined],
      ["PUT", `/templates/${t!.id}`, { name: "x", version: "1", config: {} }],
      ["DELETE", `/templates/${t!.id}`, undefined],
    ];
    for (const [method, path, body] of calls) {
      const r = await apiCall(s.baseUrl, USERS.viewer, method as "POST", path, body);
      expect(r.status, `${method} ${path}`).toBe(403);
    }
  });
});
