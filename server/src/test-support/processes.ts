import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import type { ProcessSpec } from "../runtime/supervisor.types.js";

/** Pids whose working directory is under `dir` (a console's node, chaincode or Prometheus folders). */
export function processesUnder(dir: string): number[] {
  const out: number[] = [];
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      if (readlinkSync(`/proc/${p}/cwd`).startsWith(dir)) out.push(Number(p));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/**
 * One pid per supervised process under `dir`: the leaders of their process groups. A sandboxed
 * program runs below its launcher (bwrap) in the launcher's group, so {@link processesUnder} sees
 * several pids for it.
 */
export function supervisedUnder(dir: string): number[] {
  return processesUnder(dir).filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) === pid;
    } catch {
      return false;
    }
  });
}

/**
 * A supervised process that does nothing until SIGTERM, ready at once: for tests of the supervisor's
 * bookkeeping (stops, restarts, crashes) rather than of a node.
 */
export function idleProcessSpec(id: string, cwd: string): ProcessSpec {
  return {
    id,
    command: process.execPath,
    args: ["-e", "process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1000);"],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    cwd,
    probe: async () => true,
    startTimeoutMs: 10_000,
  };
}
