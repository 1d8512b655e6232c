/**
 * The conditions a benchmark figure was taken under, printed beside it: the machine's 1-minute load
 * average and the console's CPU seconds. A wall-clock figure from a busy machine says little about
 * the console (the same start measured 1.9 s at load 1 and far more at load 6), so a figure taken
 * above {@link LOAD_LIMIT} is flagged as not comparable, in print and in the JSON results, never
 * reported as a clean one. CPU seconds move little with load, so they are the figure to compare then.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";

/** Above this 1-minute load average (on the 2-core machines the targets are set for) a figure is not comparable. */
export const LOAD_LIMIT = 1.5;

/** What a figure was taken under; `loadTooHigh` is what a reader of the JSON checks first. */
export interface Conditions {
  load1: number;
  /** The console's CPU seconds (user + system) at the moment of the figure; null when unreadable. */
  consoleCpuS: number | null;
  loadTooHigh: boolean;
}

/** The 1-minute load average, two decimals. */
export function load1(): number {
  return round(loadavg()[0] ?? 0, 2);
}

let clockTick: number | undefined;

/** Kernel clock ticks per second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat's CPU times; 100 when unknown. */
export function clockTicks(): number {
  if (clockTick === undefined) {
    try {
      clockTick = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      clockTick = 100;
    }
  }
  return clockTick;
}

/**
 * CPU seconds (utime + stime) a process has used so far, from /proc/<pid>/stat; null when it is gone.
 * Read for a console the bench spawned, which `process.cpuUsage()` can't see.
 */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: fields count from after it.
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(rest[11]) + Number(rest[12]); // fields 14 (utime) and 15 (stime)
    return Number.isFinite(ticks) ? round(ticks / clockTicks(), 2) : null;
  } catch {
    return null;
  }
}

/** Resident set size of a process in MiB (VmRSS of /proc/<pid>/status); null when it is gone. */
export function rssMiB(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? round(Number(m[1]) / 1024, 1) : null;
  } catch {
    return null;
  }
}

/**
 * CPU seconds of this process since `since` (or since it started). For a console run in-process this
 * includes the bench's own client work, so it is an upper bound on the console's.
 */
export function selfCpuSeconds(since?: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(since);
  return round((u.user + u.system) / 1e6, 2);
}

/**
 * The conditions now (or under `load`, e.g. the worst of several stretches), with the console's CPU
 * seconds as measured by the caller.
 */
export function conditions(consoleCpuS: number | null, load = load1()): Conditions {
  return { load1: load, consoleCpuS, loadTooHigh: load > LOAD_LIMIT };
}

/** `load 0.42, console CPU 2.16 s`: the suffix of every printed figure. */
export function describeConditions(c: Conditions): string {
  const cpu = c.consoleCpuS === null ? "console CPU unknown" : `console CPU ${c.consoleCpuS} s`;
  return `load ${c.load1}, ${cpu}`;
}

/** `[load 3.2 > 1.5: not comparable]` for a figure taken on a busy machine, else "". */
export function loadFlag(c: Conditions): string {
  return c.loadTooHigh ? `[load ${c.load1} > ${LOAD_LIMIT}: not comparable]` : "";
}

/** `cold start 1937 ms (load 0.42, console CPU 2.16 s)`, flagged when the load was too high. */
export function formatFigure(label: string, figure: string, c: Conditions): string {
  const flag = loadFlag(c);
  return `${label} ${figure} (${describeConditions(c)})${flag ? ` ${flag}` : ""}`;
}

/** Columns to add to a console.table row: the load, the console's CPU seconds and the flag. */
export function conditionColumns(c: Conditions): { load1: number; consoleCpuS: number | null; note: string } {
  return {
    load1: c.load1,
    consoleCpuS: c.consoleCpuS,
    note: c.loadTooHigh ? `load > ${LOAD_LIMIT}: not comparable` : "",
  };
}

/**
 * Prints how many figures were taken at too high a load, so a run with any of them can't pass for a
 * clean one when only its last lines are read. Returns that count.
 */
export function reportLoad(all: Conditions[]): number {
  const high = all.filter((c) => c.loadTooHigh);
  if (high.length > 0) {
    const worst = Math.max(...high.map((c) => c.load1));
    console.log(
      `NOTE: ${high.length} of ${all.length} figures were taken at a 1-minute load above ${LOAD_LIMIT} ` +
        `(up to ${worst}): not comparable with targets or other runs; rerun on an idle machine or with --wait-idle`,
    );
  } else if (all.length > 0) {
    console.log(`all ${all.length} figures taken at a 1-minute load at or below ${LOAD_LIMIT}`);
  }
  return high.length;
}

/**
 * `--wait-idle[=SECONDS]`: waits (at most SECONDS, default 600) for the 1-minute load to drop to
 * {@link LOAD_LIMIT} before a bench starts, and says so. Without the flag it returns at once.
 */
export async function waitIdleIfAsked(argv: readonly string[] = process.argv): Promise<void> {
  const flag = argv.find((a) => a === "--wait-idle" || a.startsWith("--wait-idle="));
  if (!flag) return;
  const limitS = Number(flag.split("=")[1]) || 600;
  const start = Date.now();
  if (load1() <= LOAD_LIMIT) {
    console.log(`--wait-idle: load ${load1()} is already at or below ${LOAD_LIMIT}`);
    return;
  }
  console.log(`--wait-idle: load ${load1()} > ${LOAD_LIMIT}; waiting up to ${limitS} s for it to drop`);
  while (load1() > LOAD_LIMIT) {
    if (Date.now() - start > limitS * 1000) {
      console.log(`--wait-idle: load still ${load1()} after ${limitS} s; going on, figures will be flagged`);
      return;
    }
    await new Promise((r) => setTimeout(r, 5000));
  }
  console.log(`--wait-idle: load ${load1()} after ${Math.round((Date.now() - start) / 1000)} s; starting`);
}

/** The message of anything thrown, with the cause's code when there is one (fetch hides ECONNREFUSED there). */
export function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message;
  return detail && !err.message.includes(detail) ? `${err.message}: ${detail}` : err.message;
}

/**
 * Runs a bench's main and, when it throws, names the step and reason with the load, instead of a bare
 * stack or a null figure. Exits 1 then.
 */
export async function runBench(name: string, main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (err) {
    console.error(`\n${name} failed: ${reasonOf(err)} (load ${load1()})`);
    if (err instanceof Error && err.stack) console.error(err.stack.split("\n").slice(1, 6).join("\n"));
    process.exit(1);
  }
}

function round(n: number, digits: number): number {
  return Math.round(n * 10 ** digits) / 10 ** digits;
}
