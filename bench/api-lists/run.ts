/**
 * Benchmark: list endpoints at 100 and 1,000 rows over a real HTTP listener (not inject), organization
 * creation with event-loop blocking, and cold start of the built server (spawn to first 200 on /healthz).
 *
 *   npm run build -w server   # cold start measures server/bundle/main.js (what `make start` runs) and server/dist/main.js
 *   npx tsx bench/api-lists/run.ts [--rows N] [--requests N] [--wait-idle[=SECONDS]]
 *
 * Seeding goes through the real API (organizations, keys, users); the audit log fills from those calls.
 * SQLite only: PostgreSQL is not measured yet.
 *
 * Every figure carries its conditions (bench/support/conditions.ts): the 1-minute load and the CPU
 * seconds used while it was measured (this process for the in-process lists, client included; the
 * spawned console's own from /proc for cold starts). A cold start that fails says why.
 *
 * Issue 34's figures (organization create, and the lists with 8 keep-alive gzip clients, on a spawned
 * console whose CPU is its own) come from `bench/api-lists/spawned.ts`.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { buildApp } from "../../server/src/app.js";
import { loadConfig } from "../../server/src/config/config.js";
import { freePort, releasePorts } from "../../server/src/test-support/ports.js";
import {
  conditionColumns,
  conditions,
  LOAD_LIMIT,
  formatFigure,
  reasonOf,
  reportLoad,
  runBench,
  selfCpuSeconds,
  waitIdleIfAsked,
  type Conditions,
} from "../support/conditions.js";
import { numberArg } from "../support/args.js";
import { ENTRIES, spawnConsole, waitHealthy } from "../support/spawned-console.js";

const ROWS = numberArg("--rows", 1000);
const REQUESTS = numberArg("--requests", 20);
const PASSWORD = "bench-password-1";
const here = dirname(fileURLToPath(import.meta.url));
const auth = { authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString("base64")}` };
/** Every figure's conditions, for the closing line on how many were taken at too high a load. */
const all: Conditions[] = [];
const taken = (cpuS: number | null): Conditions => {
  const c = conditions(cpuS);
  all.push(c);
  return c;
};

const pct = (sorted: number[], p: number): number =>
  Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(1));

/**
 * Times `count` sequential GETs. fetch asks for gzip/deflate/br like a browser; `encoding: "identity"`
 * measures the same list uncompressed (what compression costs the server and the client).
 */
async function timeGets(
  base: string,
  path: string,
  count: number,
  encoding?: "identity",
): Promise<Record<string, unknown>> {
  const ms: number[] = [];
  let bytes = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const s = performance.now();
    const r = await fetch(base + path, { headers: { ...auth, ...(encoding ? { "accept-encoding": encoding } : {}) } });
    const body = await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${Buffer.from(body).toString()}`);
    bytes = body.byteLength;
    ms.push(performance.now() - s);
  }
  const total = performance.now() - t0;
  ms.sort((a, b) => a - b);
  return {
    path,
    requests: count,
    p50: pct(ms, 50),
    p99: pct(ms, 99),
    rps: Number(((count * 1000) / total).toFixed(1)),
    bytes,
    ...conditionColumns(taken(selfCpuSeconds(cpu0))),
  };
}

/** A median cold start with its conditions, or why it has none. */
type Cold = { medianMs: number; conditions: Conditions } | { failed: string; conditions: Conditions };

/**
 * Median of `runs` starts of `entry`: spawn to the first 200 on /healthz, a fresh data dir each, with
 * the console's CPU seconds (median) at that moment. The first failed start ends the series and is
 * named (a timeout says what it waited for, the last error and the load), never a bare null.
 */
async function coldStarts(entry: string, runs = 5): Promise<Cold> {
  if (!existsSync(entry)) return { failed: `${entry} not built (npm run build -w server)`, conditions: taken(null) };
  const ms: number[] = [];
  const cpu: number[] = [];
  let worst = 0;
  const port = await freePort();
  try {
    for (let i = 0; i < runs; i++) {
      const dataDir = mkdtempSync(join(tmpdir(), "cl-bench-cold-"));
      const t0 = performance.now();
      const c = spawnConsole(entry, dataDir, port);
      try {
        const h = await waitHealthy(c, t0, 30_000);
        ms.push(h.ms);
        cpu.push(h.cpuS ?? NaN);
        worst = Math.max(worst, conditions(null).load1);
      } catch (err) {
        return { failed: `cold start ${i + 1} of ${runs}: ${reasonOf(err)}`, conditions: taken(null) };
      } finally {
        await c.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    releasePorts(port);
  }
  const mid = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const c = taken(mid(cpu));
  return {
    medianMs: mid(ms),
    conditions: { ...c, load1: Math.max(c.load1, worst), loadTooHigh: c.loadTooHigh || worst > LOAD_LIMIT },
  };
}

/** `cold start (bundle) 1937 ms (load 0.42, console CPU 2.16 s)`, or `cold start (bundle): <why it failed>`. */
function describeCold(label: string, cold: Cold): string {
  return "medianMs" in cold
    ? formatFigure(`cold start (${label}), median of 5:`, `${cold.medianMs} ms`, cold.conditions)
    : `cold start (${label}): ${cold.failed}`;
}

async function main(): Promise<void> {
  await waitIdleIfAsked();
  const dataDir = mkdtempSync(join(tmpdir(), "cl-bench-lists-"));
  const built = await buildApp({
    ...loadConfig({ CHAINLAUNCH_ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: "silent" }),
    dataDir,
    databaseUrl: undefined,
  });
  try {
    const base = await built.app.listen({ host: "127.0.0.1", port: 0 });
    const post = async (path: string, payload: unknown): Promise<void> => {
      const r = await fetch(`${base}/api/v1${path}`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify(payload),
      });
      if (r.status >= 300) throw new Error(`POST ${path}: ${r.status} ${await r.text()}`);
    };
    // Organization creation, with the event loop's worst delay while it runs.
    const loop = monitorEventLoopDelay({ resolution: 1 });
    const cpu0 = process.cpuUsage();
    loop.enable();
    const orgMs: number[] = [];
    for (let i = 0; i < ROWS; i++) {
      const s = performance.now();
      await post("/organizations", { mspId: `Bench${i}MSP`, name: `Bench ${i}` });
      orgMs.push(performance.now() - s);
    }
    loop.disable();
    orgMs.sort((a, b) => a - b);
    const create = {
      orgCreateP50: pct(orgMs, 50),
      orgCreateP99: pct(orgMs, 99),
      eventLoopDelayMaxMs: Number((loop.max / 1e6).toFixed(1)),
      eventLoopDelayP99Ms: Number((loop.percentile(99) / 1e6).toFixed(1)),
      ...conditionColumns(taken(selfCpuSeconds(cpu0))),
    };
    for (let i = 0; i < ROWS; i++) await post("/keys", { name: `bench-${i}`, algorithm: "EC", curve: "P-256" });
    for (let i = 0; i < ROWS; i++) await post("/users", { username: `bench${i}`, password: PASSWORD, role: "viewer" });

    const lists = [];
    for (const n of [100, 1000]) {
      lists.push(await timeGets(base, `/api/v1/organizations?limit=${n}`, REQUESTS));
      lists.push(await timeGets(base, `/api/v1/keys?pageSize=${n}`, REQUESTS));
    }
    lists.push({
      ...(await timeGets(base, `/api/v1/organizations?limit=1000`, REQUESTS, "identity")),
      encoding: "identity",
    });
    lists.push(await timeGets(base, `/api/v1/users`, REQUESTS));
    lists.push(await timeGets(base, `/api/v1/audit/logs?page_size=500`, REQUESTS));
    const cold = await coldStarts(ENTRIES.bundle);
    const coldUnbundled = await coldStarts(ENTRIES.dist);

    console.log(`\nSQLite, ${ROWS} rows each, ${REQUESTS} sequential requests per list`);
    console.table(lists);
    console.table([create]);
    console.log(describeCold("bundle", cold));
    console.log(describeCold("dist, unbundled", coldUnbundled));
    reportLoad(all);
    const out = join(here, "results");
    mkdirSync(out, { recursive: true });
    const file = join(out, `api-lists-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        {
          rows: ROWS,
          lists,
          create,
          coldStart: cold,
          coldStartUnbundled: coldUnbundled,
          loadTooHigh: all.some((c) => c.loadTooHigh),
        },
        null,
        2,
      ),
    );
    console.log(`saved ${file}`);
  } finally {
    await built.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await runBench("api-lists", main);
