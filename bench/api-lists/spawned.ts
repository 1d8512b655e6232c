/**
 * Benchmark: organization create and list the way issue 34 measured them, on a console run as
 * `make start` runs it (its own process, so its CPU seconds from /proc are its own and the client's
 * work is not in them). SQLite.
 *
 *   npm run build -w server && npx tsx bench/api-lists/spawned.ts [--creates N] [--seconds S]
 *     [--clients C] [--entry path/to/main.js] [--wait-idle[=SECONDS]]
 *
 * 1. N (200) sequential `POST /organizations`: p50/p99 ms and the console's CPU-ms per create. The
 *    list of step 2 runs after the first 100, so that it reads exactly 100 organizations.
 * 2. `GET /organizations?limit=100` over 100 organizations, C (8) keep-alive clients accepting gzip,
 *    for S seconds: requests/s, p50/p99 ms, bytes on the wire, the console's CPU-ms per request.
 * 3. The same with `limit=1000` over 1,200 organizations (seeded through the API).
 * Targets (issue 34): create p50 <= 8 ms and <= 7 CPU-ms; 100 rows >= 190 req/s; 1,000 rows >= 14 req/s.
 * `--entry` runs another build (e.g. a copy of main's bundle) for before/after pairs.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import {
  conditions,
  formatFigure,
  processCpuSeconds,
  reportLoad,
  runBench,
  waitIdleIfAsked,
  type Conditions,
} from "../support/conditions.js";
import { ADMIN_AUTH, adminClient } from "../support/console.js";
import { ENTRIES, requireBundle, startSpawnedConsole } from "../support/spawned-console.js";
import { numberArg, pathArg } from "../support/args.js";

const CREATES = numberArg("--creates", 200);
const SECONDS = numberArg("--seconds", 10);
const CLIENTS = numberArg("--clients", 8);
const ENTRY = pathArg("--entry") ?? ENTRIES.bundle;
const here = dirname(fileURLToPath(import.meta.url));

const pct = (sorted: number[], p: number): number =>
  Number((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN).toFixed(1));

/** One GET on a keep-alive agent with gzip accepted: status, ms, and the body as sent (still compressed). */
function get(
  agent: Agent,
  base: URL,
  path: string,
): Promise<{ status: number; ms: number; body: Buffer; gzip: boolean }> {
  const t = performance.now();
  return new Promise((res, rej) => {
    const req = request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        path,
        headers: { authorization: ADMIN_AUTH, "accept-encoding": "gzip" },
      },
      (r) => {
        const chunks: Buffer[] = [];
        r.on("data", (b: Buffer) => chunks.push(b));
        r.once("end", () =>
          res({
            status: r.statusCode ?? 0,
            ms: performance.now() - t,
            body: Buffer.concat(chunks),
            gzip: r.headers["content-encoding"] === "gzip",
          }),
        );
      },
    );
    req.once("error", rej);
    req.end();
  });
}

interface ListFigure {
  path: string;
  organizations: number;
  clients: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  wireBytes: number;
  jsonBytes: number;
  gzip: boolean;
  consoleCpuMsPerRequest: number;
  conditions: Conditions;
}

/**
 * `CLIENTS` keep-alive clients GETting `path` for `SECONDS`. Checks first that the page decodes to
 * `expect` items, so a figure is never taken on an error page.
 */
async function loadList(base: string, pid: number, path: string, orgs: number, expect: number): Promise<ListFigure> {
  const url = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const probe = await get(agent, url, path);
  if (probe.status !== 200) throw new Error(`GET ${path}: ${probe.status} ${probe.body.toString().slice(0, 200)}`);
  const json = probe.gzip ? gunzipSync(probe.body) : probe.body;
  const items = (JSON.parse(json.toString()) as { items: unknown[] }).items.length;
  if (items !== expect) throw new Error(`GET ${path}: ${items} items, expected ${expect}`);
  // A second of warm-up, as a client that has been polling would find the console.
  const warmEnd = performance.now() + 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < warmEnd) await get(agent, url, path);
    }),
  );
  const ms: number[] = [];
  const cpu0 = processCpuSeconds(pid) ?? NaN;
  const t0 = performance.now();
  const end = t0 + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < end) {
        const r = await get(agent, url, path);
        if (r.status !== 200) throw new Error(`GET ${path}: ${r.status}`);
        ms.push(r.ms);
      }
    }),
  );
  const wall = performance.now() - t0;
  const c = conditions(processCpuSeconds(pid));
  agent.destroy();
  ms.sort((a, b) => a - b);
  return {
    path,
    organizations: orgs,
    clients: CLIENTS,
    requests: ms.length,
    rps: Number(((ms.length * 1000) / wall).toFixed(1)),
    p50: pct(ms, 50),
    p99: pct(ms, 99),
    wireBytes: probe.body.length,
    jsonBytes: json.length,
    gzip: probe.gzip,
    consoleCpuMsPerRequest: Number(((((c.consoleCpuS ?? NaN) - cpu0) * 1000) / ms.length).toFixed(2)),
    conditions: c,
  };
}

async function main(): Promise<void> {
  requireBundle();
  await waitIdleIfAsked();
  const all: Conditions[] = [];
  const c = await startSpawnedConsole("spawned-lists", ENTRY, 60_000);
  try {
    const { http } = adminClient(c.base);
    let made = 0;
    const create = async (): Promise<number> => {
      const s = performance.now();
      await http("POST", "/organizations", { mspId: `Bench${made}MSP`, name: `Bench ${made}` });
      made++;
      return performance.now() - s;
    };
    const createMs: number[] = [];
    let createCpuS = 0;
    const timedCreates = async (n: number): Promise<void> => {
      const cpu0 = processCpuSeconds(c.pid) ?? NaN;
      for (let i = 0; i < n; i++) createMs.push(await create());
      createCpuS += (processCpuSeconds(c.pid) ?? NaN) - cpu0;
    };
    const first = Math.min(100, CREATES);
    await timedCreates(first);
    const lists: ListFigure[] = [];
    if (made === 100) lists.push(await loadList(c.base, c.pid, "/api/v1/organizations?limit=100", 100, 100));
    await timedCreates(CREATES - first);
    const createC = conditions(processCpuSeconds(c.pid));
    const sorted = [...createMs].sort((a, b) => a - b);
    const createFig = {
      creates: createMs.length,
      p50: pct(sorted, 50),
      p99: pct(sorted, 99),
      consoleCpuMsPerCreate: Number(((createCpuS * 1000) / createMs.length).toFixed(1)),
      conditions: createC,
    };
    const s0 = performance.now();
    while (made < 1200) await create();
    console.log(`seeded to 1200 organizations in ${Math.round(performance.now() - s0)} ms`);
    lists.push(await loadList(c.base, c.pid, "/api/v1/organizations?limit=1000", 1200, 1000));

    console.log(`\nconsole: ${ENTRY}, SQLite`);
    all.push(createC, ...lists.map((l) => l.conditions));
    console.log(
      formatFigure(
        `organization create, ${createFig.creates} sequential: p50`,
        `${createFig.p50} ms, p99 ${createFig.p99} ms, ${createFig.consoleCpuMsPerCreate} console CPU-ms each`,
        createC,
      ),
    );
    for (const l of lists)
      console.log(
        formatFigure(
          `GET ${l.path} over ${l.organizations} orgs, ${l.clients} keep-alive clients (gzip):`,
          `${l.rps} req/s, p50 ${l.p50} ms, p99 ${l.p99} ms, ${l.wireBytes} B on the wire (${l.jsonBytes} B JSON${l.gzip ? ", gzip" : ""}), ${l.consoleCpuMsPerRequest} console CPU-ms per request`,
          l.conditions,
        ),
      );
    reportLoad(all);
    const out = join(here, "results");
    mkdirSync(out, { recursive: true });
    const file = join(out, `api-lists-spawned-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(
      file,
      JSON.stringify({ entry: ENTRY, create: createFig, lists, loadTooHigh: all.some((x) => x.loadTooHigh) }, null, 2),
    );
    console.log(`saved ${file}`);
  } finally {
    await c.close();
  }
}

await runBench("api-lists (spawned)", main);
