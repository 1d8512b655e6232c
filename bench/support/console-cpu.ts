/**
 * The console's CPU seconds over a step, apart from the bench's own where that is possible. For a
 * console the bench spawned, /proc/<pid>/stat gives the console's alone and `process.cpuUsage()`
 * the bench's client work (HTTP client, direct gateway client) beside it. For an in-process console
 * both are one process: the figure is an upper bound on the console's and the client's is unknown.
 */
import { processCpuSeconds, selfCpuSeconds } from "./conditions.js";

export interface CpuMark {
  self: NodeJS.CpuUsage;
  console: number | null;
}

export interface CpuMeter {
  /** "spawned" when the console is its own process (its CPU read from /proc), else "in-process". */
  readonly kind: "spawned" | "in-process";
  mark(): CpuMark;
  /** The console's CPU seconds since `m` (in-process: this process's, the bench's client included). */
  console(m: CpuMark): number | null;
  /** The bench's own CPU seconds since `m` when the console is spawned; null in-process (it is in `console`). */
  client(m: CpuMark): number | null;
}

/** A meter for the console with `pid` (spawned), or for this process when `pid` is undefined. */
export function cpuMeter(pid?: number): CpuMeter {
  return {
    kind: pid ? "spawned" : "in-process",
    mark: () => ({ self: process.cpuUsage(), console: pid ? processCpuSeconds(pid) : null }),
    console(m) {
      if (!pid) return selfCpuSeconds(m.self);
      const now = processCpuSeconds(pid);
      return now === null || m.console === null ? null : Math.round((now - m.console) * 100) / 100;
    },
    client: (m) => (pid ? selfCpuSeconds(m.self) : null),
  };
}
