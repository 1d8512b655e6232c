import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSandbox } from "../../runtime/sandbox.js";
import { processesMatching } from "../../test-support/terminal.js";
import { SANDBOX_TEST_CACHE } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";
import { createShellSessions, type ShellClosed, type ShellSessionInfo } from "./project-shell.js";

const dir = mkdtempSync(join(tmpdir(), "chainlaunch-shell-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sandbox = createSandbox({ mode: "auto", user: "chainlaunch-sandbox", cacheDir: SANDBOX_TEST_CACHE });
const alice = { userId: 7, username: "alice", admin: false, hostCommand: false, sessionId: 70 };
const bob = { userId: 8, username: "bob", admin: false, hostCommand: false };

/** Writes a line and waits until the session's output shows `re`. */
async function run(shells: ReturnType<typeof createShellSessions>, s: ShellSessionInfo, line: string, re: RegExp) {
  let out = "";
  const a = shells.attach(1, s.id, s.userId === alice.userId ? alice : bob, {
    output: (d) => (out += d),
    exit: () => undefined,
  });
  a.input(`${line}\n`);
  await waitFor(`${re}`, async () => (re.test(out) ? true : undefined), 10_000, 50);
  a.detach();
}

/** The session manager itself: limits, idle timeout, cleanup, sign-out and console stop, with real PTYs. */
describe("shell sessions", () => {
  it("limits sessions per user, ends idle ones, and kills every process of a session", async () => {
    const closed: ShellClosed[] = [];
    const shells = createShellSessions({ sandbox, idleTimeoutMs: 1500, maxPerUser: 2, onClose: (c) => closed.push(c) });
    try {
      const a1 = await shells.open({ projectId: 1, dir, actor: alice });
      await shells.open({ projectId: 1, dir, actor: alice });
      await expect(shells.open({ projectId: 1, dir, actor: alice })).rejects.toThrow(/limit is 2/);
      const b1 = await shells.open({ projectId: 1, dir, actor: bob });
      expect(shells.list(1, alice)).toHaveLength(2);
      expect(shells.list(1, { ...bob, admin: true })).toHaveLength(3);
      expect(() => shells.get(1, a1.id, bob)).toThrow(/not found/);
      const tag = `${6000 + Math.floor(Math.random() * 900)}`;
      await run(shells, b1, `sleep ${tag}1 & echo bg-started`, /bg-started/);
      // Nobody types: all three end within the idle timeout and a sweep.
      await waitFor("the idle sessions to end", async () => (shells.size === 0 ? true : undefined), 10_000, 100);
      expect(closed.map((c) => c.reason)).toEqual(Array(3).fill(expect.stringMatching(/^idle/)));
      expect(processesMatching(`sleep ${tag}1`)).toEqual([]);
    } finally {
      await shells.closeAll();
    }
  });

  it("cleans up the caller's idle sessions only, ends a signed-out user's, and everything on stop", async () => {
    const shells = createShellSessions({ sandbox });
    const a1 = await shells.open({ projectId: 1, dir, actor: alice });
    const b1 = await shells.open({ projectId: 1, dir, actor: bob });
    await shells.open({ projectId: 2, dir, actor: bob });
    const ended = await shells.cleanup(1, alice, 0);
    expect(ended.map((s) => s.id)).toEqual([a1.id]);
    expect(shells.size).toBe(2);
    await shells.closeUser({ userId: bob.userId });
    expect(shells.size).toBe(0);
    await shells.open({ projectId: 1, dir, actor: alice });
    await shells.closeUser({ userId: alice.userId, sessionId: 999 });
    expect(shells.size).toBe(1);
    await shells.closeAll();
    expect(shells.size).toBe(0);
    expect(() => shells.get(1, b1.id, bob)).toThrow(/not found/);
  });

  it("pauses a flooding shell while its socket is congested, and replays only the last 64 KiB", async () => {
    const shells = createShellSessions({ sandbox });
    try {
      const s = await shells.open({ projectId: 1, dir, actor: alice });
      let out = "";
      let congested = true;
      const a = shells.attach(1, s.id, alice, {
        output: (d) => (out += d),
        exit: () => undefined,
        congested: () => congested,
      });
      a.input("yes flood | head -c 3000000; echo flood-done\n");
      // Congested: the PTY is paused, so output stops well short of the flood.
      await new Promise((r) => setTimeout(r, 1500));
      expect(out.length).toBeLessThan(1_000_000);
      congested = false;
      await waitFor(
        "the flood to end",
        async () => (/flood-done\r?\n/.test(out.slice(-200)) ? true : undefined),
        30_000,
        50,
      );
      a.detach();
      const again = shells.attach(1, s.id, alice, { output: () => undefined, exit: () => undefined });
      expect(again.scrollback.length).toBeLessThanOrEqual(64 * 1024);
      expect(again.scrollback).toMatch(/flood-done/);
      again.detach();
    } finally {
      await shells.closeAll();
    }
  });

  it("refuses a manager with a 403 naming why when bwrap is broken, and gives an admin an unsandboxed shell", async () => {
    const broken = createSandbox({
      mode: "bwrap",
      user: "chainlaunch-sandbox",
      cacheDir: SANDBOX_TEST_CACHE,
      bwrap: "/bin/false",
    });
    const shells = createShellSessions({ sandbox: broken });
    try {
      await expect(shells.open({ projectId: 1, dir, actor: alice })).rejects.toMatchObject({
        status: 403,
        message: expect.stringMatching(/^shell: the sandbox does not work on this host .*only an admin/),
      });
      const s = await shells.open({ projectId: 1, dir, actor: { ...alice, admin: true, hostCommand: true } });
      expect(s.sandboxed).toBe(false);
    } finally {
      await shells.closeAll();
    }
  });
});
