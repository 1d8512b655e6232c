import { stat } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type Docker from "dockerode";
import { backoffSchedule, crashVerdict, DEFAULT_RESTART_POLICY } from "../backoff.js";
import { RuntimeError } from "../errors.js";
import { DEFAULT_LOG_ROTATION, readLastLines, rotateIfNeeded, type LogRotation } from "../log-files.js";
import type {
  ContainerSpec,
  ProcessSpec,
  ProcessState,
  ProcessStatus,
  RestartPolicy,
  Supervisor,
  SupervisorEvent,
  SupervisorOptions,
} from "../supervisor.types.js";
import type { DockerEndpoint } from "./engine.js";
import { containerName, createOptions, followLogs, inspectContainer, ipOf } from "./containers.js";
import { ensureImage } from "./images.js";
import { consoleNetworks, isNetworkMissing, LABEL } from "./networks.js";

export { consoleTagOf, containerName } from "./containers.js";
export { LABEL } from "./networks.js";

interface Entry {
  spec: ProcessSpec;
  status: ProcessStatus;
  errorMessage?: string;
  containerId?: string;
  /** Its address on its network (none on the host's network). */
  containerIp?: string;
  pid?: number;
  startedAt?: string;
  adopted: boolean;
  generation: number;
  wantStopped: boolean;
  userStart: boolean;
  failures: number;
  runningSince?: number;
  restartTimer?: NodeJS.Timeout;
  probeAbort?: AbortController;
  /** Aborts the wait and log requests of the current run. */
  runAbort?: AbortController;
  exitHandling?: Promise<void>;
  lock: Promise<unknown>;
}

const ID_RE = /^[A-Za-z0-9._-]{1,128}$/;

export interface ContainerSupervisorOptions extends SupervisorOptions {
  docker: Docker;
  endpoint: DockerEndpoint;
  /**
   * Tells this console's containers from another console's on the same engine (a short hash of
   * its data folder): names and the `console` label carry it.
   */
  consoleTag: string;
}

/**
 * A supervisor for mode "docker": each node is a container on one engine, with the same
 * guarantees as the process supervisor. Crashes restart with the same backoff and give up to ERROR
 * after as many attempts; output goes to the same log file (followed from the engine); a container
 * left running by an earlier console is adopted by its name and labels, never duplicated; stop
 * removes the container, so nothing is left behind. Files the container writes belong to the
 * console's user (it runs as that uid), and it keeps no capability.
 */
export function createContainerSupervisor(opts: ContainerSupervisorOptions): Supervisor {
  const { docker, endpoint, consoleTag } = opts;
  const entries = new Map<string, Entry>();
  const policy: RestartPolicy = { ...DEFAULT_RESTART_POLICY, ...opts.restart };
  const stopTimeoutMs = opts.stopTimeoutMs ?? 10_000;
  const probeIntervalMs = opts.probeIntervalMs ?? 500;
  const rotation: LogRotation = opts.logRotation ?? DEFAULT_LOG_ROTATION;
  const logLines = opts.logLinesOnError ?? 20;
  let closed = false;

  const logFileOf = (spec: ProcessSpec): string => spec.logFile ?? join(opts.stateDir, "logs", `${spec.id}.log`);
  const nameOf = (id: string): string => containerName(consoleTag, id);
  const emit = (event: SupervisorEvent): void => {
    try {
      opts.onEvent?.(event);
    } catch {
      // a listener's failure must not break supervision
    }
  };

  const rotateTimer = setInterval(() => {
    for (const [id, e] of entries) {
      if (!e.containerId) continue;
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
      ...(e.pid ? { pid: e.pid } : {}),
      ...(e.startedAt ? { startedAt: e.startedAt } : {}),
      ...(e.errorMessage ? { errorMessage: e.errorMessage } : {}),
      restarts: e.failures,
      logFile: logFileOf(e.spec),
      adopted: e.adopted,
      ...(e.containerId
        ? {
            container: {
              id: e.containerId,
              name: nameOf(e.spec.id),
              image: e.spec.container?.image ?? "",
              engine: endpoint.name,
            },
          }
        : {}),
    };
  }

  function setStatus(e: Entry, status: ProcessStatus, errorMessage?: string): void {
    const previous = e.status;
    e.status = status;
    e.errorMessage = errorMessage;
    if (status === "RUNNING") e.runningSince = Date.now();
    if (previous !== status || errorMessage) {
      emit({
        type: "status",
        id: e.spec.id,
        status,
        previous,
        ...(e.pid ? { pid: e.pid } : {}),
        ...(errorMessage ? { errorMessage } : {}),
      });
    }
  }

  function entryFor(spec: ProcessSpec): Entry {
    if (!ID_RE.test(spec.id)) throw new RuntimeError("PROCESS_UNKNOWN", `invalid process id "${spec.id}"`);
    if (!spec.container) throw new RuntimeError("PROCESS_UNKNOWN", `"${spec.id}" has no container spec`);
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

  function serial<T>(e: Entry, fn: () => Promise<T>): Promise<T> {
    const next = e.lock.then(fn, fn);
    e.lock = next.catch(() => undefined);
    return next;
  }

  function clearTimers(e: Entry): void {
    if (e.restartTimer) clearTimeout(e.restartTimer);
    e.probeAbort?.abort();
    e.runAbort?.abort();
    e.restartTimer = undefined;
    e.probeAbort = undefined;
    e.runAbort = undefined;
  }

  const lastLines = (e: Entry): Promise<string[]> => readLastLines(logFileOf(e.spec), logLines);

  const inspect = (name: string): Promise<Docker.ContainerInspectInfo | undefined> => inspectContainer(docker, name);
  const networks = consoleNetworks(docker, endpoint.host, consoleTag);

  /** Watches the current run: logs to the file, and its exit to onExit. */
  function watch(e: Entry, containerId: string, since: number): void {
    const abort = new AbortController();
    e.runAbort = abort;
    const generation = e.generation;
    void followLogs(docker, containerId, logFileOf(e.spec), since, abort.signal).catch(() => undefined);
    void docker
      .getContainer(containerId)
      .wait({ abortSignal: abort.signal } as object)
      .then((r: { StatusCode?: number }) => {
        if (abort.signal.aborted) return;
        onExitSafe(e, generation, typeof r.StatusCode === "number" ? r.StatusCode : null);
      })
      .catch(async () => {
        if (abort.signal.aborted || closed) return;
        // The engine went away or forgot the container: look once more before calling it gone.
        const info = await inspect(containerId).catch(() => undefined);
        if (!info?.State?.Running) onExitSafe(e, generation, info?.State?.ExitCode ?? null);
      });
  }

  async function onExit(e: Entry, generation: number, code: number | null): Promise<void> {
    if (generation !== e.generation || closed) return;
    const handling = ++e.generation;
    const pid = e.pid ?? 0;
    const wasRunning = e.status === "RUNNING";
    const containerId = e.containerId;
    clearTimers(e);
    if (e.wantStopped) return;
    // Give the log follower a moment to write the last lines before they are quoted.
    await sleep(100);
    const lines = await lastLines(e);
    // A stop or start that came in meanwhile owns the entry now: this exit is no longer ours to report.
    if (handling !== e.generation || e.wantStopped) return;
    const how = code !== null ? `exit code ${code}` : "exit status unknown";
    // Only the run that just ended may start a fresh count (see crashVerdict).
    const ranForMs = wasRunning && e.runningSince ? Date.now() - e.runningSince : undefined;
    e.runningSince = undefined;
    if (e.userStart && !wasRunning) {
      emit({
        type: "crash",
        id: e.spec.id,
        pid,
        exitCode: code,
        signal: null,
        lastLogLines: lines,
        attempt: 1,
        willRestart: false,
      });
      setStatus(e, "ERROR", `exited during start (${how})\nlast log lines:\n${lines.join("\n")}`);
      return;
    }
    const { attempt, willRestart, delayMs: delay } = crashVerdict(policy, e.failures, ranForMs);
    e.failures = attempt;
    emit({
      type: "crash",
      id: e.spec.id,
      pid,
      exitCode: code,
      signal: null,
      lastLogLines: lines,
      attempt: e.failures,
      willRestart,
      ...(willRestart ? { restartInMs: delay } : {}),
    });
    if (!willRestart) {
      setStatus(
        e,
        "ERROR",
        `${how}\ncrashed ${attempt} times in a row, restarted ${policy.maxAttempts} times; no more restarts\nlast log lines:\n${lines.join("\n")}`,
      );
      return;
    }
    setStatus(
      e,
      "STARTING",
      `restarting in ${Math.round(delay / 100) / 10} s (attempt ${attempt} of ${policy.maxAttempts}) after ${how}`,
    );
    e.restartTimer = setTimeout(() => {
      e.restartTimer = undefined;
      serial(e, async () => {
        if (e.wantStopped || closed || !containerId || e.containerId !== containerId) return;
        e.userStart = false;
        await run(e, containerId);
      })
        .then(() => awaitReady(e, e.generation))
        .catch((err: unknown) => setStatus(e, "ERROR", `restart failed: ${(err as Error).message}`));
    }, delay);
    e.restartTimer.unref();
  }

  function onExitSafe(e: Entry, generation: number, code: number | null): void {
    e.exitHandling = onExit(e, generation, code).catch((err: unknown) =>
      setStatus(e, "ERROR", `supervision failed after exit: ${(err as Error).message}`),
    );
  }

  /** Starts (again) an existing container and watches it. */
  async function run(e: Entry, containerId: string, attempt = 1): Promise<void> {
    const since = Date.now() / 1000;
    const c = docker.getContainer(containerId);
    try {
      await c.start();
    } catch (err) {
      // Its network was removed under it (`docker network prune`, or another console on the engine
      // whose check ran before this container existed): a container that ran once names its network
      // by id, so it is made again from the spec, on the network made again.
      if (isNetworkMissing(err) && attempt < 3) return create(e, attempt + 1);
      if ((err as { statusCode?: number }).statusCode !== 304) throw err; // 304: already running
    }
    const info = await c.inspect();
    e.generation++;
    e.containerId = containerId;
    e.containerIp = ipOf(info, e.spec.container?.network);
    e.pid = info.State.Pid || undefined;
    e.startedAt = info.State.StartedAt;
    e.adopted = false;
    emit({ type: "spawned", id: e.spec.id, pid: e.pid ?? 0, containerId });
    setStatus(e, "STARTING");
    watch(e, containerId, since);
  }

  /** Creates the container from the spec (removing one of the same name first) and runs it. */
  async function create(e: Entry, attempt = 1): Promise<void> {
    const c = e.spec.container as ContainerSpec;
    const name = nameOf(e.spec.id);
    const old = await inspect(name);
    if (old) await docker.getContainer(old.Id).remove({ force: true, v: true });
    // "host": the host's network namespace (no ports to publish, loopback is the host's).
    const hostNet = c.network === "host";
    await ensureImage(docker, c.image);
    const make = (): Promise<Docker.Container> =>
      docker.createContainer(createOptions(c, { name, consoleTag, id: e.spec.id }));
    // On the network's queue: a removal waits until the container is on it (and then keeps the network).
    const created = hostNet ? await make() : await networks.on(c.network, make);
    await run(e, created.id, attempt);
  }

  /** Attaches to this node's container when it runs; true when attached. */
  async function tryAdopt(e: Entry): Promise<boolean> {
    const info = await inspect(nameOf(e.spec.id));
    if (!info) return false;
    if (info.Config.Labels?.[LABEL.console] !== consoleTag || !info.State.Running) {
      // Not ours to keep, or stopped: start() makes it again from the spec.
      if (info.Config.Labels?.[LABEL.console] === consoleTag) {
        await docker.getContainer(info.Id).remove({ force: true, v: true });
      }
      return false;
    }
    // Output the console missed while it was down: from the log file's last write.
    const mtime = await stat(logFileOf(e.spec)).then(
      (s) => s.mtimeMs / 1000,
      () => Date.parse(info.State.StartedAt) / 1000,
    );
    e.generation++;
    e.containerId = info.Id;
    e.containerIp = ipOf(info, e.spec.container?.network);
    e.pid = info.State.Pid || undefined;
    e.startedAt = info.State.StartedAt;
    e.adopted = true;
    emit({ type: "adopted", id: e.spec.id, pid: e.pid ?? 0 });
    setStatus(e, "STARTING");
    watch(e, info.Id, mtime);
    return true;
  }

  async function isRunning(e: Entry): Promise<boolean> {
    if (!e.containerId) return false;
    const info = await inspect(e.containerId).catch(() => undefined);
    return Boolean(info?.State?.Running);
  }

  async function awaitReady(e: Entry, generation: number): Promise<ProcessState> {
    if (!e.containerId || e.status !== "STARTING" || generation !== e.generation) return stateOf(e);
    if (e.probeAbort) {
      const wait = backoffSchedule({ capMs: probeIntervalMs });
      while (e.status === "STARTING" && e.probeAbort) await sleep(wait());
      return stateOf(e);
    }
    const abort = new AbortController();
    e.probeAbort = abort;
    const timeoutMs = e.spec.startTimeoutMs ?? opts.startTimeoutMs ?? 60_000;
    const deadline = Date.now() + timeoutMs;
    const nextDelay = backoffSchedule({ capMs: probeIntervalMs });
    const minUptime = opts.minUptimeMs ?? 300;
    while (!abort.signal.aborted && generation === e.generation) {
      let ready: boolean;
      if (e.spec.probe) {
        ready = await e.spec
          .probe({
            pid: e.pid ?? 0,
            signal: abort.signal,
            container: true,
            ...(e.containerIp ? { containerIp: e.containerIp } : {}),
          })
          .catch(() => false);
      } else {
        await sleep(minUptime);
        ready = true;
      }
      if (abort.signal.aborted || generation !== e.generation) break;
      if (ready && (await isRunning(e))) {
        setStatus(e, "RUNNING");
        break;
      }
      if (Date.now() > deadline) {
        const lines = await lastLines(e);
        e.wantStopped = true;
        await terminate(e, stopTimeoutMs);
        e.wantStopped = false;
        setStatus(e, "ERROR", `not ready within ${timeoutMs / 1000} s; last log lines:\n${lines.join("\n")}`);
        break;
      }
      await sleep(nextDelay());
    }
    if (e.probeAbort === abort) e.probeAbort = undefined;
    if (generation !== e.generation && e.exitHandling) await e.exitHandling;
    return stateOf(e);
  }

  /** Stops the container (SIGTERM, then SIGKILL after the timeout) and removes it. */
  async function terminate(e: Entry, timeoutMs: number): Promise<void> {
    const name = nameOf(e.spec.id);
    e.generation++;
    clearTimers(e);
    const info = await inspect(e.containerId ?? name);
    const joined = [...Object.keys(info?.NetworkSettings?.Networks ?? {}), e.spec.container?.network ?? "host"];
    if (info) {
      const c = docker.getContainer(info.Id);
      if (info.State.Running) {
        await c.stop({ t: Math.max(1, Math.ceil(timeoutMs / 1000)) }).catch((err: { statusCode?: number }) => {
          if (err.statusCode !== 304 && err.statusCode !== 404) throw err;
        });
      }
      await c.remove({ force: true, v: true }).catch((err: { statusCode?: number }) => {
        if (err.statusCode !== 404) throw err;
      });
    }
    e.containerId = undefined;
    e.pid = undefined;
    await networks.release(joined);
  }

  async function start(spec: ProcessSpec): Promise<ProcessState> {
    const e = entryFor(spec);
    const generation = await serial(e, async () => {
      e.wantStopped = false;
      if (e.restartTimer) clearTimeout(e.restartTimer);
      e.restartTimer = undefined;
      if (await isRunning(e)) return e.generation; // already running: no duplicate
      e.userStart = true;
      e.failures = 0;
      if (!(await tryAdopt(e))) await create(e);
      return e.generation;
    });
    return awaitReady(e, generation);
  }

  async function adopt(spec: ProcessSpec): Promise<ProcessState> {
    const e = entryFor(spec);
    const generation = await serial(e, async () => {
      if (await isRunning(e)) return e.generation;
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
      if (e.containerId) setStatus(e, "STOPPING");
      await terminate(e, stopOpts.timeoutMs ?? stopTimeoutMs);
      setStatus(e, "STOPPED");
      return stateOf(e);
    });
  }

  async function restart(spec: ProcessSpec): Promise<ProcessState> {
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
      for (const e of entries.values()) clearTimers(e);
    },
  };
}
