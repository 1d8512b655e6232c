import { setTimeout as sleep } from "node:timers/promises";
import { backoffSchedule } from "./backoff.js";
import { describeGroup, isAlive } from "./proc.js";
import type { Entry } from "./supervisor.entry.js";
import type { ProcessState, ProcessStatus, SupervisorOptions } from "./supervisor.types.js";

/** What the readiness wait needs from its supervisor. */
export interface ReadyDeps {
  opts: SupervisorOptions;
  probeIntervalMs: number;
  stopTimeoutMs: number;
  stateOf(e: Entry): ProcessState;
  setStatus(e: Entry, status: ProcessStatus, errorMessage?: string): void;
  lastLines(e: Entry): Promise<string[]>;
  terminate(e: Entry, timeoutMs: number): Promise<void>;
}

/** Probes until ready (RUNNING), the process exits (onExit decides), or the deadline (ERROR). */
export async function awaitReady(d: ReadyDeps, e: Entry, generation: number): Promise<ProcessState> {
  const { opts, probeIntervalMs, stateOf, setStatus } = d;
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
      const lines = await d.lastLines(e);
      // What was still running, and in which state: says whether it hung, waited or never began.
      const running = await describeGroup(pid);
      e.wantStopped = true;
      await d.terminate(e, d.stopTimeoutMs);
      e.wantStopped = false;
      setStatus(
        e,
        "ERROR",
        `not ready within ${timeoutMs / 1000} s${running ? ` (running: ${running})` : ""}; last log lines:\n${lines.join("\n")}`,
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
