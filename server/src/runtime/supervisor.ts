import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { crashVerdict, DEFAULT_RESTART_POLICY } from "./backoff.js";
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
import { readBootId, readProcStat, signalGroupMembers } from "./proc.js";
import { clearTimers, ID_RE, isOurs, minimalEnv, serial, type Entry } from "./supervisor.entry.js";
import { awaitReady as awaitReadyOf } from "./supervisor.ready.js";
import { terminate as terminateNode } from "./supervisor.stop.js";
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

export { minimalEnv } from "./supervisor.entry.js";

/** 1500 → "1.5 s": waits as an operator reads them. */
const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

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

  async function lastLines(e: Entry): Promise<string[]> {
    return readLastLines(logFileOf(e.spec), logLines);
  }

  /** Called once per process when it is gone, from the child's exit event or the /proc poller. */
  async function onExit(e: Entry, generation: number, code: number | null, signal: string | null): Promise<void> {
    if (generation !== e.generation || closed) return;
    const handling = ++e.generation;
    const pid = e.record?.pid ?? 0;
    const wasRunning = e.status === "RUNNING";
    clearTimers(e);
    e.child = undefined;
    e.exited?.();
    // Read before any await: a stop that ended this process finishes (and a start may spawn the next
    // one) while the awaits below run, and this handler must not then treat the exit as a crash.
    if (e.wantStopped) return;
    await removePidRecord(pidFile(e.spec.id));
    // The leader died on its own: what it launched (a sandboxed server below bwrap) goes with it,
    // so a restart finds the port free. (A stop lets them end on SIGTERM first.)
    if (pid) await signalGroupMembers(pid, "SIGKILL");

    const lines = await lastLines(e);
    // A stop or start that came in while the awaits above ran owns the entry now (its record, status
    // and pid file belong to the next process): this exit is no longer ours to report.
    if (handling !== e.generation || e.wantStopped) return;
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
      setStatus(e, "ERROR", `exited during start (${how})\n${tail}`);
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
        `${how}\ncrashed ${verdict.attempt} times in a row, restarted ${policy.maxAttempts} times; no more restarts\n${tail}`,
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
        .catch((err: unknown) => setStatus(e, "ERROR", `restart failed: ${(err as Error).message}`));
    }, verdict.delayMs);
    e.restartTimer.unref();
  }

  /** onExit from a timer or event callback: a failure there must not become an unhandled rejection. */
  function onExitSafe(e: Entry, generation: number, code: number | null, signal: string | null): void {
    e.exitHandling = onExit(e, generation, code, signal).catch((err: unknown) =>
      setStatus(e, "ERROR", `supervision failed after exit: ${(err as Error).message}`),
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
      setStatus(e, "ERROR", `could not start ${spec.command}: ${spawnError?.message ?? "no pid"}`);
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
  function awaitReady(e: Entry, generation: number): Promise<ProcessState> {
    const deps = { opts, probeIntervalMs, stopTimeoutMs, stateOf, setStatus, lastLines, terminate };
    return awaitReadyOf(deps, e, generation);
  }

  function terminate(e: Entry, timeoutMs: number): Promise<void> {
    return terminateNode(e, timeoutMs, pidFile(e.spec.id));
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
