import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { startServer, type RunningServer } from "../support/server.js";

/**
 * Restore from the UI, on a console of its own (a LOCAL repository under a scratch folder, real
 * restic): the target's snapshot is listed on its restore screen, restored into a new directory from
 * the form, and the screen shows the result and the exact start command; the test then opens the
 * restored database on disk. A manager sees the list without a Restore button and gets 403 from the API.
 */
describe("restore a backup from the UI", () => {
  let server: RunningServer;
  let s: Session;
  const scratch = mkdtempSync(join(tmpdir(), "e2e-restore-"));
  const manager = { username: "rita.manager", password: "manager-pass-1" };
  let admin: { username: string; password: string };
  let targetId: number;
  let snapshotId: string;
  const api = <T>(who: { username: string; password: string }, method: string, path: string, body?: unknown) =>
    apiCall<T>(server.url, who, method, path, body);

  beforeAll(async () => {
    server = await startServer({ CHAINLAUNCH_BACKUP_LOCAL_ROOTS: scratch });
    admin = { username: "admin", password: server.adminPassword };
    s = await openSession({ baseUrl: server.url });
    expect((await api(admin, "POST", "/users", { ...manager, role: "manager" })).status).toBe(201);
    expect((await api(admin, "POST", "/backups/recovery-key", {})).status).toBe(201);
    expect((await api(admin, "POST", "/organizations", { mspId: "BeforeBackupMSP", name: "Before" })).status).toBe(201);
    const target = await api<{ id: number }>(admin, "POST", "/backups/targets", {
      name: "local-restore",
      type: "LOCAL",
      bucketPath: join(scratch, "repo"),
      resticPassword: "e2e-restore-password",
    });
    expect(target.status, JSON.stringify(target.data)).toBe(201);
    targetId = target.data.id;
    const started = await api<{ id: number }>(admin, "POST", "/backups", { targetId });
    expect(started.status).toBe(201);
    const deadline = Date.now() + 120_000;
    for (;;) {
      const b = await api<{ status: string; snapshotId: string | null; errorMessage: string | null }>(
        admin,
        "GET",
        `/backups/${started.data.id}`,
      );
      if (b.data.status === "failed") throw new Error(`backup failed: ${b.data.errorMessage}`);
      if (b.data.status === "completed" && b.data.snapshotId) {
        snapshotId = b.data.snapshotId;
        break;
      }
      if (Date.now() > deadline) throw new Error(`backup still ${b.data.status} after 120 s`);
      await new Promise((r) => setTimeout(r, 500));
    }
  });
  afterAll(async () => {
    await s?.close();
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("lists the snapshot, restores it into a new directory and shows the command that starts a console on it", async () => {
    await openAs(s, admin, "/settings/backups");
    const page = s.page;
    await page.getByRole("tab", { name: "Targets" }).click();
    await page.getByRole("link", { name: "Snapshots & restore" }).click();
    await page.waitForURL(new RegExp(`/settings/backups/targets/${targetId}/restore$`));
    const short = snapshotId.slice(0, 8);
    const row = page.getByTestId(`snapshot-${short}`);
    await row.waitFor();
    expect(await row.textContent()).toContain("chainlaunch");
    // The screen says what a restore in place would need.
    expect(await page.getByTestId("in-place-note").textContent()).toContain("Stop this console");

    await row.getByRole("button", { name: `Restore ${short}` }).click();
    const input = page.getByLabel("New data directory");
    // A relative path is refused by the server, which names the field; nothing is written.
    await input.fill("restored-relative");
    await page.getByRole("button", { name: "Restore", exact: true }).click();
    await page.getByTestId("restore-error").filter({ hasText: "dataDir:" }).waitFor();

    const dataDir = join(scratch, "restored", "data");
    await input.fill(dataDir);
    await page.getByRole("button", { name: "Restore", exact: true }).click();
    const result = page.getByTestId("restore-result");
    await result.waitFor({ timeout: 120_000 });
    expect(await result.textContent()).toMatch(/restored backup \d+ of .*1 organization\(s\)/);
    expect(await page.getByTestId("start-command").textContent()).toBe(`CHAINLAUNCH_DATA=${dataDir} chainlaunch serve`);
    const port = new URL(server.url).port;
    expect(await page.getByTestId("port-hint").textContent()).toContain(`port ${port}`);
    await screenshot(page, "backups-restore-done");

    // On disk: the restored database holds the organization made before the backup, and the master key is there.
    const db = new SQLite(join(dataDir, "chainlaunch.db"), { readonly: true });
    try {
      expect(db.prepare("SELECT msp_id FROM fabric_organizations").all()).toEqual([{ msp_id: "BeforeBackupMSP" }]);
    } finally {
      db.close();
    }
    expect(readFileSync(join(dataDir, "master.key"), "utf8").trim()).toBe(
      readFileSync(join(server.dataDir, "master.key"), "utf8").trim(),
    );
    expect(existsSync(join(scratch, "restored-relative"))).toBe(false);
  });

  it("shows a manager the snapshots without a Restore button, and the API refuses the manager with 403", async () => {
    await openAs(s, manager, `/settings/backups/targets/${targetId}/restore`);
    const page = s.page;
    await page.getByTestId(`snapshot-${snapshotId.slice(0, 8)}`).waitFor();
    expect(await page.getByRole("button", { name: /^Restore/ }).count()).toBe(0);
    const dataDir = join(scratch, "by-manager");
    const res = await api(manager, "POST", `/backups/targets/${targetId}/restore`, { snapshotId, dataDir });
    expect(res.status).toBe(403);
    expect(existsSync(dataDir)).toBe(false);
  });
});
