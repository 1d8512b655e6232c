import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../test-support/ports.js";
import { idleProcessSpec } from "../test-support/processes.js";
import { httpHealthProbe } from "./health.js";
import { readPidRecord, writePidRecord } from "./pid-file.js";
import { isAlive, readCmdline } from "./proc.js";
import {
  createSupervisor,
  type ProcessSpec,
  type Supervisor,
  type SupervisorEvent,
  type SupervisorOptions,
} from "./supervisor.js";

const root = mkdtempSync(join(tmpdir(), "cl-sup-"));
const spawned = new Set<number>();
const supervisors: Supervisor[] = [];

afterAll(async () => {
  for (const s of supervisors) s.close();
  for (const pid of spawned) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  rmSync(root, { recursive: true, force: true });
});

let n = 0;

/** A tiny node: an HTTP server with /healthz, logging to stdout/stderr. */
const SERVER = `
const http = require("node:http");
const port = Number(process.argv[1]);
const mode = process.argv[2] || "";
console.log("starting on " + port + " mode=" + mode);
if (mode === "fail") { console.error("fatal: bad config key Foo.Bar"); process.exit(3); }
if (mode === "fail-if" && require("node:fs").existsSync(process.argv[3])) { console.error("fatal: " + process.argv[3] + " is there"); process.exit(4); }
if (mode === "ignore-term") process.on("SIGTERM", () => console.log("ignoring SIGTERM"));
else process.on("SIGTERM", () => { console.log("bye"); process.exit(0); });
http.createServer((req, res) => { res.setHeader("content-type", "application/json"); res.end(JSON.stringify({ status: "OK" })); })
  .listen(port, "127.0.0.1", () => console.error("listening"));
if (mode === "crash-soon") setTimeout(() => { console.error("panic: crashed on purpose"); process.exit(2); }, 600);
if (mode === "chatty") setInterval(() => console.log("x".repeat(200)), 5);
`;

async function makeSpec(mode = "", marker = `n${n++}`): Promise<ProcessSpec> {
  const port = await freePort();
  return {
    id: `node-${marker}`,
    command: process.execPath,
    args: ["-e", SERVER, String(port), mode],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    cwd: root,
    probe: httpHealthProbe(`http://127.0.0.1:${port}/healthz`, 500),
    startTimeoutMs: 10_000,
  };
}

function makeSupervisor(
  stateDir: string,
  extra: Partial<SupervisorOptions> = {},
): { sup: Supervisor; events: SupervisorEvent[] } {
  const events: SupervisorEvent[] = [];
  const sup = createSupervisor({
    stateDir,
    pollIntervalMs: 100,
    probeIntervalMs: 100,
    stopTimeoutMs: 3000,
    restart: { baseDelayMs: 100, maxDelayMs: 400, maxAttempts: 3, resetAfterMs: 60_000 },
    onEvent: (e) => {
      events.push(e);
      if (e.type === "spawned") spawned.add(e.pid);
    },
    ...extra,
  });
  supervisors.push(sup);
  return { sup, events };
}

async function waitFor<T>(fn: () => T | Promise<T>, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > until) throw new Error("timed out waiting");
    await sleep(50);
  }
}

const statuses = (events: SupervisorEvent[], id: string): string[] =>
  events.flatMap((e) => (e.type === "status" && e.id === id ? [e.status] : []));

/** Processes whose argv carries this spec's unique port argument. */
async function countProcesses(spec: ProcessSpec): Promise<number> {
  let count = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const argv = await readCmdline(Number(name));
    if (argv && argv[1] === "-e" && argv[3] === spec.args[2] && (await isAlive(Number(name)))) count++;
  }
  return count;
}

describe("supervisor", () => {
  it("starts a node to RUNNING via its probe, logs to a file, and stops it gracefully", async () => {
    const stateDir = join(root, "s1");
    const { sup, events } = makeSupervisor(stateDir);
    const spec = await makeSpec();
    const state = await sup.start(spec);
    expect(state).toMatchObject({ status: "RUNNING", adopted: false, restarts: 0 });
    const pid = state.pid as number;
    const record = await readPidRecord(join(stateDir, "pids", `${spec.id}.json`));
    expect(record).toMatchObject({ pid, command: process.execPath, args: spec.args });
    expect(record?.startTime).toMatch(/^\d+$/);
    await waitFor(() => readFileSync(state.logFile, "utf8").includes("listening"));
    expect(readFileSync(state.logFile, "utf8")).toContain("starting on");

    const stopped = await sup.stop(spec.id);
    expect(stopped.status).toBe("STOPPED");
    expect(await isAlive(pid)).toBe(false);
    expect(existsSync(join(stateDir, "pids", `${spec.id}.json`))).toBe(false);
    expect(readFileSync(state.logFile, "utf8")).toContain("bye");
    expect(statuses(events, spec.id)).toEqual(["STARTING", "RUNNING", "STOPPING", "STOPPED"]);
  });

  it("marks a node whose start fails as ERROR with the reason from its log", async () => {
    const { sup, events } = makeSupervisor(join(root, "s2"));
    const spec = await makeSpec("fail");
    const state = await sup.start(spec);
    expect(state.status).toBe("ERROR");
    expect(state.errorMessage).toMatch(/^exited during start \(exit code 3\)\n/);
    expect(state.errorMessage).toContain("fatal: bad config key Foo.Bar");
    expect(events.find((e) => e.type === "crash")).toMatchObject({ exitCode: 3, willRestart: false });
  });

  it("reports a binary that can't be spawned as ERROR", async () => {
    const { sup } = makeSupervisor(join(root, "s2b"));
    const spec = { ...(await makeSpec()), command: join(root, "no-such-binary") };
    const state = await sup.start(spec);
    expect(state.status).toBe("ERROR");
    expect(state.errorMessage).toContain("ENOENT");
  });

  it("detects kill -9, records the crash and restarts the node", async () => {
    const { sup, events } = makeSupervisor(join(root, "s3"));
    const spec = await makeSpec();
    const first = await sup.start(spec);
    process.kill(first.pid as number, "SIGKILL");
    const back = await waitFor(() => {
      const s = sup.get(spec.id);
      return s?.status === "RUNNING" && s.pid !== first.pid ? s : undefined;
    });
    expect(back.restarts).toBe(1);
    const crash = events.find((e) => e.type === "crash");
    expect(crash).toMatchObject({ pid: first.pid, signal: "SIGKILL", exitCode: null, attempt: 1, willRestart: true });
    expect(await countProcesses(spec)).toBe(1);
    await sup.stop(spec.id);
  });

  it("gives up after repeated crashes and shows ERROR with the last log lines", async () => {
    const { sup, events } = makeSupervisor(join(root, "s4"), {
      restart: { baseDelayMs: 50, maxDelayMs: 100, maxAttempts: 2, resetAfterMs: 60_000 },
    });
    const spec = await makeSpec("crash-soon");
    expect((await sup.start(spec)).status).toBe("RUNNING");
    const state = await waitFor(() => (sup.get(spec.id)?.status === "ERROR" ? sup.get(spec.id) : undefined), 15_000);
    expect(state?.errorMessage).toMatch(/^exit code 2\ncrashed 3 times in a row/);
    expect(state?.errorMessage).toContain("panic: crashed on purpose");
    const crashes = events.filter((e) => e.type === "crash");
    expect(crashes.map((c) => (c.type === "crash" ? c.willRestart : null))).toEqual([true, true, false]);
    expect(crashes.map((c) => (c.type === "crash" ? c.attempt : null))).toEqual([1, 2, 3]);
  });

  it("counts restarts that fail before RUNNING, backs off, and gives up even after a long first run", async () => {
    // The first run outlives resetAfterMs; the restarts then never get to RUNNING. The count used to be
    // reset by that old run at every crash: attempt 1, a 1 s wait, for ever.
    const { sup, events } = makeSupervisor(join(root, "s-loop"), {
      restart: { baseDelayMs: 100, maxDelayMs: 300, maxAttempts: 3, resetAfterMs: 300 },
    });
    const flag = join(root, `broken-${n}`);
    const base = await makeSpec("fail-if");
    const spec = { ...base, args: [...base.args, flag] };
    const first = await sup.start(spec);
    expect(first.status).toBe("RUNNING");
    await sleep(500);
    writeFileSync(flag, "");
    process.kill(first.pid as number, "SIGKILL");
    const failed = await waitFor(() => (sup.get(spec.id)?.status === "ERROR" ? sup.get(spec.id) : undefined), 15_000);
    const crashes = events.flatMap((e) => (e.type === "crash" && e.id === spec.id ? [e] : []));
    expect(crashes.map((c) => [c.attempt, c.willRestart, c.restartInMs])).toEqual([
      [1, true, 100],
      [2, true, 200],
      [3, true, 300],
      [4, false, undefined],
    ]);
    expect(crashes.slice(1).map((c) => c.exitCode)).toEqual([4, 4, 4]);
    expect(failed.errorMessage).toMatch(/^exit code 4\ncrashed 4 times in a row, restarted 3 times/);
    expect(failed.errorMessage).toContain("is there");
    expect(failed.restarts).toBe(4);
    // Each attempt said which one it was while it ran.
    const starting = events.flatMap((e) =>
      e.type === "status" && e.id === spec.id && e.status === "STARTING" ? [e.errorMessage ?? ""] : [],
    );
    expect(starting).toEqual(
      expect.arrayContaining([
        "restarting in 0.1 s (attempt 1 of 3) after signal SIGKILL",
        "restarting in 0.2 s (attempt 2 of 3) after exit code 4",
        "restarted (attempt 3 of 3) after exit code 4",
      ]),
    );
    // And it stays stopped: no spawn after the verdict.
    const spawns = events.filter((e) => e.type === "spawned" && e.id === spec.id).length;
    expect(spawns).toBe(4);
    await sleep(800);
    expect(events.filter((e) => e.type === "spawned" && e.id === spec.id).length).toBe(spawns);
    expect(sup.get(spec.id)?.status).toBe("ERROR");
    // A start by the user begins a fresh count.
    rmSync(flag);
    expect((await sup.start(spec)).status).toBe("RUNNING");
    expect(sup.get(spec.id)?.restarts).toBe(0);
    await sup.stop(spec.id);
  });

  it("a stop of a spec that owns its folder also ends an untracked process of it, and nothing elsewhere", async () => {
    const { sup } = makeSupervisor(join(root, "s-owns"));
    const own = mkdtempSync(join(root, "owns-"));
    const other = mkdtempSync(join(root, "other-"));
    const spec = { ...(await makeSpec()), cwd: own, ownsCwd: true };
    await sup.start(spec);
    // A process of this node the supervisor does not know (as after a lost pid record), and the same
    // program in another folder.
    const keepAlive = ["-e", "setInterval(() => {}, 1000)"];
    const stray = spawn(process.execPath, keepAlive, { cwd: own, detached: true, stdio: "ignore" });
    const bystander = spawn(process.execPath, keepAlive, { cwd: other, detached: true, stdio: "ignore" });
    try {
      await waitFor(async () => (await isAlive(stray.pid as number)) && (await isAlive(bystander.pid as number)));
      expect((await sup.stop(spec.id)).status).toBe("STOPPED");
      await waitFor(async () => !(await isAlive(stray.pid as number)));
      expect(await isAlive(bystander.pid as number)).toBe(true);
    } finally {
      for (const c of [stray, bystander]) c.kill("SIGKILL");
    }
  });

  it("a start right after a stop is RUNNING and keeps its own pid file, however late the old exit is handled", async () => {
    // The old process's exit handler used to finish after the next start had spawned, and took that
    // start's record for a crash (CI at load 10: start answered STARTING, a restart was scheduled).
    const stateDir = join(root, "s-cycle");
    const { sup, events } = makeSupervisor(stateDir);
    const spec = idleProcessSpec("node-cycle", root);
    for (let i = 0; i < 12; i++) {
      const started = await sup.start(spec);
      expect(started.status).toBe("RUNNING");
      expect((await readPidRecord(join(stateDir, "pids", `${spec.id}.json`)))?.pid).toBe(started.pid);
      if (i % 2) await sup.restart(spec).then((s) => expect(s.status).toBe("RUNNING"));
      expect((await sup.stop(spec.id)).status).toBe("STOPPED");
    }
    await sleep(300);
    expect(events.filter((e) => e.type === "crash")).toEqual([]);
    expect(sup.get(spec.id)?.status).toBe("STOPPED");
  });

  it("sends SIGKILL when SIGTERM is ignored past the timeout", async () => {
    const { sup } = makeSupervisor(join(root, "s5"));
    const spec = await makeSpec("ignore-term");
    const { pid } = await sup.start(spec);
    const t0 = Date.now();
    const stopped = await sup.stop(spec.id, { timeoutMs: 500 });
    expect(stopped.status).toBe("STOPPED");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(450);
    expect(await isAlive(pid as number)).toBe(false);
  });

  it("leaves nodes running on close; a second supervisor adopts them without a duplicate and watches them", async () => {
    const stateDir = join(root, "s6");
    const one = makeSupervisor(stateDir);
    const spec = await makeSpec();
    const first = await one.sup.start(spec);
    one.sup.close(); // the console stops

    await sleep(300);
    expect(await isAlive(first.pid as number)).toBe(true);

    const two = makeSupervisor(stateDir); // the console restarts
    const adopted = await two.sup.start(spec);
    expect(adopted).toMatchObject({ status: "RUNNING", pid: first.pid, adopted: true });
    expect(two.events.some((e) => e.type === "adopted" && e.pid === first.pid)).toBe(true);
    expect(two.events.some((e) => e.type === "spawned")).toBe(false);
    expect(await countProcesses(spec)).toBe(1);

    // Crash detection for an adopted process goes through /proc polling.
    process.kill(first.pid as number, "SIGKILL");
    const back = await waitFor(() => {
      const s = two.sup.get(spec.id);
      return s?.status === "RUNNING" && s.pid !== first.pid ? s : undefined;
    });
    expect(back.adopted).toBe(false);
    expect(two.events.find((e) => e.type === "crash")).toMatchObject({
      pid: first.pid,
      exitCode: null,
      willRestart: true,
    });
    expect(await countProcesses(spec)).toBe(1);
    await two.sup.stop(spec.id);
    expect(await countProcesses(spec)).toBe(0);
  });

  it("does not adopt a pid that now belongs to another process", async () => {
    const stateDir = join(root, "s7");
    const spec = await makeSpec();
    // A pid file pointing at this test process, with a start time that does not match.
    await writePidRecord(join(stateDir, "pids", `${spec.id}.json`), {
      version: 1,
      id: spec.id,
      pid: process.pid,
      startTime: "1",
      bootId: "",
      command: spec.command,
      args: spec.args,
      cwd: root,
      logFile: join(stateDir, "x.log"),
      startedAt: new Date().toISOString(),
    });
    const { sup } = makeSupervisor(stateDir);
    const state = await sup.adopt(spec);
    expect(state.status).toBe("PENDING");
    expect(state.pid).toBeUndefined();
    expect(existsSync(join(stateDir, "pids", `${spec.id}.json`))).toBe(false);
    const started = await sup.start(spec);
    expect(started.pid).not.toBe(process.pid);
    await sup.stop(spec.id);
  });

  it("rotates the log by size with copytruncate while the node keeps writing", async () => {
    const { sup, events } = makeSupervisor(join(root, "s8"), {
      logRotation: { maxBytes: 20_000, keep: 2, checkIntervalMs: 100 },
    });
    const spec = await makeSpec("chatty");
    const state = await sup.start(spec);
    await waitFor(() => events.filter((e) => e.type === "log-rotated").length >= 3);
    expect(existsSync(`${state.logFile}.1`)).toBe(true);
    expect(existsSync(`${state.logFile}.2`)).toBe(true);
    expect(existsSync(`${state.logFile}.3`)).toBe(false);
    const size = statSync(state.logFile).size;
    await sleep(200);
    expect(statSync(state.logFile).size).not.toBe(size); // still writing into the live file
    expect((await sup.tailLog(spec.id, 2)).every((l) => l === "x".repeat(200) || l === "listening")).toBe(true);
    await sup.stop(spec.id);
  });

  it("keeps a node running and logging when the console process is killed, and the next console adopts it", async () => {
    const stateDir = join(root, "s9");
    const spec = await makeSpec("chatty");
    const { probe: _probe, ...plain } = spec;
    // The "console": a separate Node process that starts the node through the supervisor.
    const supervisorUrl = pathToFileURL(fileURLToPath(new URL("./supervisor.ts", import.meta.url))).href;
    const script = `
      const { createSupervisor } = await import(${JSON.stringify(supervisorUrl)});
      const sup = createSupervisor({ stateDir: ${JSON.stringify(stateDir)} });
      const state = await sup.start(${JSON.stringify(plain)});
      console.log("STARTED " + state.pid);
      setInterval(() => {}, 1000);
    `;
    const consoleProc = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    consoleProc.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const pid = Number((await waitFor(() => /STARTED (\d+)/.exec(out), 20_000))[1]);
    spawned.add(pid);

    consoleProc.kill("SIGKILL");
    await new Promise((r) => consoleProc.once("exit", r));
    await sleep(300);
    expect(await isAlive(pid)).toBe(true);
    const logFile = join(stateDir, "logs", `${spec.id}.log`);
    const size = statSync(logFile).size;
    await sleep(200);
    expect(statSync(logFile).size).toBeGreaterThan(size); // still logging without the console

    const { sup } = makeSupervisor(stateDir, { logRotation: { maxBytes: 1_000_000, keep: 1 } });
    const adopted = await sup.start(spec);
    expect(adopted).toMatchObject({ status: "RUNNING", pid, adopted: true });
    expect(await countProcesses(spec)).toBe(1);
    await sup.stop(spec.id);
    expect(await isAlive(pid)).toBe(false);
  });

  it("restart after a console restart replaces the old process instead of starting a second one", async () => {
    const stateDir = join(root, "s10");
    const one = makeSupervisor(stateDir);
    const spec = await makeSpec();
    const first = await one.sup.start(spec);
    one.sup.close();
    const two = makeSupervisor(stateDir);
    const again = await two.sup.restart(spec);
    expect(again.status).toBe("RUNNING");
    expect(again.pid).not.toBe(first.pid);
    expect(await isAlive(first.pid as number)).toBe(false);
    expect(await countProcesses(spec)).toBe(1);
    await two.sup.stop(spec.id);
  });

  it("gives a node without an explicit env none of the console's variables", async () => {
    process.env.CHAINLAUNCH_TEST_SECRET = "do-not-leak";
    try {
      const { sup } = makeSupervisor(join(root, "s11"));
      const spec: ProcessSpec = {
        id: "env-check",
        command: process.execPath,
        args: ["-e", "console.log(JSON.stringify(Object.keys(process.env)))"],
        cwd: root,
      };
      const state = await sup.start(spec);
      const keys = JSON.parse(
        (await waitFor(() => readFileSync(state.logFile, "utf8").trim() || undefined)) as string,
      ) as string[];
      expect(keys).not.toContain("CHAINLAUNCH_TEST_SECRET");
      expect(keys).toContain("PATH");
    } finally {
      delete process.env.CHAINLAUNCH_TEST_SECRET;
    }
  });
});
