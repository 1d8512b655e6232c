import { spawn } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildEnv } from "./chaincode-source.js";
import { groupMembers, isAlive } from "./proc.js";
import { bwrapArgs, createSandbox, findBwrap, SandboxUnavailableError } from "./sandbox.js";
import { createSupervisor } from "./supervisor.js";

const bwrap = findBwrap();
if (!bwrap) console.warn("skipping the bwrap sandbox tests: bwrap is not installed (apt-get install bubblewrap)");
const root = mkdtempSync(join(tmpdir(), "cl-sandbox-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const silent = { warn: () => undefined, info: () => undefined };

describe("bwrapArgs", () => {
  const cmd = { command: "/usr/bin/node", args: ["a.js"], env: {}, cwd: "/data/cc/1/src" };
  const policy = {
    writable: ["/data/cc/1/src"],
    readOnly: ["/usr/local/go", "/opt/node"],
    secrets: ["/data/cc/1/tls"],
    caches: ["/data/cache/npm"],
  };

  it("binds only the policy's folders, at their own paths, below a fresh root", () => {
    const a = bwrapArgs(cmd, policy, { exists: () => true });
    const pairs = (flag: string): string[] => a.flatMap((x, i) => (x === flag ? [a[i + 1]!] : []));
    expect(pairs("--bind")).toEqual(["/data/cache/npm", "/data/cc/1/src"]);
    expect(pairs("--ro-bind-try")).toEqual(expect.arrayContaining(["/opt/node", "/data/cc/1/tls", "/etc/resolv.conf"]));
    // Under /usr already: not bound twice.
    expect(pairs("--ro-bind-try")).not.toContain("/usr/local/go");
    expect(pairs("--dir")).toEqual(expect.arrayContaining(["/etc", "/data", "/data/cc", "/data/cc/1", "/data/cache"]));
    expect(pairs("--ro-bind-try")).not.toContain("/etc/shadow");
    expect(a).toContain("--unshare-all");
    expect(a).toContain("--share-net");
    expect(a).not.toContain("--die-with-parent");
    expect(a.slice(a.indexOf("--") + 1)).toEqual(["/usr/bin/node", "a.js"]);
  });

  it("as root: no user namespace, and setpriv drops to the sandbox user before the program", () => {
    const a = bwrapArgs(cmd, { ...policy, dieWithParent: true }, { identity: { user: "s", uid: 999, gid: 995 } });
    expect(a).not.toContain("--unshare-all");
    expect(a).toContain("--unshare-pid");
    expect(a).toContain("--die-with-parent");
    expect(a.slice(a.indexOf("--") + 1)).toEqual([
      "/usr/bin/setpriv",
      "--reuid=999",
      "--regid=995",
      "--clear-groups",
      "--inh-caps=-all",
      "--",
      "/usr/bin/node",
      "a.js",
    ]);
  });

  it("is the same for the same inputs (a restarted console recognises the command line)", () => {
    expect(bwrapArgs(cmd, policy, {})).toEqual(bwrapArgs(cmd, policy, {}));
  });
});

describe("createSandbox", () => {
  it("off: runs the command as it is", async () => {
    const sb = createSandbox({ mode: "off", user: "x", cacheDir: "/c" });
    expect(sb.kind).toBe("none");
    const cmd = { command: "/bin/true", args: [], env: {}, cwd: "/" };
    expect(await sb.wrap(cmd, { writable: [] })).toEqual(cmd);
  });

  it("without bwrap: refuses user code and names the fix", async () => {
    // An empty path is what the search gives on a host without bwrap.
    const missing = createSandbox({ mode: "auto", user: "x", cacheDir: "/c", uid: 1000, bwrap: "" });
    expect(missing.kind).toBe("unavailable");
    const err = await missing
      .wrap({ command: "/bin/true", args: [], env: {}, cwd: "/" }, { writable: [] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(SandboxUnavailableError);
    expect(err.message).toMatch(/install bubblewrap .* or set CHAINLAUNCH_SANDBOX=off/);
  });

  it("a build's environment carries none of the console's secrets", () => {
    process.env.CHAINLAUNCH_MASTER_KEY = "secret";
    process.env.DATABASE_URL = "postgres://u:p@h/db";
    try {
      const env = buildEnv("/cache");
      expect(Object.keys(env).filter((k) => /CHAINLAUNCH|DATABASE/.test(k))).toEqual([]);
      expect(env).toMatchObject({
        npm_config_cache: "/cache/npm",
        GOCACHE: "/cache/go-build",
        GOMODCACHE: "/cache/go-mod",
      });
    } finally {
      delete process.env.CHAINLAUNCH_MASTER_KEY;
      delete process.env.DATABASE_URL;
    }
  });
});

/** Runs a wrapped command to its end; its stdout and exit code. */
function runToEnd(
  c: { command: string; args: string[]; env: Record<string, string>; cwd: string },
  as?: number,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(c.command, c.args, {
      env: c.env,
      cwd: c.cwd,
      ...(as !== undefined ? { uid: as, gid: as } : {}),
    });
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    child.on("close", (code) => resolve({ code, out }));
  });
}

const PROBE = `
for f in "$DATA/master.key" "$DATA/chainlaunch.db"; do cat "$f" >/dev/null 2>&1 && echo "read $f"; done
ls "$DATA" 2>/dev/null | grep -v '^work$' | sed 's/^/listed /'
echo x > "$DATA/pwned" 2>/dev/null
kill -0 "$CONSOLE" 2>/dev/null && echo "signalled console"
echo own > own.txt && echo "own write ok"
`;

describe.skipIf(!bwrap)("the bwrap sandbox on this host", { timeout: 120_000 }, () => {
  it("as a non-root console: the mount namespace alone keeps the data dir out of reach", async () => {
    // A data dir owned by an unprivileged user, and that user as the console.
    const data = join(root, "nonroot");
    const work = join(data, "work");
    mkdirSync(work, { recursive: true });
    writeFileSync(join(data, "master.key"), "k");
    writeFileSync(join(data, "chainlaunch.db"), "SQLite format 3");
    const uid = process.getuid?.() === 0 ? 65534 : process.getuid!();
    if (process.getuid?.() === 0)
      for (const p of [root, data, work, join(data, "master.key"), join(data, "chainlaunch.db")])
        chownSync(p, uid, uid);
    const sb = createSandbox({ mode: "bwrap", user: "x", cacheDir: join(data, "cache"), uid, log: silent });
    const boxed = await sb.wrap(
      {
        command: "/bin/sh",
        args: ["-c", PROBE],
        env: { DATA: data, CONSOLE: String(process.pid), PATH: "/usr/bin:/bin" },
        cwd: work,
      },
      { writable: [work], dieWithParent: true },
    );
    const r = await runToEnd(boxed, process.getuid?.() === 0 ? uid : undefined);
    expect(r.out.trim()).toBe("own write ok");
    // A write to the data dir's path lands in the sandbox's own /tmp (the test's data dir is in /tmp), never on the host.
    expect(existsSync(join(data, "pwned"))).toBe(false);
    expect(readFileSync(join(work, "own.txt"), "utf8")).toBe("own\n");
  });

  it("under the supervisor: stop() ends a program that ignores SIGTERM, and a crashed launcher takes its program along", async () => {
    const dir = join(root, "sup");
    const work = join(dir, "work");
    mkdirSync(work, { recursive: true });
    const sb = createSandbox({ mode: "bwrap", user: "chainlaunch-sandbox", cacheDir: join(dir, "cache"), log: silent });
    const sup = createSupervisor({ stateDir: join(dir, "state"), stopTimeoutMs: 1000, restart: { maxAttempts: 0 } });
    try {
      const boxed = await sb.wrap(
        {
          command: "/bin/sh",
          args: ["-c", "trap '' TERM; while :; do sleep 1; done"],
          env: { PATH: "/usr/bin:/bin" },
          cwd: work,
        },
        { writable: [work] },
      );
      const st = await sup.start({ id: "stubborn", ...boxed });
      expect(st.status).toBe("RUNNING");
      const pid = st.pid!;
      expect((await groupMembers(pid)).length).toBeGreaterThan(0);
      await sup.stop("stubborn");
      expect(await isAlive(pid)).toBe(false);
      expect(await groupMembers(pid)).toEqual([]);

      const again = await sup.start({ id: "stubborn", ...boxed });
      const leader = again.pid!;
      process.kill(leader, "SIGKILL");
      const until = Date.now() + 10_000;
      while (Date.now() < until && (await groupMembers(leader)).length > 0)
        await new Promise((r) => setTimeout(r, 100));
      expect(await groupMembers(leader)).toEqual([]);
    } finally {
      sup.close();
    }
  });
});
