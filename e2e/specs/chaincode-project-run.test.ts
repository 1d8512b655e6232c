import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { removeProjectsNamed } from "../support/projects.js";
import { adminUser, openAs, openSession, screenshot, toastsClosed, type Session } from "../support/browser.js";
import { createOneOrgChannel, removeFabricFixtures } from "../support/fabric.js";

const SUFFIX = Date.now().toString(36);
const MSP = `PrE2e${SUFFIX}MSP`;
const CHANNEL = `pr-${SUFFIX}`;
const PROJECT = `broken ${SUFFIX}`;
const FILE = "lib/assetTransfer.js";

/** Finds `text` in the open Monaco editor (Ctrl+F selects it), types `replacement` over it and saves. */
async function replaceInEditor(page: Page, text: string, replacement: string): Promise<void> {
  await page.locator(".monaco-editor .view-lines").first().click();
  await page.keyboard.press("Control+Home");
  await page.keyboard.press("Control+F");
  await page.keyboard.type(text);
  await page.keyboard.press("Escape");
  await page.keyboard.type(replacement);
  await page.keyboard.press("Control+S");
  await page.getByText(`Saved ${FILE}`).last().waitFor();
}

/** Clicks Run, waits for the start to end (the button is back) and returns its outcome toast. */
async function runOutcome(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await page
    .getByRole("button", { name: "Running…" })
    .waitFor({ timeout: 10_000 })
    .catch(() => undefined);
  await page.getByRole("button", { name: "Run", exact: true }).waitFor({ timeout: 300_000 });
  const outcome = page
    .locator("[data-sonner-toast]")
    .filter({ hasText: /Running: sequence \d+ committed/ })
    .or(page.locator('[data-sonner-toast][data-type="error"]'))
    .last();
  await outcome.waitFor({ timeout: 10_000 });
  const text = await outcome.innerText();
  // Out of the way of the side panel, with every toast closed.
  await toastsClosed(page);
  return text;
}

/** Evaluates ReadAsset on the editor's side panel and returns what it answered. */
async function readAsset(page: Page, id: string): Promise<string> {
  await page.getByLabel("Function").selectOption("ReadAsset");
  const form = page.getByTestId("fn-ReadAsset");
  // By position: a JavaScript contract's metadata may not name its parameters.
  await form.locator("input[id^='ReadAsset-']").first().fill(id);
  await form.getByRole("button", { name: "Evaluate" }).click();
  const result = form.getByTestId("call-result");
  await expect.poll(() => result.innerText(), { timeout: 60_000 }).toContain(id);
  return result.innerText();
}

/**
 * Issue 33 item 1: a JavaScript project whose new code does not load (a syntax error: JavaScript has no
 * compile step to catch it) or loads and then hangs is never committed. The Run fails with the reason
 * on the page, the badge never says the broken code runs, and sequence 1 still answers a query from
 * the page. Item 2: the badge follows the start live (building, without a reload).
 */
describe("chaincode project run check", () => {
  let s: Session;
  let orgId = 0;
  const nodeIds: number[] = [];
  const ports: string[] = [];
  const admin = adminUser;

  beforeAll(async () => {
    s = await openSession();
    const fx = await createOneOrgChannel(s.baseUrl, admin(), {
      mspId: MSP,
      orgName: `pr-e2e-${SUFFIX}`,
      channel: CHANNEL,
      tag: `pr-${SUFFIX}`,
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

  it(
    "a JS Run whose new server does not load, or hangs, is refused while sequence 1 keeps answering",
    { timeout: 900_000 },
    async () => {
      const page = s.page;
      await openAs(s, admin(), "/smart-contracts/fabric");
      await page.getByRole("heading", { name: "Fabric Chaincodes" }).waitFor();
      await page.getByRole("button", { name: "Create project" }).first().click();
      await page.getByLabel("Name").fill(PROJECT);
      await page.getByLabel("Network").selectOption({ label: CHANNEL });
      await page.getByLabel("Boilerplate").selectOption("chaincode-javascript");
      await page.getByLabel("Endorsement policy (optional)").fill(`OR('${MSP}.member')`);
      await page.getByRole("button", { name: "Create project" }).last().click();
      await page.waitForURL(/\/sc\/fabric\/projects\/chaincodes\/\d+\/editor$/);
      const projectId = Number(/chaincodes\/(\d+)\/editor/.exec(page.url())![1]);
      await expect.poll(() => page.getByTestId("open-file").innerText()).toBe(FILE);
      await page.locator(".monaco-editor .mtk1").first().waitFor();
      // The header line under the title: "<boilerplate> on <channel> · <status badge>".
      const header = page.locator("p", { hasText: `on ${CHANNEL}` }).first();

      // Sequence 1 runs and answers a query from the page. The badge shows the build while it lasts.
      const first = runOutcome(page);
      await expect.poll(() => header.innerText(), { timeout: 15_000, interval: 200 }).toMatch(/Building/);
      expect(await first).toMatch(/Running: sequence 1 committed/);
      await expect.poll(() => header.innerText(), { timeout: 10_000 }).toMatch(/Running/);
      await page.getByLabel("Function").selectOption("CreateAsset");
      const create = page.getByTestId("fn-CreateAsset");
      const fields = create.locator("input[id^='CreateAsset-']");
      for (const [i, v] of ["a1", "red", "3", "Tom", "9"].entries()) await fields.nth(i).fill(v);
      await create.getByRole("button", { name: "Submit" }).click();
      await expect
        .poll(() => create.getByTestId("call-result").innerText(), { timeout: 60_000 })
        .toMatch(/Committed in \d+ ms/);
      expect(await readAsset(page, "a1")).toContain("Tom");

      // A syntax error: nothing compiles JavaScript, so only starting the new server can find it.
      await replaceInEditor(page, "return previous;", "return previous +;");
      const second = runOutcome(page);
      // Live: the badge says building during the run (a websocket event, no reload), with its phase.
      await expect.poll(() => header.innerText(), { timeout: 15_000, interval: 200 }).toMatch(/Building/);
      const outcome = await second;
      await screenshot(page, "chaincode-project-run-refused");
      expect(outcome).not.toMatch(/Running: sequence 2/);
      expect(outcome).toMatch(/the new chaincode server did not (answer|start)/);
      // The reason stays on the page, and the badge never claims the broken code runs.
      const failed = page.getByRole("alert").filter({ hasText: "Last run failed" });
      await expect.poll(() => failed.innerText(), { timeout: 10_000 }).toMatch(/did not (answer|start)/);
      await expect.poll(() => failed.innerText()).toMatch(/sequence 1 keeps answering/);
      await expect.poll(() => header.innerText(), { timeout: 10_000 }).not.toMatch(/Building/);

      // Nothing reached the channel: sequence 1 is still the committed one, and it answers from the page.
      const project = await apiCall<{ chaincodeId: number }>(
        s.baseUrl,
        admin(),
        "GET",
        `/chaincode-projects/${projectId}`,
      );
      const live = async (): Promise<number[]> =>
        (
          await apiCall<{ definitions: { sequence: number; deploy_status: string }[] }>(
            s.baseUrl,
            admin(),
            "GET",
            `/sc/fabric/chaincodes/${project.data.chaincodeId}/definitions`,
          )
        ).data.definitions
          .filter((d) => d.deploy_status === "running")
          .map((d) => d.sequence);
      expect(await live()).toEqual([1]);
      expect(await readAsset(page, "a1")).toContain("Tom");

      // Code that loads and listens, then hangs (its event loop never turns again once its port accepts):
      // the port answers, so only a call that needs the chaincode to register and answer can tell.
      const src = (
        await apiCall<{ content: string }>(s.baseUrl, admin(), "GET", `/projects/${projectId}/files/read?path=${FILE}`)
      ).data.content;
      const hang = [
        'const net = require("node:net");',
        'const [host, port] = (process.env.CHAINCODE_SERVER_ADDRESS ?? "").split(":");',
        "const waiting = setInterval(() => {",
        "  const c = net.connect(Number(port), host, () => {",
        "    clearInterval(waiting);",
        "    for (;;);",
        "  });",
        '  c.on("error", () => c.destroy());',
        "}, 20);",
        "",
      ].join("\n");
      const written = await apiCall(s.baseUrl, admin(), "POST", `/projects/${projectId}/files/write`, {
        path: FILE,
        content: src
          .replace("return previous +;", "return previous;")
          .replace('"use strict";\n', `"use strict";\n${hang}`),
      });
      expect(written.status).toBeLessThan(300);
      await page.reload();
      await page.locator(".monaco-editor .mtk1").first().waitFor();
      const third = await runOutcome(page);
      expect(third).not.toMatch(/Running: sequence 2/);
      expect(third).toMatch(/the new chaincode server did not answer: .* within 20 s/);
      await expect.poll(() => failed.innerText(), { timeout: 10_000 }).toMatch(/sequence 1 keeps answering/);
      expect(await live()).toEqual([1]);
      expect(await readAsset(page, "a1")).toContain("Tom");
      await screenshot(page, "chaincode-project-run-hang-refused");
    },
  );
});
