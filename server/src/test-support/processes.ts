import { readdirSync, readlinkSync } from "node:fs";

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
