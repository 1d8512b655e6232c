import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { removeProjectsNamed } from "../support/projects.js";
import { adminUser, openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { createOneOrgChannel, removeFabricFixtures } from "../support/fabric.js";

const SUFFIX = Date.now().toString(36);
const MSP = `PjE2e${SUFFIX}MSP`;
const CHANNEL = `pj-${SUFFIX}`;
const PROJECT = `assets ${SUFFIX}`;

/** Finds `text` in the open Monaco editor (Ctrl+F selects it) and types `replacement` over it. */
async function replaceInEditor(page: Page, text: string, replacement: string): Promise<void> {
  await page.locator(".monaco-editor .view-lines").first().click();
  await page.keyboard.press("Control+Home");
  await page.keyboard.press("Control+F");
  await page.keyboard.type(text);
  await page.keyboard.press("Escape");
  await page.keyboard.type(replacement);
  await page.keyboard.press("Control+S");
  await page.getByText("Saved src/assetTransfer.ts").last().waitFor();
}

/** Clicks Run and waits for the start's outcome toast; fails at once with the server's words on an error. */
async function run(page: Page, expected: RegExp): Promise<string> {
  await page.getByRole("button", { name: "Run" }).click();
  // The toast this start ends with, or any error toast (earlier toasts may still be on screen).
  const outcome = page
    .locator("[data-sonner-toast]")
    .filter({ hasText: expected })
    .or(page.locator('[data-sonner-toast][data-type="error"]').filter({ hasNotText: expected }))
    .last();
  await outcome.waitFor({ timeout: 240_000 }).catch(async (err: unknown) => {
    // Say what the server saw: the project's state and the end of its run log.
    await screenshot(page, "chaincode-project-no-outcome");
    const id = /chaincodes\/(\d+)/.exec(page.url())?.[1];
    const state = await page.request.get(`/api/v1/chaincode-projects/${id}`).then((r) => r.text());
    const log = await page.request.get(`/api/v1/chaincode-projects/${id}/logs?tail=40`).then((r) => r.text());
    throw new Error(`no outcome after Run: ${String(err)}\nproject: ${state}\nlog:\n${log}`);
  });
  const text = await outcome.innerText();
  expect(text).toMatch(expected);
  return text;
}

/** Calls a function on the editor's side panel (Submit for an invoke, Evaluate for a query) and returns what it answered. */
async function callOnPanel(
  page: Page,
  fn: string,
  args: Record<string, string>,
  kind: "Submit" | "Evaluate",
): Promise<string> {
  await page.getByLabel("Function").selectOption(fn);
  const form = page.getByTestId(`fn-${fn}`);
  for (const [name, value] of Object.entries(args)) await form.locator(`#${fn}-${name}`).fill(value);
  await form.getByRole("button", { name: kind }).click();
  const result = form.getByTestId("call-result");
  await result.waitFor({ timeout: 60_000 });
  return result.innerText();
}

/**
 * Issue 12: a developer creates a TypeScript project from the boilerplate on a real 1-org channel,
 * edits a function in the editor, runs it, invokes it on the side panel and sees the change; edits
 * again and sees the second change with sequence 2 committed; a compile error shows its file and
 * line while the previous version keeps answering.
 */
describe("chaincode workbench", () => {
  let s: Session;
  let orgId = 0;
  const nodeIds: number[] = [];
  const ports: string[] = [];
  const admin = adminUser;

  beforeAll(async () => {
    s = await openSession();
    const fx = await createOneOrgChannel(s.baseUrl, admin(), {
      mspId: MSP,
      orgName: `pj-e2e-${SUFFIX}`,
      channel: CHANNEL,
      tag: `pj-${SUFFIX}`,
      ports,
    });
    orgId = fx.orgId;
    nodeIds.push(...fx.nodeIds);
  }, 240_000);

  afterAll(async () => {
    await removeProjectsNamed(s.baseUrl, admin(), PROJECT);
    const survivors = await removeFabricFixtures(s.baseUrl, admin(), { channels: [CHANNEL], orgId, nodeIds, ports });
    await s.close();
    expect(survivors).toEqual([]);
  }, 120_000);

  it("edits, runs and invokes a TypeScript project, twice, and shows a build error", { timeout: 600_000 }, async () => {
    const page = s.page;
    await openAs(s, admin(), "/smart-contracts/fabric");
    await page.getByRole("heading", { name: "Fabric Chaincodes" }).waitFor();
    await page.getByRole("button", { name: "Create project" }).first().click();
    await page.getByLabel("Name").fill(PROJECT);
    // Every language is offered before a network is picked (it showed TypeScript alone).
    await expect
      .poll(async () => (await page.getByLabel("Boilerplate").locator("option").allTextContents()).length)
      .toBe(3);
    await page.getByLabel("Network").selectOption({ label: CHANNEL });
    await page.getByLabel("Boilerplate").selectOption("chaincode-typescript");
    await page.getByLabel("Endorsement policy (optional)").fill(`OR('${MSP}.member')`);
    await page.getByRole("button", { name: "Create project" }).last().click();
    await page.waitForURL(/\/sc\/fabric\/projects\/chaincodes\/\d+\/editor$/);
    const projectId = Number(/chaincodes\/(\d+)\/editor/.exec(page.url())![1]);
    await expect.poll(() => page.getByTestId("open-file").innerText()).toBe("src/assetTransfer.ts");
    await page.locator(".monaco-editor").first().waitFor();
    // TypeScript is highlighted (Monaco's tokens, bundled; no CDN).
    await page.locator(".monaco-editor .mtk1").first().waitFor();
    await page.getByRole("navigation", { name: "Project files" }).getByText("package.json").waitFor();

    // First edit: TransferAsset answers the previous owner twice.
    await replaceInEditor(page, "return previous;", "return previous + previous;");
    await run(page, /Running: sequence 1 committed/);
    await expect.poll(() => page.getByTestId("run-output").innerText(), { timeout: 30_000 }).toMatch(/commit done/);
    const created = await callOnPanel(
      page,
      "CreateAsset",
      { id: "asset1", color: "blue", size: "5", owner: "Tom", appraisedValue: "300" },
      "Submit",
    );
    expect(created).toMatch(/Committed in \d+ ms/);
    const first = await callOnPanel(page, "TransferAsset", { id: "asset1", newOwner: "Ana" }, "Submit");
    expect(first).toMatch(/Committed in \d+ ms/);
    expect(first).toContain("TomTom");
    await screenshot(page, "chaincode-project-editor");

    // Second edit: sequence 2 goes live without touching the network by hand (state kept: Ana owns it).
    await replaceInEditor(page, "previous + previous", "previous + newOwner");
    await run(page, /Running: sequence 2 committed/);
    // A run starts the side panel's forms afresh: nothing from the old code is on screen.
    expect(await page.getByTestId("call-result").count()).toBe(0);
    const second = await callOnPanel(page, "TransferAsset", { id: "asset1", newOwner: "Bob" }, "Submit");
    expect(second).toContain("AnaBob");
    const seq = await apiCall<{ commits: { message: string }[] }>(
      s.baseUrl,
      admin(),
      "GET",
      `/chaincode-projects/${projectId}/commits`,
    );
    expect(seq.data.commits[0]!.message).toMatch(/^Start: sequence 2/);

    // A compile error: listed with its file and line; the committed code (sequence 2) still answers.
    await replaceInEditor(page, "return previous + newOwner;", "return 42;");
    await run(page, /Build failed: 1 error/);
    const errors = page.getByRole("list", { name: "Build errors" });
    await errors.waitFor({ timeout: 240_000 });
    expect(await errors.innerText()).toMatch(/src\/assetTransfer\.ts:\d+:\d+: error TS2322/);
    const form = page.getByTestId("fn-TransferAsset");
    await form.locator("#TransferAsset-newOwner").fill("Cy");
    await form.getByRole("button", { name: "Submit" }).click();
    await expect.poll(() => form.getByTestId("call-result").innerText(), { timeout: 60_000 }).toContain("BobCy");
    await screenshot(page, "chaincode-project-build-error");

    // The overview shows the history of the two starts.
    await page.getByRole("link", { name: PROJECT }).click();
    await page.waitForURL(/\/sc\/fabric\/projects\/chaincodes\/\d+$/);
    await expect.poll(() => page.getByTestId("project-commit").count()).toBe(3);
    await page.getByText("Last run failed").waitFor();
    // A commit opens to its per-file diff.
    await page.getByTestId("project-commit").first().getByRole("button").first().click();
    await expect
      .poll(() => page.getByTestId("project-commit").first().innerText())
      .toContain("+    return previous + newOwner;");
    await screenshot(page, "chaincode-project-overview");
  });
});
