import type { ChildProcess } from "node:child_process";
import { verifyPidRecord, type PidRecord } from "./pid-file.js";
import { isAlive } from "./proc.js";
import type { ProcessSpec, ProcessStatus } from "./supervisor.types.js";

/** What the supervisor keeps about one node. */
export interface Entry {
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

export const ID_RE = /^[A-Za-z0-9._-]{1,128}$/;

/** The environment a supervised child gets by default: PATH, HOME, TMPDIR, LANG and TZ of the console. */
export function minimalEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ["PATH", "HOME", "TMPDIR", "LANG", "TZ"]) {
    const v = process.env[k];
    if (v !== undefined) env[k] = v;
  }
  return env;
}

/** Runs `fn` after every earlier operation on the same node. */
export function serial<T>(e: Entry, fn: () => Promise<T>): Promise<T> {
  const next = e.lock.then(fn, fn);
  e.lock = next.catch(() => undefined);
  return next;
}

export function clearTimers(e: Entry): void {
  if (e.restartTimer) clearTimeout(e.restartTimer);
  if (e.pollTimer) clearInterval(e.pollTimer);
  e.probeAbort?.abort();
  e.restartTimer = undefined;
  e.pollTimer = undefined;
  e.probeAbort = undefined;
}

/** The entry's process is alive and still the one it spawned or adopted (pid reuse is not). */
export async function isOurs(e: Entry): Promise<boolean> {
  if (!e.record) return false;
  if (e.child && e.child.exitCode === null && e.child.signalCode === null) return isAlive(e.record.pid);
  return (await verifyPidRecord(e.record)).ok;
}
