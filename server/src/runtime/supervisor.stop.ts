import { appendFile } from "node:fs/promises";
import { removePidRecord } from "./pid-file.js";
import { endProcessesOf, signalGroup, signalGroupMembers, waitGroupGone } from "./proc.js";
import { clearTimers, isOurs, type Entry } from "./supervisor.entry.js";

/** SIGTERM, wait, SIGKILL. Signals only a process verified to be ours. */
export async function terminate(e: Entry, timeoutMs: number, pidFile: string): Promise<void> {
  await terminateTracked(e, timeoutMs, pidFile);
  if (!e.spec.ownsCwd) return;
  // Whatever else still runs this node's program in its folder was lost track of: end it too.
  const left = await endProcessesOf(e.spec.cwd, e.spec.command);
  if (left.length && e.spec.logFile) {
    const line = `[chainlaunch] ${new Date().toISOString()} stop also ended untracked process(es) ${left.join(", ")}\n`;
    await appendFile(e.spec.logFile, line).catch(() => undefined);
  }
}

async function terminateTracked(e: Entry, timeoutMs: number, pidFile: string): Promise<void> {
  const record = e.record;
  if (!record || !(await isOurs(e))) {
    e.generation++;
    clearTimers(e);
    e.record = undefined;
    e.child = undefined;
    await removePidRecord(pidFile);
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
  await removePidRecord(pidFile);
}
