/**
 * Benchmark: list endpoints at 100 and 1,000 rows over a real HTTP listener (not inject), organization
 * creation with event-loop blocking, and cold start of the built server (spawn to first 200 on /healthz).
 *
 *   npm run build -w server   # cold start measures server/bundle/main.js (what `make start` runs) and server/dist/main.js
 *   npx tsx bench/api-lists/run.ts [--rows N] [--requests N]
 *
 * Seeding goes through the real API (organizations, keys, users); the audit log fills from those calls.
 * SQLite only: PostgreSQL is not measured yet.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { buildApp } from "../../server/src/app.js";
import { loadConfig } from "../../server/src/config/config.js";

const arg = (name: string, dflt: number): number =>
  Number(process.argv[process.argv.indexOf(name) + 1] || dflt) || dflt;
const ROWS = arg("--rows", 1000);
const REQUESTS = arg("--requests", 20);
const PASSWORD = "bench-password-1";
const here = dirname(fileURLToPath(import.meta.url));
const auth = { authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString("base64")}` };

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
  };
}

/** Median of `runs` starts of `entry` (relative to server/): spawn to the first 200 on /healthz, fresh data dir each. */
async function coldStarts(entry: string, runs = 5): Promise<number | null> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const one = await coldStart(join(here, "../../server", entry));
    if (one === null) return null;
    ms.push(one);
  }
  return ms.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

async function coldStart(main: string): Promise<number | null> {
  const dataDir = mkdtempSync(join(tmpdir(), "cl-bench-cold-"));
  const port = 34900 + Math.floor(Math.random() * 90);
  const t0 = performance.now();
  const child = spawn(process.execPath, [main, "serve"], {
    env: {
      ...process.env,
      CHAINLAUNCH_ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: "silent",
      CHAINLAUNCH_DATA: dataDir,
      PORT: String(port),
      CHAINLAUNCH_PORT: String(port),
    },
    stdio: "ignore",
  });
  try {
    while (performance.now() - t0 < 30_000) {
      try {
        const r = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (r.status === 200) return Number((performance.now() - t0).toFixed(0));
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    return null;
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
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
    const cold = await coldStarts("bundle/main.js");
    const coldUnbundled = await coldStarts("dist/main.js");

    console.log(`\nSQLite, ${ROWS} rows each, ${REQUESTS} sequential requests per list`);
    console.table(lists);
    console.table([{ ...create, coldStartMs: cold, coldStartUnbundledMs: coldUnbundled }]);
    const out = join(here, "results");
    mkdirSync(out, { recursive: true });
    const file = join(out, `api-lists-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(
      file,
      JSON.stringify({ rows: ROWS, lists, create, coldStartMs: cold, coldStartUnbundledMs: coldUnbundled }, null, 2),
    );
    console.log(`saved ${file}`);
  } finally {
    await built.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
