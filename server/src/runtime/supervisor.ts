import { spawn, type ChildProcess } from "node:child_process";
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { backoffSchedule, crashVerdict, DEFAULT_RESTART_POLICY } from "./backoff.js";
import { RuntimeError } from "./errors.js";
import {
  closeFd,
  DEFAULT_LOG_ROTATION,
  openLogFd,
  readLastLines,
  rotateIfNeeded,
  type LogRotation,
} from "./log-files.js";
import { readPidRecord, removePidRecord, verifyPidRecord, writePidRecord, type PidRecord } from "./pid-file.js";
import {
  describeGroup,
  endProcessesOf,
  isAlive,
  readBootId,
  readProcStat,
  signalGroup,
  signalGroupMembers,
  waitGroupGone,
} from "./proc.js";
import type {
  ProcessSpec,
  ProcessState,
  ProcessStatus,
  RestartPolicy,
  Supervisor,
  SupervisorEvent,
  SupervisorOptions,
} from "./supervisor.types.js";

export type {
  ProcessSpec,
  ProcessState,
  ProcessStatus,
  RestartPolicy,
  Supervisor,
  SupervisorEvent,
  SupervisorOptions,
} from "./supervisor.types.js";

interface Entry {
  spec: ProcessSpec;
  status: ProcessStatus;
  errorMessage?: string;
  record?: PidRecord;
  child?: ChildProcess;
  adopted: boolean;
  /** Bumped on every spawn/adopt/stop, so callbacks of an older process are ignored. */
  generation: number;
  /** The user asked for it to be stopped; exits are expected. */
  wantStopped: boolean;
  /** The current run was started by start() (a failure then is a start failure, not a crash). */
  userStart: boolean;
  failures: number;
  runningSince?: number;
  restartTimer?: NodeJS.Timeout;
  pollTimer?: NodeJS.Timeout;
  probeAbort?: AbortController;
  exited?: () => void;
  /** The running onExit of the latest exit: a start that saw the process go waits for its verdict. */
  exitHandling?: Promise<void>;
  lock: Promise<unknown>;
}

const ID_RE = /^[A-Za-z0-9._-]{1,128}$/;

/** 1500 → "1.5 s": waits as an operator reads them. */
const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/** Without an explicit env a node gets only these, never the console's secrets. */
/** The environment a supervised child gets by default: PATH, HOME, TMPDIR, LANG and TZ of the console. */
export function minimalEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ["PATH", "HOME", "TMPDIR", "LANG", "TZ"]) {
    const v = process.env[k];
    if (v !== undefined) env[k] = v;
  }
  return env;
}

/** Creates a supervisor for mode "service": detached child processes, no root, no systemd. */
export function createSupervisor(opts: SupervisorOptions): Supervisor {
  const entries = new Map<string, Entry>();
  const policy: RestartPolicy = { ...DEFAULT_RESTART_POLICY, ...opts.restart };
  const stopTimeoutMs = opts.stopTimeoutMs ?? 10_000;
  const pollIntervalMs = opts.pollIntervalMs ?? 1000;
  const probeIntervalMs = opts.probeIntervalMs ?? 500;
  const rotation: LogRotation = opts.logRotation ?? DEFAULT_LOG_ROTATION;
  const logLines = opts.logLinesOnError ?? 20;
  let closed = false;

  const pidFile = (id: string): string => join(opts.stateDir, "pids", `${id}.json`);
  const logFileOf = (spec: ProcessSpec): string => spec.logFile ?? join(opts.stateDir, "logs", `${spec.id}.log`);
  const emit = (event: SupervisorEvent): void => {
    try {
      opts.onEvent?.(event);
    } catch {
      // a listener's failure must not break supervision
    }
  };

  const rotateTimer = setInterval(() => {
    for (const [id, e] of entries) {
      if (!e.record) continue;
      const file = logFileOf(e.spec);
      void rotateIfNeeded(file, rotation)
        .then((rotated) => rotated && emit({ type: "log-rotated", id, logFile: file }))
        .catch(() => undefined);
    }
  }, opts.logRotation?.checkIntervalMs ?? 10_000);
  rotateTimer.unref();

  function stateOf(e: Entry): ProcessState {
    return {
      id: e.spec.id,
      status: e.status,
      ...(e.record ? { pid: e.record.pid, startedAt: e.record.startedAt } : {}),
      ...(e.errorMessage ? { errorMessage: e.errorMessage } : {}),
      restarts: e.failures,
      logFile: logFileOf(e.spec),
      adopted: e.adopted,
    };
  }

  function setStatus(e: Entry, status: ProcessStatus, errorMessage?: string): void {
    const previous = e.status;
    const previousMessage = e.errorMessage;
    e.status = status;
    e.errorMessage = errorMessage;
    if (status === "RUNNING") e.runningSince = Date.now();
    // Every change reaches the listeners (a restart's next attempt is STARTING → STARTING with a new reason).
    if (previous !== status || (errorMessage !== undefined && errorMessage !== previousMessage)) {
      emit({
        type: "status",
        id: e.spec.id,
        status,
        previous,
        ...(e.record ? { pid: e.record.pid } : {}),
        ...(errorMessage ? { errorMessage } : {}),
      });
    }
  }

  function entryFor(spec: ProcessSpec): Entry {
    if (!ID_RE.test(spec.id)) throw new RuntimeError("PROCESS_UNKNOWN", `invalid process id "${spec.id}"`);
    let e = entries.get(spec.id);
    if (!e) {
      e = {
        spec,
        status: "PENDING",
        adopted: false,
        generation: 0,
        wantStopped: false,
        userStart: false,
        failures: 0,
        lock: Promise.resolve(),
      };
      entries.set(spec.id, e);
    }
    e.spec = spec;
    return e;
  }

  /** Runs `fn` after every earlier operation on the same node. */
  function serial<T>(e: Entry, fn: () => Promise<T>): Promise<T> {
    const next = e.lock.then(fn, fn);
    e.lock = next.catch(() => undefined);
    return next;
  }

  function clearTimers(e: Entry): void {
    if (e.restartTimer) clearTimeout(e.restartTimer);
    if (e.pollTimer) clearInterval(e.pollTimer);
    e.probeAbort?.abort();
    e.restartTimer = undefined;
    e.pollTimer = undefined;
    e.probeAbort = undefined;
  }

  async function lastLines(e: Entry): Promise<string[]> {
    return readLastLines(logFileOf(e.spec), logLines);
  }

  async function isOurs(e: Entry): Promise<boolean> {
    if (!e.record) return false;
    if (e.child && e.child.exitCode === null && e.child.signalCode === null) return isAlive(e.record.pid);
    return (await verifyPidRecord(e.record)).ok;
  }

  /** Called once per process when it is gone, from the child's exit event or the /proc poller. */
  async function onExit(e: Entry, generation: number, code: number | null, signal: string | null): Promise<void> {
    if (generation !== e.generation || closed) return;
    e.generation++;
    const pid = e.record?.pid ?? 0;
    const wasRunning = e.status === "RUNNING";
    clearTimers(e);
    e.child = undefined;
    e.exited?.();
    await removePidRecord(pidFile(e.spec.id));
    if (e.wantStopped) return;
    // The leader died on its own: what it launched (a sandboxed server below bwrap) goes with it,
    // so a restart finds the port free. (A stop lets them end on SIGTERM first.)
    if (pid) await signalGroupMembers(pid, "SIGKILL");

    const lines = await lastLines(e);
    const how =
      code !== null ? `exit code ${code}` : signal ? `signal ${signal}` : "exit status unknown (adopted process)";
    const tail = `last log lines:\n${lines.join("\n")}`;
    // How long the run that just ended was up: only that run may start a fresh count.
    const ranForMs = wasRunning && e.runningSince ? Date.now() - e.runningSince : undefined;
    e.runningSince = undefined;
    e.record = undefined;
    if (e.userStart && !wasRunning) {
      // A start the user asked for fails at once with its reason: restarting it would only hide it.
      e.failures = 1;
      emit({
        type: "crash",
        id: e.spec.id,
        pid,
        exitCode: code,
        signal,
        lastLogLines: lines,
        attempt: 1,
        willRestart: false,
      });
      setStatus(e, "ERROR", `failed: ${how} during start\n${tail}`);
      return;
    }
    const verdict = crashVerdict(policy, e.failures, ranForMs);
    e.failures = verdict.attempt;
    emit({
      type: "crash",
      id: e.spec.id,
      pid,
      exitCode: code,
      signal,
      lastLogLines: lines,
      attempt: verdict.attempt,
      willRestart: verdict.willRestart,
      ...(verdict.willRestart ? { restartInMs: verdict.delayMs } : {}),
    });
    if (!verdict.willRestart) {
      setStatus(
        e,
        "ERROR",
        `failed: ${how}\ncrashed ${verdict.attempt} times in a row, restarted ${policy.maxAttempts} times; no more restarts\n${tail}`,
      );
      return;
    }
    const restarting = `restarting in ${seconds(verdict.delayMs)} (attempt ${verdict.attempt} of ${policy.maxAttempts}) after ${how}`;
    setStatus(e, "STARTING", restarting);
    e.restartTimer = setTimeout(() => {
      e.restartTimer = undefined;
      serial(e, async () => {
        if (e.wantStopped || closed || e.record) return;
        e.userStart = false;
        // The new attempt keeps saying why it is one until it is RUNNING.
        await spawnProcess(e, `restarted (attempt ${verdict.attempt} of ${policy.maxAttempts}) after ${how}`);
      })
        .then(() => awaitReady(e, e.generation))
        .catch((err: unknown) => setStatus(e, "ERROR", `failed: restart failed: ${(err as Error).message}`));
    }, verdict.delayMs);
    e.restartTimer.unref();
  }

  /** onExit from a timer or event callback: a failure there must not become an unhandled rejection. */
  function onExitSafe(e: Entry, generation: number, code: number | null, signal: string | null): void {
    e.exitHandling = onExit(e, generation, code, signal).catch((err: unknown) =>
      setStatus(e, "ERROR", `failed: supervision failed after exit: ${(err as Error).message}`),
    );
  }

  /** Watches a process we did not spawn (or whose exit event we can't get) through /proc. */
  function watch(e: Entry, generation: number): void {
    e.pollTimer = setInterval(() => {
      const record = e.record;
      if (!record || generation !== e.generation) return;
      void readProcStat(record.pid).then((stat) => {
        const gone = !stat || stat.state === "Z" || stat.state === "X" || stat.startTime !== record.startTime;
        // Own children report through their exit event, which carries the exit code; one that has an
        // exit status but reached no listener is reported from here with it.
        const child = e.child;
        if (!gone) return;
        if (!child) onExitSafe(e, generation, null, null);
        else if (child.exitCode !== null || child.signalCode !== null)
          onExitSafe(e, generation, child.exitCode, child.signalCode);
      });
    }, pollIntervalMs);
    e.pollTimer.unref();
  }

  /** Spawns the node; `reason` is the STARTING message of a restart (why this attempt is one). */
  async function spawnProcess(e: Entry, reason?: string): Promise<void> {
    const spec = e.spec;
    const logFile = logFileOf(spec);
    const fd = await openLogFd(logFile);
    let child: ChildProcess;
    try {
      child = spawn(spec.command, spec.args, {
        cwd: spec.cwd,
        env: spec.env ?? minimalEnv(),
        // Own session and process group: the node survives the console, and stop() can signal the group.
        detached: true,
        stdio: ["ignore", fd, fd],
      });
    } finally {
      closeFd(fd);
    }
    // Listened to at once: a child that fails fast can exit while the pid record is written below, and
    // an 'exit' emitted before anyone listens is lost (the start then waited for its full deadline).
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once("exit", (code, signal) => resolve([code, signal])),
    );
    const spawnError = await new Promise<Error | null>((resolve) => {
      if (child.pid !== undefined) return resolve(null);
      child.once("error", (err) => resolve(err));
    });
    if (spawnError || child.pid === undefined) {
      e.record = undefined;
      setStatus(e, "ERROR", `failed: could not start ${spec.command}: ${spawnError?.message ?? "no pid"}`);
      return;
    }
    child.unref();
    const pid = child.pid;
    const stat = await readProcStat(pid);
    const record: PidRecord = {
      version: 1,
      id: spec.id,
      pid,
      startTime: stat?.startTime ?? "",
      bootId: await readBootId(),
      command: spec.command,
      args: spec.args,
      cwd: spec.cwd,
      logFile,
      startedAt: new Date().toISOString(),
    };
    e.generation++;
    const generation = e.generation;
    e.record = record;
    e.child = child;
    e.adopted = false;
    void exited.then(([code, signal]) => onExitSafe(e, generation, code, signal));
    await writePidRecord(pidFile(spec.id), record);
    emit({ type: "spawned", id: spec.id, pid });
    setStatus(e, "STARTING", reason);
    watch(e, generation);
  }

  /** Probes until ready (RUNNING), the process exits (onExit decides), or the deadline (ERROR). */
  async function awaitReady(e: Entry, generation: number): Promise<ProcessState> {
    if (!e.record || e.status !== "STARTING" || generation !== e.generation) return stateOf(e);
    if (e.probeAbort) {
      // Another caller is already probing this process: wait for its verdict.
      const wait = backoffSchedule({ capMs: probeIntervalMs });
      while (e.status === "STARTING" && e.probeAbort) await sleep(wait());
      return stateOf(e);
    }
    const abort = new AbortController();
    e.probeAbort = abort;
    const timeoutMs = e.spec.startTimeoutMs ?? opts.startTimeoutMs ?? 60_000;
    const deadline = Date.now() + timeoutMs;
    // Short first checks, backing off to probeIntervalMs: most nodes answer within a few hundred ms.
    const nextDelay = backoffSchedule({ capMs: probeIntervalMs });
    const pid = e.record.pid;
    const minUptime = opts.minUptimeMs ?? 300;
    while (!abort.signal.aborted && generation === e.generation) {
      let ready = false;
      if (e.spec.probe) {
        ready = await e.spec.probe({ pid, signal: abort.signal }).catch(() => false);
      } else {
        await sleep(minUptime);
        ready = await isAlive(pid);
      }
      if (abort.signal.aborted || generation !== e.generation) break;
      if (ready && (await isAlive(pid))) {
        setStatus(e, "RUNNING");
        break;
      }
      if (Date.now() > deadline) {
        const lines = await lastLines(e);
        // What was still running, and in which state: says whether it hung, waited or never began.
        const running = await describeGroup(pid);
        e.wantStopped = true;
        await terminate(e, stopTimeoutMs);
        e.wantStopped = false;
        setStatus(
          e,
          "ERROR",
          `failed: not ready within ${timeoutMs / 1000} s${running ? ` (running: ${running})` : ""}; last log lines:\n${lines.join("\n")}`,
        );
        break;
      }
      await sleep(nextDelay());
    }
    if (e.probeAbort === abort) e.probeAbort = undefined;
    // The process went away while we probed: onExit decides (ERROR or a restart); wait for its verdict
    // rather than report the STARTING it is about to replace.
    if (generation !== e.generation && e.exitHandling) await e.exitHandling;
    return stateOf(e);
  }

  /** SIGTERM, wait, SIGKILL. Signals only a process verified to be ours. */
  async function terminate(e: Entry, timeoutMs: number): Promise<void> {
    await terminateTracked(e, timeoutMs);
    if (!e.spec.ownsCwd) return;
    // Whatever else still runs this node's program in its folder was lost track of: end it too.
    const left = await endProcessesOf(e.spec.cwd, e.spec.command);
    if (left.length && e.spec.logFile) {
      const line = `[chainlaunch] ${new Date().toISOString()} stop also ended untracked process(es) ${left.join(", ")}\n`;
      await appendFile(e.spec.logFile, line).catch(() => undefined);
    }
  }

  async function terminateTracked(e: Entry, timeoutMs: number): Promise<void> {
    const record = e.record;
    if (!record || !(await isOurs(e))) {
      e.generation++;
      clearTimers(e);
      e.record = undefined;
      e.child = undefined;
      await removePidRecord(pidFile(e.spec.id));
      return;
    }
    const gone = new Promise<void>((resolve) => (e.exited = resolve));
    const waitGone = (ms: number): Promise<boolean> => waitGroupGone(record.pid, gone, ms);
    signalGroup(record.pid, "SIGTERM");
    if (!(await waitGone(timeoutMs))) {
      if (await isOurs(e)) signalGroup(record.pid, "SIGKILL");
      await signalGroupMembers(record.pid, "SIGKILL");
      await waitGone(5000);
    }
    e.exited = undefined;
    e.generation++;
    clearTimers(e);
    e.record = undefined;
    e.child = undefined;
    await removePidRecord(pidFile(e.spec.id));
  }

  /** Attaches to the process in the pid file when it verifies; true when attached. */
  async function tryAdopt(e: Entry): Promise<boolean> {
    const record = await readPidRecord(pidFile(e.spec.id));
    if (!record || record.id !== e.spec.id) return false;
    const verdict = await verifyPidRecord(record);
    if (!verdict.ok) {
      await removePidRecord(pidFile(e.spec.id));
      return false;
    }
    e.generation++;
    e.record = record;
    e.child = undefined;
    e.adopted = true;
    emit({ type: "adopted", id: e.spec.id, pid: record.pid });
    setStatus(e, "STARTING");
    watch(e, e.generation);
    return true;
  }

  async function start(spec: ProcessSpec): Promise<ProcessState> {
    const e = entryFor(spec);
    const generation = await serial(e, async () => {
      e.wantStopped = false;
      if (e.restartTimer) clearTimeout(e.restartTimer);
      e.restartTimer = undefined;
      if (e.record && (await isOurs(e))) return e.generation; // already running: no duplicate
      e.userStart = true;
      e.failures = 0;
      if (!(await tryAdopt(e))) await spawnProcess(e);
      return e.generation;
    });
    return awaitReady(e, generation);
  }

  async function adopt(spec: ProcessSpec): Promise<ProcessState> {
    const e = entryFor(spec);
    const generation = await serial(e, async () => {
      if (e.record && (await isOurs(e))) return e.generation;
      e.userStart = false;
      return (await tryAdopt(e)) ? e.generation : -1;
    });
    if (generation < 0) return stateOf(e);
    return awaitReady(e, generation);
  }

  async function stop(id: string, stopOpts: { timeoutMs?: number } = {}): Promise<ProcessState> {
    const e = entries.get(id);
    if (!e) throw new RuntimeError("PROCESS_UNKNOWN", `no supervised process "${id}"`, { id });
    return serial(e, async () => {
      e.wantStopped = true;
      clearTimers(e);
      if (e.record) setStatus(e, "STOPPING");
      await terminate(e, stopOpts.timeoutMs ?? stopTimeoutMs);
      setStatus(e, "STOPPED");
      return stateOf(e);
    });
  }

  async function restart(spec: ProcessSpec): Promise<ProcessState> {
    // After a console restart the node may still run unadopted: find it first, so the old process stops.
    if (!entries.has(spec.id)) await adopt(spec);
    await stop(spec.id);
    return start(spec);
  }

  return {
    start,
    stop,
    restart,
    adopt,
    get: (id) => {
      const e = entries.get(id);
      return e ? stateOf(e) : undefined;
    },
    list: () => [...entries.values()].map(stateOf),
    tailLog: async (id, lines) => {
      const e = entries.get(id);
      if (!e) throw new RuntimeError("PROCESS_UNKNOWN", `no supervised process "${id}"`, { id });
      return readLastLines(logFileOf(e.spec), lines);
    },
    remove: (id) => {
      const e = entries.get(id);
      if (e) clearTimers(e);
      entries.delete(id);
    },
    close: () => {
      closed = true;
      clearInterval(rotateTimer);
      for (const e of entries.values()) {
        clearTimers(e);
        e.child?.removeAllListeners("exit");
        e.child = undefined;
      }
    },
  };
}
