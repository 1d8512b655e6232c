/**
 * Benchmark: does the console's memory come back after a load burst? The console runs as `make start`
 * runs it (its own process, so its RSS is its own). Seeds N organizations through the API, reads RSS
 * (VmRSS) before, runs C keep-alive clients for S seconds alternating `GET /nodes` and
 * `GET /organizations` with gzip accepted, then reads RSS right after and every second for 30 s.
 * Target (issue 34): RSS back within 10% of the pre-burst level within 30 s.
 *
 *   npm run build -w server && npx tsx bench/memory-burst/run.ts [--orgs N] [--clients C] [--seconds S]
 *     [--heap-snapshots] [--entry path/to/main.js] [--wait-idle[=SECONDS]]
 *
 * `--heap-snapshots` starts the console with `--heapsnapshot-signal=SIGUSR2` and takes a snapshot
 * after the pre-burst reading and after the 30 s (files kept under results/). Taking one grows the
 * heap, so that run's RSS figures are marked as disturbed.
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  conditionColumns,
  conditions,
  formatFigure,
  processCpuSeconds,
  reportLoad,
  rssMiB,
  runBench,
  waitIdleIfAsked,
  type Conditions,
} from "../support/conditions.js";
import { ADMIN_AUTH, adminClient } from "../support/console.js";
import { ENTRIES, requireBundle, startSpawnedConsole } from "../support/spawned-console.js";
import { numberArg, pathArg } from "../support/args.js";

const ORGS = numberArg("--orgs", 100);
const CLIENTS = numberArg("--clients", 8);
const SECONDS = numberArg("--seconds", 8);
const AFTER_S = numberArg("--after", 30);
const SNAPSHOTS = process.argv.includes("--heap-snapshots");
/** `--entry path/to/main.js`: another build (e.g. a copy of main's bundle) for a before/after pair. */
const ENTRY = pathArg("--entry") ?? ENTRIES.bundle;
const TARGET = 1.1;
const here = dirname(fileURLToPath(import.meta.url));

/** `C` clients on one keep-alive agent, each GETting `paths` in turn until `ms` pass; counts answers by status. */
async function burst(base: string, paths: string[], ms: number): Promise<{ requests: number; errors: string[] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const url = new URL(base);
  const end = performance.now() + ms;
  let requests = 0;
  const errors: string[] = [];
  const get = (path: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: `/api/v1${path}`,
          headers: { authorization: ADMIN_AUTH, "accept-encoding": "gzip" },
        },
        (res) => {
          res.resume(); // the body's bytes, not decompressed: the console's cost, not the client's
          res.once("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.once("error", reject);
      req.end();
    });
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = c; performance.now() < end; i++) {
        const path = paths[i % paths.length]!;
        try {
          const status = await get(path);
          if (status !== 200 && errors.length < 5) errors.push(`GET ${path}: ${status}`);
        } catch (err) {
          if (errors.length < 5) errors.push(`GET ${path}: ${(err as Error).message}`);
        }
        requests++;
      }
    }),
  );
  agent.destroy();
  return { requests, errors };
}

/** Sends SIGUSR2 and waits for a new, finished .heapsnapshot in `dir`; its name, or why not. */
async function heapSnapshot(pid: number, dir: string): Promise<string> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, "SIGUSR2");
  const end = Date.now() + 120_000;
  let last = -1;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 1000));
    const name = readdirSync(dir).find((f) => f.endsWith(".heapsnapshot") && !before.has(f));
    if (!name) continue;
    const size = statSync(join(dir, name)).size;
    if (size > 0 && size === last) return join(dir, name);
    last = size;
  }
  return "not written within 120 s";
}

async function main(): Promise<void> {
  requireBundle();
  await waitIdleIfAsked();
  const out = join(here, "results");
  mkdirSync(out, { recursive: true });
  const snapDir = join(out, `snapshots-${Date.now()}`);
  if (SNAPSHOTS) {
    mkdirSync(snapDir, { recursive: true });
    process.chdir(snapDir); // Node writes signal snapshots to the console's working directory, which is ours
  }
  const nodeArgs = SNAPSHOTS ? ["--heapsnapshot-signal=SIGUSR2"] : [];
  const c = await startSpawnedConsole("mem", ENTRY, 60_000, nodeArgs);
  const all: Conditions[] = [];
  const at = (): Conditions => {
    const x = conditions(processCpuSeconds(c.pid));
    all.push(x);
    return x;
  };
  try {
    const { http } = adminClient(c.base);
    const t = performance.now();
    for (let i = 0; i < ORGS; i++) await http("POST", "/organizations", { mspId: `Mem${i}MSP`, name: `Mem ${i}` });
    const seeded = at();
    console.log(formatFigure(`seeded ${ORGS} organizations in`, `${Math.round(performance.now() - t)} ms`, seeded));
    await new Promise((r) => setTimeout(r, 2000)); // let the seeding's garbage be collected as it would be
    const before = rssMiB(c.pid) ?? NaN;
    const beforeC = at();
    console.log(formatFigure("RSS before the burst", `${before} MiB`, beforeC));
    const snapshots: string[] = [];
    if (SNAPSHOTS) snapshots.push(await heapSnapshot(c.pid, snapDir));

    const cpuBefore = processCpuSeconds(c.pid) ?? NaN;
    const b0 = performance.now();
    const b = await burst(c.base, ["/nodes?limit=100", "/organizations?limit=100"], SECONDS * 1000);
    const rps = Math.round(b.requests / ((performance.now() - b0) / 1000));
    const right = rssMiB(c.pid) ?? NaN;
    const burstC = at();
    console.log(
      formatFigure(
        `burst: ${CLIENTS} keep-alive clients for ${SECONDS} s (gzip):`,
        `${b.requests} requests, ${rps} req/s, ${((burstC.consoleCpuS ?? NaN) - cpuBefore).toFixed(2)} console CPU-s in the burst`,
        burstC,
      ),
    );
    if (b.errors.length) console.log(`  burst errors (first ${b.errors.length}): ${b.errors.join("; ")}`);
    console.log(formatFigure("RSS right after the burst", `${right} MiB`, burstC));

    const samples: { s: number; rssMiB: number | null }[] = [];
    const rows: Record<string, unknown>[] = [];
    let backAt: number | null = null;
    for (let s = 1; s <= AFTER_S; s++) {
      await new Promise((r) => setTimeout(r, 1000));
      const rss = rssMiB(c.pid);
      const cs = at();
      samples.push({ s, rssMiB: rss });
      rows.push({
        s,
        rssMiB: rss,
        ofBefore: rss === null ? null : Number((rss / before).toFixed(2)),
        ...conditionColumns(cs),
      });
      if (backAt === null && rss !== null && rss <= before * TARGET) backAt = s;
    }
    if (c.child.exitCode !== null || c.child.signalCode !== null)
      console.log(
        `the console exited during the readings (code ${c.child.exitCode}, signal ${c.child.signalCode}; stderr: ${c.stderrTail() || "empty"})`,
      );
    if (SNAPSHOTS) snapshots.push(await heapSnapshot(c.pid, snapDir));
    console.log(`\nRSS every second after the burst (before: ${before} MiB)`);
    console.table(rows);
    const last = samples[samples.length - 1]?.rssMiB ?? NaN;
    const endC = all[all.length - 1]!;
    const verdict =
      backAt === null
        ? `NOT back within 10% of ${before} MiB after ${AFTER_S} s (last ${last} MiB, ${(last / before).toFixed(2)}x)`
        : `back within 10% of ${before} MiB after ${backAt} s`;
    console.log(formatFigure("RSS", `${verdict} (target: within 10% within 30 s)`, endC));
    console.log(
      SNAPSHOTS
        ? `heap snapshots (the RSS figures above include taking the first one): ${snapshots.join(", ")}`
        : "heap snapshots: not taken (pass --heap-snapshots; the console writes them on SIGUSR2)",
    );
    console.log("");
    reportLoad(all);
    const file = join(out, `memory-burst-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        {
          orgs: ORGS,
          clients: CLIENTS,
          seconds: SECONDS,
          rssBeforeMiB: before,
          before: beforeC,
          rssRightAfterMiB: right,
          burst: { requests: b.requests, rps, cpuSecondsBefore: cpuBefore, errors: b.errors, conditions: burstC },
          after: rows,
          backWithin10PctAfterS: backAt,
          targetMet: backAt !== null && backAt <= 30,
          heapSnapshots: SNAPSHOTS ? snapshots : null,
          disturbedBySnapshots: SNAPSHOTS,
          loadTooHigh: all.some((x) => x.loadTooHigh),
        },
        null,
        2,
      ),
    );
    console.log(`saved ${file}`);
  } finally {
    await c.close();
  }
}

await runBench("memory-burst", main);
