import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { removeProjectsNamed } from "../support/projects.js";
import { openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { createOneOrgChannel, removeFabricFixtures } from "../support/fabric.js";
import { startMoto } from "../support/moto.js";
import { startServer, type RunningServer } from "../support/server.js";
import type { Credentials } from "../support/users.js";

const SUFFIX = Date.now().toString(36);
const MSP = `PgE2e${SUFFIX}MSP`;
const CHANNEL = `pg-${SUFFIX}`;
const PROJECT = `progress ${SUFFIX}`;
const BACKUP_STEPPER = '[data-testid="operation-progress"][data-kind="backup"]';
const BACKUP_PHASES = ["starting", "database", "files", "nodes", "checksums", "upload"];
const PHASE_NAMES = ["Prepare", "Build", "Install", "Start server", "Approve", "Commit"];

interface Op {
  kind: string;
  phase: string | null;
  status: string;
  startedAt: string;
}

/** Seconds of an `m:ss` (or `h:mm:ss`) elapsed time in `text`. */
function seconds(text: string): number {
  const m = /(?:(\d+):)?(\d+):(\d\d)/.exec(text);
  if (!m) throw new Error(`no elapsed time in '${text}'`);
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

/** The stepper's current phase (its data-phase) and total elapsed seconds, as shown. */
async function shown(stepper: Locator): Promise<{ phase: string; status: string; elapsed: number }> {
  return {
    phase: (await stepper.getAttribute("data-phase")) ?? "",
    status: (await stepper.getAttribute("data-status")) ?? "",
    elapsed: seconds(await stepper.getByTestId("operation-elapsed").innerText()),
  };
}

/** The phase names the stepper lists, as a user reads them. */
async function phaseNames(stepper: Locator): Promise<string[]> {
  return (await stepper.locator("li[data-phase]").allInnerTexts()).map(
    (t) => t.split("\n")[0]!.trim().split(/\s+\d/)[0]!,
  );
}

/** What the server says now about a resource's newest operation. */
async function serverOp(baseUrl: string, admin: Credentials, resource: string): Promise<Op | undefined> {
  const r = await apiCall<{ operations: Op[] }>(baseUrl, admin, "GET", `/operations?resource=${resource}`);
  return r.data.operations[0];
}

/** Waits until the stepper's phase is no longer `from` (or the operation ended), without reloading. */
async function advancesFrom(page: Page, stepper: Locator, from: string, timeout: number): Promise<string> {
  await page.waitForFunction(
    ([sel, p]) => {
      const el = document.querySelector(sel as string);
      return !el || el.getAttribute("data-phase") !== p || el.getAttribute("data-status") !== "running";
    },
    [`[data-testid="operation-progress"][data-kind="${await stepper.getAttribute("data-kind")}"]`, from],
    { timeout, polling: 100 },
  );
  return (await stepper.getAttribute("data-phase")) ?? "";
}

/**
 * Issue 33 item 8: long work shows its phases and elapsed time, streamed from the server and kept
 * across a reload. A TypeScript project Run on a real 1-org channel (npm install, tsc, install,
 * server start, approve, commit) and a backup of that console to real restic on S3 (moto): each
 * shows a stepper with its phase names; the current phase moves on without a reload; a reload in
 * the middle shows the phase the server is in and an elapsed time that went on counting from the
 * real start; the end shows done.
 */
describe("progress of long operations", () => {
  // Its own server: the backup leaves a target and a recovery key behind, which the backups spec on
  // the shared server expects to make itself.
  let server: RunningServer;
  const adminUser = () => ({ username: "admin", password: server.adminPassword });
  let s: Session;
  let moto: Awaited<ReturnType<typeof startMoto>> | undefined;
  let orgId = 0;
  let networkId = 0;
  const nodeIds: number[] = [];
  const ports: string[] = [];

  beforeAll(async () => {
    server = await startServer();
    s = await openSession({ baseUrl: server.url });
    const fx = await createOneOrgChannel(s.baseUrl, adminUser(), {
      mspId: MSP,
      orgName: `pg-e2e-${SUFFIX}`,
      channel: CHANNEL,
      tag: `pg-${SUFFIX}`,
      ports,
    });
    orgId = fx.orgId;
    networkId = fx.networkId;
    nodeIds.push(...fx.nodeIds);
  }, 240_000);

  afterAll(async () => {
    moto?.stop();
    await removeProjectsNamed(s.baseUrl, adminUser(), PROJECT);
    const survivors = await removeFabricFixtures(s.baseUrl, adminUser(), {
      channels: [CHANNEL],
      orgId,
      nodeIds,
      ports,
    });
    await s.close();
    await server.stop();
    expect(survivors).toEqual([]);
  }, 180_000);

  it(
    "shows a project Run's phases live, the same phase and elapsed time after a reload, then done",
    {
      timeout: 600_000,
    },
    async () => {
      const created = await apiCall<{ id: number }>(s.baseUrl, adminUser(), "POST", "/chaincode-projects", {
        name: PROJECT,
        networkId,
        boilerplate: "chaincode-typescript",
        endorsementPolicy: `OR('${MSP}.member')`,
      });
      expect(created.status).toBe(201);
      const id = created.data.id;
      const page = s.page;
      await openAs(s, adminUser(), `/sc/fabric/projects/chaincodes/${id}/editor`);
      await page.getByRole("button", { name: "Run" }).click();

      const stepper = page.locator('[data-testid="operation-progress"][data-kind="project.run"]');
      await stepper.waitFor({ timeout: 30_000 });
      // (Phases a later change adds, e.g. a verify step, may come between; these are in this order.)
      const names = await phaseNames(stepper);
      expect(names.filter((n) => PHASE_NAMES.includes(n))).toEqual(PHASE_NAMES);
      // The build (npm install and tsc) takes a while: the stepper is in it, its step named.
      await stepper.locator('li[data-phase="build"][aria-current="step"]').waitFor({ timeout: 60_000 });
      await stepper.scrollIntoViewIfNeeded();
      await screenshot(page, "progress-project-build");
      await page.waitForTimeout(5000);
      const before = await shown(stepper);
      expect(before.status).toBe("running");
      // (The shown time ticks once a second, so it may be a second behind.)
      expect(before.elapsed).toBeGreaterThanOrEqual(4);

      // A reload in the middle: the same phase as the server's, the elapsed time counted from the real start.
      await page.reload();
      await stepper.waitFor({ timeout: 30_000 });
      const earlier = await serverOp(s.baseUrl, adminUser(), `chaincode_project:${id}`);
      const after = await shown(stepper);
      const later = await serverOp(s.baseUrl, adminUser(), `chaincode_project:${id}`);
      expect(earlier?.status).toBe("running");
      expect(after.status).toBe("running");
      // The server's phase (read just before and just after, in case it moved on in between).
      expect([earlier?.phase, later?.phase]).toContain(after.phase);
      expect(after.elapsed).toBeGreaterThanOrEqual(before.elapsed);
      expect(await phaseNames(stepper)).toContain("Commit");

      // Without another reload, the phase moves on, then the Run ends done.
      const next = await advancesFrom(page, stepper, after.phase, 300_000);
      const order = await stepper.locator("li[data-phase]").evaluateAll((els) => els.map((e) => e.dataset.phase ?? ""));
      expect(order.indexOf(next)).toBeGreaterThan(order.indexOf(after.phase));
      await page
        .locator(
          '[data-testid="operation-progress"][data-kind="project.run"][data-status]:not([data-status="running"])',
        )
        .waitFor({ timeout: 300_000 });
      const end = await shown(stepper);
      expect(end.status, await stepper.innerText()).toBe("succeeded");
      expect(end.phase).toBe("commit");
      expect(await stepper.getByTestId("operation-elapsed").innerText()).toMatch(/^done in \d+:\d\d$/);
      expect(end.elapsed).toBeGreaterThan(after.elapsed);
      expect(await stepper.locator('li[data-state="done"]').count()).toBe(
        await stepper.locator("li[data-phase]").count(),
      );
      await stepper.scrollIntoViewIfNeeded();
      await screenshot(page, "progress-project-done");

      // The definition's lifecycle screen: a Deploy there shows its phases (build, then the server's start) to done.
      const project = await apiCall<{ chaincodeId: number }>(
        s.baseUrl,
        adminUser(),
        "GET",
        `/chaincode-projects/${id}`,
      );
      await page.goto(`/sc/fabric/chaincodes/${project.data.chaincodeId}`);
      await page.getByRole("button", { name: "Undeploy" }).click();
      await page.getByRole("button", { name: "Deploy", exact: true }).click();
      const deploy = page.locator('[data-testid="operation-progress"][data-kind="chaincode.deploy"]');
      await deploy.waitFor({ timeout: 60_000 });
      expect(await phaseNames(deploy)).toEqual(["Build", "Start server"]);
      await page
        .locator('[data-testid="operation-progress"][data-kind="chaincode.deploy"][data-status="succeeded"]')
        .waitFor({ timeout: 120_000 });
      expect(await deploy.getByTestId("operation-elapsed").innerText()).toMatch(/^done in \d+:\d\d$/);
      await deploy.scrollIntoViewIfNeeded();
      await screenshot(page, "progress-chaincode-deploy-done");
    },
  );

  it(
    "shows a backup's phases on its row live, the same phase after a reload, then completed",
    {
      timeout: 600_000,
    },
    async () => {
      // A Run still building (the test above failed mid-way) would change the data directory under the backup.
      await expect
        .poll(
          async () =>
            (
              await apiCall<{ operations: Op[] }>(s.baseUrl, adminUser(), "GET", "/operations?kind=project.run")
            ).data.operations.some((o) => o.status === "running"),
          { timeout: 300_000, interval: 1000 },
        )
        .toBe(false);
      moto = await startMoto();
      await moto.createBucket("e2e-progress");
      const target = await apiCall<{ id: number }>(s.baseUrl, adminUser(), "POST", "/backups/targets", {
        name: `progress-${SUFFIX}`,
        type: "S3",
        endpoint: moto.endpoint,
        bucketName: "e2e-progress",
        bucketPath: "console",
        accessKeyId: "AKIDE2E",
        secretKey: "e2e-secret",
        resticPassword: "e2e-restic-password",
        forcePathStyle: true,
      });
      expect(target.status, JSON.stringify(target.data)).toBe(201);
      const status = await apiCall<{ configured: boolean }>(s.baseUrl, adminUser(), "GET", "/backups/recovery-key");
      if (!status.data.configured) {
        const made = await apiCall(s.baseUrl, adminUser(), "POST", "/backups/recovery-key", {});
        expect(made.status).toBeLessThan(300);
      }
      const page = s.page;
      await openAs(s, adminUser(), "/settings/backups");
      await page.getByLabel("Backup target", { exact: true }).selectOption({ label: `progress-${SUFFIX}` });
      // Every phase the page shows from now on, in order, recorded in the page (no reload before the check).
      await page.evaluate((sel) => {
        const seen: string[] = [];
        (window as unknown as { phasesSeen: string[] }).phasesSeen = seen;
        setInterval(() => {
          const p = document.querySelector(sel)?.getAttribute("data-phase");
          if (p && seen.at(-1) !== p) seen.push(p);
        }, 50);
      }, BACKUP_STEPPER);
      await page.getByRole("button", { name: "Back up now" }).click();

      const stepper = page.locator(BACKUP_STEPPER);
      await stepper.waitFor({ timeout: 60_000 });
      const row = page.locator("[data-testid^=backup-]").filter({ has: stepper });
      const backupId = Number((await row.getAttribute("data-testid"))?.replace("backup-", ""));
      expect(await phaseNames(stepper)).toEqual(["Start", "Database", "Files", "Nodes", "Checksums", "Upload"]);
      const first = await shown(stepper);
      // The phase moves on without a reload (or the backup ended, and the row's stepper went).
      await page.waitForFunction(
        (sel) => (window as unknown as { phasesSeen: string[] }).phasesSeen.length >= 2 || !document.querySelector(sel),
        BACKUP_STEPPER,
        { timeout: 120_000, polling: 100 },
      );
      const mid = await shown(stepper).catch(() => undefined);
      const seen = await page.evaluate(() => (window as unknown as { phasesSeen: string[] }).phasesSeen);
      expect(seen.length, `phases shown live: ${seen.join(", ")}`).toBeGreaterThanOrEqual(2);
      expect(BACKUP_PHASES.indexOf(seen[1]!)).toBeGreaterThan(BACKUP_PHASES.indexOf(seen[0]!));
      if (mid) await screenshot(page, "progress-backup-running");

      await page.reload();
      const op = await serverOp(s.baseUrl, adminUser(), `backup:${backupId}`);
      if (op?.status === "running") {
        // Still running after the reload: the row shows the server's phase, and time went on.
        await stepper.waitFor({ timeout: 30_000 });
        const after = await shown(stepper);
        const now = await serverOp(s.baseUrl, adminUser(), `backup:${backupId}`);
        expect([op.phase, now?.phase]).toContain(after.phase);
        expect(after.elapsed).toBeGreaterThanOrEqual(mid?.elapsed ?? first.elapsed);
      } else {
        console.warn(
          `the backup ended before the reload (${op?.status}); the reload check on a running row was not made`,
        );
      }
      const done = page.locator(`[data-testid="backup-${backupId}"]`);
      await done.getByText(/^(completed|failed)$/).waitFor({ timeout: 300_000 });
      expect(await serverOp(s.baseUrl, adminUser(), `backup:${backupId}`), await done.innerText()).toMatchObject({
        status: "succeeded",
        phase: "upload",
      });
      await done.getByText("completed", { exact: true }).waitFor();
      await screenshot(page, "progress-backup-done");
    },
  );
});
