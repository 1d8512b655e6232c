/**
 * Benchmark: cold start of the console as `make start` runs it: spawning `node server/bundle/main.js
 * serve` to the first 200 on /healthz, on a fresh data directory and on an existing one (made by a
 * previous start: database migrated, first admin there). Median, min and max of N runs each, with each
 * run's load and the console's CPU seconds at the first 200 (from /proc). With --dist, the unbundled
 * server/dist/main.js too, when built, for comparison. Target: ≤ 300 ms (issue 34).
 * The entries (with --baseline, another build) take turns run by run, so they meet the same machine.
 * Each console also reports where its start went (CHAINLAUNCH_STARTUP_TRACE, server/src/startup-trace.ts):
 * the median length of each phase is printed under its figure.
 *
 *   npm run build -w server && npx tsx bench/cold-start/run.ts [--runs N] [--wait-idle[=SECONDS]]
 *     [--baseline path/to/other/server/bundle/main.js] [--dist]
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, releasePorts } from "../../server/src/test-support/ports.js";
import {
  conditionColumns,
  conditions,
  loadFlag,
  reasonOf,
  reportLoad,
  runBench,
  waitIdleIfAsked,
  type Conditions,
} from "../support/conditions.js";
import { ENTRIES, requireBundle, spawnConsole, waitHealthy } from "../support/spawned-console.js";
import { numberArg, pathArg } from "../support/args.js";
import { STARTUP_PHASES, type StartupTrace } from "../../server/src/startup-trace.js";

const RUNS = numberArg("--runs", 10);
// Another build's bundle/main.js (e.g. a worktree of an older commit), measured in the same run.
const BASELINE = pathArg("--baseline");
const TIMEOUT_S = numberArg("--timeout", 30);
const WITH_DIST = process.argv.includes("--dist");
const TARGET_MS = 300;
const here = dirname(fileURLToPath(import.meta.url));

/** One start: its time to the first 200 and its conditions, or why it never answered. */
type Run =
  | { ms: number; conditions: Conditions; codeCache?: string; phases?: Phases }
  | { failed: string; conditions: Conditions; codeCache?: string };
/** How long each start-up phase took (ms), from the console's own trace (server/src/startup-trace.ts). */
type Phases = StartupTrace;

/**
 * The baseline measured in the same run: Node itself starting a plain `node:http` server that answers
 * /healthz, the floor any Node server on this machine starts from (Node's own start-up and listening).
 */
const NODE_FLOOR = `import { createServer } from "node:http";
createServer((_req, res) => { res.setHeader("content-type", "application/json"); res.end('{"status":"ok"}'); })
  .listen(Number(process.env.PORT), process.env.HOST);
process.on("SIGTERM", () => process.exit(0));
`;

/** Starts `entry` on `dataDir` once, to the first 200, and stops it. */
async function once(entry: string, dataDir: string, port: number, timeoutS = TIMEOUT_S): Promise<Run> {
  const t0 = performance.now();
  const c = spawnConsole(entry, dataDir, port);
  try {
    const h = await waitHealthy(c, t0, timeoutS * 1000);
    const cpu = conditions(h.cpuS);
    // The trace line is written once the server listens; it may reach us just after the first 200.
    for (let i = 0; i < 100 && !c.startupTrace(); i++) await new Promise((r) => setTimeout(r, 10));
    const phases = durations(c.startupTrace());
    return { ms: h.ms, conditions: cpu, codeCache: c.codeCache(), ...(phases ? { phases } : {}) };
  } catch (err) {
    return { failed: reasonOf(err), conditions: conditions(null), codeCache: c.codeCache() };
  } finally {
    await c.stop();
  }
}

/** Each phase's length: its end minus the previous phase's end (Node's own start-up from 0). */
function durations(trace: Phases | undefined): Phases | undefined {
  if (!trace) return undefined;
  const out: Phases = {};
  let prev = 0;
  for (const phase of STARTUP_PHASES) {
    const end = trace[phase];
    if (end === undefined) continue;
    out[phase] = end - prev;
    prev = end;
  }
  return out;
}

/** The median of each phase's length over the runs that traced it, in phase order. */
function medianPhases(runs: Run[]): Phases | undefined {
  const traced = runs.flatMap((r) => ("phases" in r && r.phases ? [r.phases] : []));
  if (traced.length === 0) return undefined;
  const out: Phases = {};
  for (const phase of STARTUP_PHASES) {
    const v = traced
      .map((p) => p[phase])
      .filter((x): x is number => x !== undefined)
      .sort((a, b) => a - b);
    if (v.length) out[phase] = v[Math.floor(v.length / 2)]!;
  }
  return out;
}

/**
 * N starts of each entry, each on a new data directory (`fresh`) or all on one made by a first start
 * (one per entry). The entries take turns, run by run (A B A B ...), so a drift in the machine's speed
 * during the series falls on all of them alike. An entry whose preparation failed gets its error.
 */
async function series(entries: string[], fresh: boolean, port: number): Promise<Map<string, Run[] | Error>> {
  const out = new Map<string, Run[] | Error>();
  const shared = new Map<string, string>();
  try {
    for (const entry of entries) {
      if (fresh) {
        out.set(entry, []);
        continue;
      }
      const dir = mkdtempSync(join(tmpdir(), "cl-bench-cold-existing-"));
      shared.set(entry, dir);
      const first = await once(entry, dir, port, Math.max(TIMEOUT_S, 60)); // preparation, not measured
      out.set(entry, "failed" in first ? new Error(`making the existing data directory: ${first.failed}`) : []);
    }
    for (let i = 0; i < RUNS; i++) {
      for (const entry of entries) {
        const runs = out.get(entry);
        if (!Array.isArray(runs)) continue;
        const dir = fresh ? mkdtempSync(join(tmpdir(), "cl-bench-cold-fresh-")) : shared.get(entry)!;
        runs.push(await once(entry, dir, port));
        if (fresh) rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    for (const dir of shared.values()) rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

async function main(): Promise<void> {
  requireBundle();
  await waitIdleIfAsked();
  const port = await freePort();
  const floorDir = mkdtempSync(join(tmpdir(), "cl-bench-node-floor-"));
  const floor = join(floorDir, "floor.mjs");
  writeFileSync(floor, NODE_FLOOR);
  const entries: [string, string][] = [
    ["node floor (plain node:http server, baseline)", floor],
    ...(BASELINE ? [[`baseline ${BASELINE}`, BASELINE] as [string, string]] : []),
    // The unbundled server only with --dist: each of its starts costs ~1.5 CPU-s, which alone lifts this
    // 2-core machine's load over 1.5 and so flags every figure of the run.
    ...Object.entries(ENTRIES).filter(([name, path]) => (name !== "dist" || WITH_DIST) && existsSync(path)),
  ];
  const all: Conditions[] = [];
  const summary: Record<string, unknown>[] = [];
  try {
    // Fresh data directories first, every entry in turn (the floor among them: it has no data directory,
    // so once is enough); then existing ones.
    const paths = entries.map(([, path]) => path);
    const results = {
      fresh: await series(paths, true, port),
      existing: await series(
        paths.filter((p) => p !== floor),
        false,
        port,
      ),
    };
    for (const [name, entry] of entries) {
      for (const fresh of entry === floor ? [true] : [true, false]) {
        const label = entry === floor ? name : `${name}, ${fresh ? "fresh" : "existing"} data dir`;
        const runs = results[fresh ? "fresh" : "existing"].get(entry)!;
        if (runs instanceof Error) {
          const c = conditions(null);
          console.log(`\n${label}: failed: ${reasonOf(runs)}`);
          summary.push({ entry: name, dataDir: fresh ? "fresh" : "existing", failed: reasonOf(runs), ...c });
          continue;
        }
        console.log(`\n${label}, ${RUNS} runs: spawn to the first 200 on /healthz`);
        console.table(
          runs.map((r, i) => ({
            run: i + 1,
            ms: "ms" in r ? r.ms : null,
            load1: r.conditions.load1,
            consoleCpuS: r.conditions.consoleCpuS,
            codeCache: r.codeCache ?? "",
            note: "failed" in r ? r.failed : conditionColumns(r.conditions).note,
          })),
        );
        all.push(...runs.map((r) => r.conditions));
        const ok = runs.filter((r): r is Extract<Run, { ms: number }> => "ms" in r);
        const failed = runs.length - ok.length;
        if (ok.length === 0) {
          console.log(`${label}: every run failed (first: ${"failed" in runs[0]! ? runs[0].failed : ""})`);
          summary.push({ entry: name, dataDir: fresh ? "fresh" : "existing", failed: "every run failed", runs });
          continue;
        }
        const byMs = [...ok].sort((a, b) => a.ms - b.ms);
        const mid = byMs[Math.floor(byMs.length / 2)]!;
        const cpu = ok.map((r) => r.conditions.consoleCpuS ?? NaN).sort((a, b) => a - b);
        const c: Conditions = {
          load1: Math.max(...ok.map((r) => r.conditions.load1)),
          consoleCpuS: cpu[Math.floor(cpu.length / 2)] ?? null,
          loadTooHigh: ok.some((r) => r.conditions.loadTooHigh),
        };
        const figure = `median ${mid.ms} ms (min ${byMs[0]!.ms}, max ${byMs[byMs.length - 1]!.ms}), target ≤ ${TARGET_MS} ms`;
        const flag = loadFlag(c);
        const states = ok.map((r) => r.codeCache).filter((x): x is string => !!x);
        const cache = states.length
          ? `; code cache used in ${states.filter((x) => x === "used").length} of ${ok.length} runs`
          : "";
        console.log(
          `${label}: cold start ${figure} (max load ${c.load1}, console CPU median ${c.consoleCpuS} s${cache})` +
            (flag ? ` ${flag}` : "") +
            (failed ? `; ${failed} of ${runs.length} runs failed` : ""),
        );
        const phases = medianPhases(ok);
        if (phases) {
          console.log(
            `${label}: where the time went, median ms per phase (the console's CHAINLAUNCH_STARTUP_TRACE): ` +
              Object.entries(phases)
                .map(([k, v]) => `${k} ${v}`)
                .join(", "),
          );
        }
        summary.push({
          entry: name,
          dataDir: fresh ? "fresh" : "existing",
          medianMs: mid.ms,
          minMs: byMs[0]!.ms,
          maxMs: byMs[byMs.length - 1]!.ms,
          targetMs: TARGET_MS,
          medianConsoleCpuS: c.consoleCpuS,
          maxLoad1: c.load1,
          loadTooHigh: c.loadTooHigh,
          failedRuns: failed,
          ...(phases ? { medianPhasesMs: phases } : {}),
          runs,
        });
      }
    }
  } finally {
    releasePorts(port);
    rmSync(floorDir, { recursive: true, force: true });
  }
  console.log("");
  reportLoad(all);
  const out = join(here, "results");
  mkdirSync(out, { recursive: true });
  const file = join(out, `cold-start-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(
    file,
    JSON.stringify({ runs: RUNS, targetMs: TARGET_MS, summary, loadTooHigh: all.some((c) => c.loadTooHigh) }, null, 2),
  );
  console.log(`saved ${file}`);
}

await runBench("cold-start", main);
