import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChaincodesRepo } from "../modules/fabric-chaincodes/chaincodes.repo.js";
import { createChaincodeRuntime, type ChaincodeRunSpec } from "../modules/fabric-chaincodes/chaincodes.runtime.js";
import { createPluginProcesses } from "../modules/plugins/plugins.runtime.js";
import { freePort } from "../test-support/ports.js";
import { processesUnder } from "../test-support/processes.js";
import { createTestApp, SANDBOX_TEST_CACHE, type TestApp } from "../test-support/test-app.js";
import { groupMembers, isAlive } from "./proc.js";
import { createSandbox, findBwrap } from "./sandbox.js";

const ATTACK_SRC = join(import.meta.dirname, "testdata", "sandbox-attack");
const bwrap = findBwrap();
if (!bwrap) console.warn("skipping the sandbox security test: bwrap is not installed (apt-get install bubblewrap)");

interface Attempt {
  ok: boolean;
  value?: string;
  error?: string;
}
type Results = Record<string, Attempt> & { phase: string; uid: number; envKeys: string[] };

const silent = { warn: () => undefined, info: () => undefined };

/**
 * The execution boundary, tried from inside: a real Node chaincode (fabric-shim) whose build script
 * and whose module load attack a real console's data dir (SQLite, master key in the data dir). It
 * is built by buildChaincode and started through the chaincode runtime, as the console does.
 */
describe.skipIf(!bwrap)("sandbox: user code can't reach the console's secrets", { timeout: 600_000 }, () => {
  let t: TestApp;
  let escapeFile: string;
  const defId = 900;
  let run: ChaincodeRunSpec | undefined;
  const runtimes: ReturnType<typeof createChaincodeRuntime>[] = [];
  const runtimeFor = (t: TestApp) => {
    const dir = join(t.config.dataDir, "chaincodes");
    const r = createChaincodeRuntime({
      repo: createChaincodesRepo(t.database.db),
      bus: t.bus,
      log: silent,
      stateDir: join(dir, "runtime"),
      definitionDir: (id) => join(dir, String(id)),
      sandbox: createSandbox({ mode: "bwrap", user: "chainlaunch-sandbox", cacheDir: SANDBOX_TEST_CACHE, log: silent }),
    });
    runtimes.push(r);
    return r;
  };

  beforeAll(async () => {
    t = await createTestApp("sqlite");
    escapeFile = join(tmpdir(), `cl-sandbox-escape-${process.pid}`);
    rmSync(escapeFile, { force: true });
  });
  afterAll(async () => {
    for (const r of runtimes) r.close();
    for (const pid of processesUnder(join(t.config.dataDir, "chaincodes"))) process.kill(pid, "SIGKILL");
    await t.close();
    rmSync(escapeFile, { force: true });
  });

  const results = (phase: string, dir = join(t.config.dataDir, "chaincodes", String(defId), "src")): Results =>
    JSON.parse(readFileSync(join(dir, `results-${phase}.json`), "utf8"));

  function expectHeld(r: Results): void {
    const summary = Object.entries(r)
      .filter(([, v]) => typeof v === "object" && v !== null && "ok" in v)
      .map(([k, v]) => `${k}=${(v as Attempt).ok ? "ok" : (v as Attempt).error}`);
    console.log(`${r.phase} (uid ${r.uid}): ${summary.join(" ")}`);
    // Each attack fails; the one legitimate write works.
    for (const name of [
      "readMasterKey",
      "openDatabase",
      "readOtherKey",
      "writeDataDir",
      "signalConsole",
      "seeConsoleInProc",
    ]) {
      expect({ name, ...r[name] }).toMatchObject({ name, ok: false });
    }
    // The data dir inside is only the path down to its own folder (bwrap's skeleton), never its files.
    if (r.listDataDir!.ok) expect(["chaincodes", "plugins"]).toContain(r.listDataDir!.value);
    expect(r.writeOwnFolder).toEqual({ ok: true, value: r.phase });
    // /tmp inside is the sandbox's own: the write lands there, never in the host's /tmp.
    expect(existsSync(escapeFile)).toBe(false);
    expect(existsSync(join(t.config.dataDir, "pwned"))).toBe(false);
    // No console secret in its environment.
    expect(r.envKeys.filter((k) => /CHAINLAUNCH|DATABASE_URL|MASTER/.test(k))).toEqual([]);
    // A separate, unprivileged user when the console is root.
    if (process.getuid?.() === 0) expect(r.uid).not.toBe(0);
  }

  it("the real data dir holds what the attacks aim at", () => {
    expect(existsSync(join(t.config.dataDir, "master.key"))).toBe(true);
    expect(existsSync(join(t.config.dataDir, "chainlaunch.db"))).toBe(true);
  });

  it("holds for a build step (npm run build) and for the chaincode server it builds", async () => {
    const dataDir = t.config.dataDir;
    const defDir = join(dataDir, "chaincodes", String(defId));
    const src = join(defDir, "src");
    // Another definition's TLS key, written as the console writes them.
    const other = join(dataDir, "chaincodes", "901", "tls");
    mkdirSync(other, { recursive: true, mode: 0o700 });
    writeFileSync(join(other, "server.key"), "-----BEGIN PRIVATE KEY-----\nother\n", { mode: 0o600 });
    cpSync(ATTACK_SRC, src, { recursive: true });
    const aim = {
      dataDir,
      consolePid: process.pid,
      escapeFile,
      otherKey: join(other, "server.key"),
    };
    writeFileSync(join(src, "aim.json"), JSON.stringify(aim));
    const runtime = runtimeFor(t);
    const built = await runtime.build(defId, { type: "node", srcDir: src, logFile: join(defDir, "build.log") });
    expect(built.command).toBe(process.execPath);
    expectHeld(results("build"));

    const port = await freePort();
    run = {
      definitionId: defId,
      command: built.command,
      args: [...built.args, "--chaincode-address", `127.0.0.1:${port}`, "--chaincode-id", "attack:1"],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      cwd: built.cwd,
      address: `127.0.0.1:${port}`,
    };
    const t0 = Date.now();
    const state = await runtime.start(run);
    console.log(`sandboxed chaincode server RUNNING after ${Date.now() - t0} ms`);
    expect(state, state.errorMessage).toMatchObject({ status: "RUNNING" });
    expectHeld(results("server"));
  });

  it("holds for a plugin process", async () => {
    const plugins = join(t.config.dataDir, "plugins");
    const runDir = join(plugins, "attacker", "run");
    mkdirSync(runDir, { recursive: true, mode: 0o700 });
    cpSync(join(ATTACK_SRC, "attack.js"), join(runDir, "attack.js"));
    const other = join(t.config.dataDir, "chaincodes", "901", "tls", "server.key");
    writeFileSync(
      join(runDir, "aim.json"),
      JSON.stringify({ dataDir: t.config.dataDir, consolePid: process.pid, escapeFile, otherKey: other }),
    );
    const processes = createPluginProcesses({
      stateDir: join(plugins, ".runtime"),
      onGaveUp: () => undefined,
      sandbox: createSandbox({ mode: "bwrap", user: "chainlaunch-sandbox", cacheDir: SANDBOX_TEST_CACHE, log: silent }),
      dir: plugins,
      builtinsDir: () => join(t.config.dataDir, "no-builtins"),
    });
    try {
      const st = await processes.start("attacker", {
        name: "main",
        command: process.execPath,
        args: ["-e", "require('./attack.js')('plugin'); setInterval(() => {}, 1000)"],
        env: {},
        cwd: runDir,
        ports: [],
      });
      expect(st.status).toBe("RUNNING");
      expectHeld(results("plugin", runDir));
      // Its working folder must be its own.
      await expect(
        processes.start("attacker", {
          name: "x",
          command: "/bin/sh",
          args: [],
          env: {},
          cwd: t.config.dataDir,
          ports: [],
        }),
      ).rejects.toThrow(/outside the plugin's folder/);
    } finally {
      await processes.stop("attacker", "main");
      processes.close();
    }
  });

  it("a restarted console adopts the sandboxed server, and stop() ends it and everything under it", async () => {
    runtimes[0]!.close();
    const again = runtimeFor(t);
    const adopted = await again.start(run!);
    expect(adopted).toMatchObject({ status: "RUNNING", adopted: true });
    const pid = adopted.pid!;
    expect((await groupMembers(pid)).length).toBeGreaterThan(0);
    await again.stop(defId);
    expect(await isAlive(pid)).toBe(false);
    expect(await groupMembers(pid)).toEqual([]);
  });
});
