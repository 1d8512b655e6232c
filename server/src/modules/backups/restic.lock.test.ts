import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResticError, resticRepo, runRestic, withRepoLock } from "./restic.js";

/**
 * The retention's `forget --prune` needs the repository's exclusive lock; a listing or a backup
 * running at the same moment holds a shared one. withRepoLock waits it out (restic 0.14 has no
 * --retry-lock). The live lock here is a real `restic backup --stdin` waiting for its input.
 */
describe("withRepoLock on a real restic repository", () => {
  const dir = mkdtempSync(join(tmpdir(), "restic-lock-"));
  const r = resticRepo({
    type: "LOCAL",
    endpoint: null,
    region: null,
    bucketName: null,
    bucketPath: join(dir, "repo"),
    accessKeyId: null,
    secretKey: null,
    resticPassword: "lock-test-password",
  } as Parameters<typeof resticRepo>[0]);
  const env = { ...process.env, ...r.env };
  beforeAll(async () => {
    await runRestic(r, ["init"], { timeoutMs: 60_000 });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A backup that holds the repository's lock until its stdin closes. */
  function holdLock() {
    const p = spawn("restic", ["-r", r.repository, "backup", "--stdin", "--stdin-filename", "held.txt"], {
      env,
      stdio: ["pipe", "ignore", "ignore"],
    });
    const done = new Promise<number | null>((res) => p.once("exit", res));
    return { release: () => p.stdin.end("held\n"), done };
  }
  /** Waits until the repository shows a lock file (the backup has taken it). */
  async function untilLocked() {
    for (let i = 0; i < 200; i++) {
      const out = spawnSync("restic", ["-r", r.repository, "list", "locks", "--no-lock"], { env, encoding: "utf8" });
      if (out.stdout.trim()) return;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error("the backup never took the lock");
  }

  it("waits for a live lock to go, then runs the exclusive command", async () => {
    const held = holdLock();
    await untilLocked();
    // Without waiting: the exclusive command is refused as locked.
    await expect(runRestic(r, ["forget", "--keep-last", "1", "--prune"], { timeoutMs: 60_000 })).rejects.toMatchObject({
      kind: "locked",
    });
    setTimeout(held.release, 1500);
    const started = Date.now();
    await withRepoLock(r, () => runRestic(r, ["forget", "--keep-last", "1", "--prune"], { timeoutMs: 60_000 }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(await held.done).toBe(0);
  });

  it("gives up with the lock error once its wait is over", async () => {
    const held = holdLock();
    await untilLocked();
    try {
      const err = await withRepoLock(r, () => runRestic(r, ["prune"], { timeoutMs: 60_000 }), {
        lockWaitMs: 1000,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ResticError);
      expect((err as ResticError).kind).toBe("locked");
    } finally {
      held.release();
      await held.done;
    }
  });
});
