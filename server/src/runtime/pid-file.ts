import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { isAlive, readBootId, readCmdline, readProcStat } from "./proc.js";

/**
 * What a pid file records: enough to find the process again after the console restarts and to
 * prove that the pid still is that process (see {@link verifyPidRecord}).
 */
export interface PidRecord {
  version: 1;
  /** The supervised node's id. */
  id: string;
  pid: number;
  /** /proc/<pid>/stat start time (clock ticks since boot). */
  startTime: string;
  bootId: string;
  command: string;
  args: string[];
  cwd: string;
  logFile: string;
  /** ISO time the process was spawned. */
  startedAt: string;
}

export async function writePidRecord(path: string, record: PidRecord): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp`;
  await writeFile(tmp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o644 });
  await rename(tmp, path);
}

/** Reads a pid file; null when it is missing or not one of ours. */
export async function readPidRecord(path: string): Promise<PidRecord | null> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, "utf8"));
  } catch {
    return null;
  }
  const r = parsed as Partial<PidRecord>;
  if (
    r.version !== 1 ||
    typeof r.id !== "string" ||
    !Number.isInteger(r.pid) ||
    typeof r.startTime !== "string" ||
    typeof r.command !== "string" ||
    !Array.isArray(r.args)
  ) {
    return null;
  }
  return r as PidRecord;
}

export async function removePidRecord(path: string): Promise<void> {
  await rm(path, { force: true });
}

export type PidVerdict = { ok: true } | { ok: false; reason: string };

/**
 * Checks that the recorded pid is alive and is the same process: same boot, same start time,
 * same argv. A reused pid fails the start-time check; a pid file from before a reboot fails
 * the boot id check.
 */
export async function verifyPidRecord(record: PidRecord): Promise<PidVerdict> {
  const bootId = await readBootId();
  if (record.bootId && bootId && record.bootId !== bootId) return { ok: false, reason: "the machine rebooted since" };
  const stat = await readProcStat(record.pid);
  if (!stat || !(await isAlive(record.pid))) return { ok: false, reason: `pid ${record.pid} is not running` };
  if (stat.startTime !== record.startTime) {
    return { ok: false, reason: `pid ${record.pid} belongs to another process now (start time differs)` };
  }
  const argv = await readCmdline(record.pid);
  const expected = [record.command, ...record.args];
  if (!argv || argv.length !== expected.length || argv.some((a, i) => a !== expected[i])) {
    return { ok: false, reason: `pid ${record.pid} runs a different command line` };
  }
  return { ok: true };
}
