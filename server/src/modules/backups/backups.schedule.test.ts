import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test-support/test-app.js";
import { Fatal, waitFor } from "../../test-support/wait.js";

/**
 * A schedule with a one-minute cron, left to the scheduler's own timers: it runs at two
 * consecutive minutes, each run a completed backup with a restic snapshot, and never two at once.
 */
describe("a one-minute backup schedule", () => {
  let t: TestApp;
  let repoDir: string;
  beforeAll(async () => {
    t = await createTestApp("sqlite");
    // Inside the default root of LOCAL targets (<data>/backups/local); the app's close removes it.
    repoDir = join(t.config.dataDir, "backups", "local", "repo");
  });
  afterAll(async () => {
    await t?.close();
  });
  const call = (method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: t.admin, ...(payload ? { payload } : {}) });

  it("runs twice, at consecutive minutes", { timeout: 200_000 }, async () => {
    expect((await call("POST", "/backups/recovery-key", {})).statusCode).toBe(201);
    const target = (
      await call("POST", "/backups/targets", {
        name: "local",
        type: "LOCAL",
        bucketPath: repoDir,
        resticPassword: "sched-password",
      })
    ).json();
    const res = await call("POST", "/backups/schedules", {
      name: "every-minute",
      cronExpression: "* * * * *",
      targetId: target.id,
      retentionDays: 1,
    });
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json();
    expect(new Date(s.nextRunAt).getUTCSeconds()).toBe(0);
    const runs = await waitFor(
      "two scheduled runs",
      async () => {
        const list = (
          (await call("GET", "/backups")).json() as Array<{
            scheduleId: number;
            status: string;
            errorMessage: string | null;
            createdAt: string;
            snapshotId: string | null;
          }>
        )
          .filter((b) => b.scheduleId === s.id)
          .reverse();
        const failed = list.find((b) => b.status === "failed");
        if (failed) throw new Fatal(failed.errorMessage ?? "a scheduled run failed");
        return list.length >= 2 && list.slice(0, 2).every((b) => b.status === "completed")
          ? list.slice(0, 2)
          : undefined;
      },
      170_000,
      1000,
    );
    const [first, second] = runs.map((b) => new Date(b.createdAt));
    // Each run starts at its minute (the timer fires on the minute, give or take scheduling delay).
    expect(first!.getUTCSeconds()).toBeLessThan(10);
    expect(Math.round((second!.getTime() - first!.getTime()) / 60_000)).toBe(1);
    expect(new Set(runs.map((r) => r.snapshotId)).size).toBe(2);
    const after = (await call("GET", `/backups/schedules/${s.id}`)).json();
    expect(Date.parse(after.lastRunAt)).toBeGreaterThanOrEqual(second!.getTime() - 1000);
    await call("PUT", `/backups/schedules/${s.id}/disable`);
  });
});
