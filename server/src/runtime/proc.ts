import { readdirSync, readFileSync } from "node:fs";
import { readdir, readFile, readlink } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * Linux /proc readers. They identify a process beyond its pid: a pid can be reused by an
 * unrelated process after the original exits (or after a reboot), so a pid file alone is not
 * proof. The start time in /proc/<pid>/stat (clock ticks since boot), the boot id and the
 * command line together are.
 */
export interface ProcStat {
  pid: number;
  /** Single-letter state: R, S, D, Z (zombie), T, t, X, I… */
  state: string;
  ppid: number;
  pgrp: number;
  /** Field 22 of /proc/<pid>/stat, kept as a string: it is compared, never computed with. */
  startTime: string;
}

/** Parses /proc/<pid>/stat. The command name may hold spaces and parentheses, so split after the last ")". */
export function parseProcStat(text: string): ProcStat {
  const close = text.lastIndexOf(")");
  const pid = Number.parseInt(text.slice(0, text.indexOf(" ")), 10);
  const rest = text
    .slice(close + 2)
    .trim()
    .split(" ");
  // rest[0] is field 3 (state); field N is rest[N - 3].
  return {
    pid,
    state: rest[0] ?? "?",
    ppid: Number(rest[1]),
    pgrp: Number(rest[2]),
    startTime: rest[19] ?? "",
  };
}

/**
 * /proc/<pid>/stat, read synchronously: the kernel writes it from memory as it is read, so there is
 * no disk to wait for, and an asynchronous read costs four thread-pool round trips (open, fstat,
 * read, close) for a few hundred bytes. Readiness probes and supervisors read many of these.
 */
function readStatSync(pid: number): ProcStat | null {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return null;
  }
}

export async function readProcStat(pid: number): Promise<ProcStat | null> {
  return readStatSync(pid);
}

/** argv of a process, from /proc/<pid>/cmdline (NUL-separated). Null when unreadable. */
export async function readCmdline(pid: number): Promise<string[] | null> {
  try {
    const raw = await readFile(`/proc/${pid}/cmdline`, "utf8");
    const parts = raw.split("\0");
    if (parts.at(-1) === "") parts.pop();
    return parts;
  } catch {
    return null;
  }
}

export async function readExe(pid: number): Promise<string | null> {
  try {
    return await readlink(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
}

let bootIdCache: string | undefined;
/** /proc/sys/kernel/random/boot_id: changes on every boot, so pid files from before a reboot never match. */
export async function readBootId(): Promise<string> {
  if (bootIdCache === undefined) {
    bootIdCache = (await readFile("/proc/sys/kernel/random/boot_id", "utf8").catch(() => "")).trim();
  }
  return bootIdCache;
}

/** True when the pid exists and is not a zombie (a zombie has exited and only waits to be reaped). */
export async function isAlive(pid: number): Promise<boolean> {
  const stat = await readProcStat(pid);
  return stat !== null && stat.state !== "Z" && stat.state !== "X";
}

/** Signals a process group (the node was spawned detached, so it leads one), falling back to the pid. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/**
 * Live members of process group `pgid` other than its leader. A sandboxed program runs below its
 * launcher (bwrap) in the launcher's group, so it can outlive the leader; the kernel keeps a pid
 * from being reused while a group still uses it as its id, so these are the group we started.
 */
export async function groupMembers(pgid: number): Promise<number[]> {
  const out: number[] = [];
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return out;
  }
  // Synchronous /proc reads (see readStatSync): one scan reads every process's stat.
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === pgid) continue;
    const stat = readStatSync(Number(name));
    if (stat && stat.pgrp === pgid && stat.state !== "Z" && stat.state !== "X") out.push(stat.pid);
  }
  return out;
}

/**
 * One process for an error message: "node 125 S (ep_poll)" (name, pid, state, and the kernel
 * function it sleeps in when /proc tells), with its parsed stat. Undefined when it is gone.
 */
export async function describeProcess(pid: number): Promise<{ text: string; stat: ProcStat } | undefined> {
  const raw = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  if (!raw) return undefined;
  const stat = parseProcStat(raw);
  const name = raw.slice(raw.indexOf("(") + 1, raw.lastIndexOf(")"));
  const wchan = (await readFile(`/proc/${pid}/wchan`, "utf8").catch(() => "")).trim();
  return { text: `${name} ${pid} ${stat.state}${wchan && wchan !== "0" ? ` (${wchan})` : ""}`, stat };
}

/**
 * What a process group is doing, for an error message: "bwrap 120 S, node 125 S (ep_poll)" (see
 * describeProcess). Empty when the group is gone.
 */
export async function describeGroup(pgid: number): Promise<string> {
  const parts: string[] = [];
  for (const pid of [pgid, ...(await groupMembers(pgid))]) {
    const p = await describeProcess(pid);
    if (!p || p.stat.state === "Z" || p.stat.state === "X" || (pid === pgid && p.stat.pgrp !== pgid)) continue;
    parts.push(p.text);
  }
  return parts.join(", ");
}

/** Sends `signal` to each remaining member of the group (never to a pid that is not in it). */
export async function signalGroupMembers(pgid: number, signal: NodeJS.Signals): Promise<void> {
  for (const pid of await groupMembers(pgid)) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/**
 * Waits until the leader `pid` has exited (or `exited` resolves) and no member of its group is
 * left, for at most `ms`. True when all are gone.
 */
export async function waitGroupGone(pid: number, exited: Promise<void>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  let leaderGone = false;
  while (Date.now() < until) {
    if (!leaderGone) {
      leaderGone =
        !(await isAlive(pid)) || (await Promise.race([exited.then(() => true), sleep(100).then(() => false)]));
    }
    if (leaderGone) {
      if ((await groupMembers(pid)).length === 0) return true;
      await sleep(50);
    }
  }
  return !(await isAlive(pid)) && (await groupMembers(pid)).length === 0;
}

/**
 * Processes that run `command` in exactly `cwd`, other than this one: what is left of a node whose
 * supervisor lost track of a process (a pid record that failed to verify under load, a restart that
 * raced a stop). A stop ends these too, so "stopped" means no process of the node is left.
 */
export async function processesOf(cwd: string, command: string): Promise<number[]> {
  const out: number[] = [];
  for (const name of await readdir("/proc").catch(() => [] as string[])) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const pid = Number(name);
    const dir = await readlink(`/proc/${pid}/cwd`).catch(() => undefined);
    if (dir !== cwd) continue;
    const argv = await readCmdline(pid);
    if (argv?.[0] === command) out.push(pid);
  }
  return out;
}

/** Ends {@link processesOf}: SIGTERM, up to `graceMs` to exit, then SIGKILL. Returns their pids. */
export async function endProcessesOf(cwd: string, command: string, graceMs = 5000): Promise<number[]> {
  const pids = await processesOf(cwd, command);
  if (pids.length === 0) return pids;
  for (const pid of pids) signalGroup(pid, "SIGTERM");
  const until = Date.now() + graceMs;
  while (Date.now() < until && (await Promise.all(pids.map(isAlive))).some(Boolean)) await sleep(100);
  for (const pid of pids) if (await isAlive(pid)) signalGroup(pid, "SIGKILL");
  return pids;
}
