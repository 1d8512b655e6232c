/**
 * Benchmark: the Fabric chaincode lifecycle and calls on a 2-org channel (a peer each, one orderer).
 * - time from a new definition to the first successful invoke, by phase (install, approve ×2,
 *   commit, build + start of the chaincode server, first invoke);
 * - invoke and query latency (p50/p99) and throughput at a fixed concurrency, through the console's
 *   HTTP API and through a direct fabric-gateway client (same peer, same org admin identity, read
 *   from an MSP folder the console exported, same signer as the console's) in the same run, and the
 *   console's overhead as a ratio.
 *
 *   npx tsx bench/chaincode/run.ts [--requests N] [--invokes N] [--warm N] [--concurrency C]
 *                                  [--spawned | --entry FILE] [--profile] [--js-signer]
 *                                  [--wait-idle[=SECONDS]]
 *
 * `--spawned` runs the console as `make start` does (server/bundle/main.js, its own process; build it
 * first), so its CPU seconds come from /proc apart from the bench's own (column clientCpuS), and the
 * bench's HTTP and gateway clients don't share its event loop; `--entry FILE` spawns another build's
 * bundle (before/after pairs). `--profile` writes CPU profiles to results/: in-process, of the console's
 * query and invoke loads (the profiler's own thread inflates that run's CPU figures); spawned, of the
 * whole console process, with each load's window printed in ms after the spawn.
 *
 * Each phase and each call row carries the 1-minute load and the console's CPU seconds for it (in-process:
 * this process's, so the bench's clients count there too), and the CPU milliseconds per call, flagged
 * when the load was too high to compare (bench/support/conditions.ts).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createPrivateKey } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import { connect, hash, signers } from "@hyperledger/fabric-gateway";
import {
  conditionColumns,
  conditions,
  load1,
  reportLoad,
  runBench,
  waitIdleIfAsked,
  type Conditions,
} from "../support/conditions.js";
import {
  adminClient,
  FABRIC_VERSION as VERSION,
  startBenchConsole,
  usePortRange,
  type Json,
} from "../support/console.js";
import { cpuMeter, type CpuMark, type CpuMeter } from "../support/console-cpu.js";
import { requireBundle, startSpawnedConsole } from "../support/spawned-console.js";
import { numberArg, pathArg } from "../support/args.js";
import { profiling, startProfile } from "../support/cpu-profile.js";
import { fabricMessageSigner } from "../../server/src/fabric/sign.js";

/** Every figure's conditions, for the closing line on how many were taken at too high a load. */
const all: Conditions[] = [];
/** Set once the console is up: in-process (this process's CPU) or spawned (the console's from /proc). */
let meter: CpuMeter = cpuMeter();
const taken = (m: CpuMark): Conditions => {
  const c = conditions(meter.console(m));
  all.push(c);
  return c;
};
const REQUESTS = numberArg("--requests", 200);
const CONCURRENCY = numberArg("--concurrency", 8);
/** Invokes per path: each waits for a block (~2 s at the orderer's batch timeout), so fewer than queries. */
const INVOKES = numberArg("--invokes", Math.max(20, Math.floor(REQUESTS / 2)));
/** `--js-signer`: the direct client signs with fabric-gateway's JavaScript signer (as before 2026-11-28). */
const JS_SIGNER = process.argv.includes("--js-signer");
/** Untimed queries on each path before the timed ones (see `pair`). */
const WARM_QUERIES = numberArg("--warm", Math.min(REQUESTS, 200));
/** `--spawned`: the console as `make start` runs it (the bundle, its own process), its CPU apart from the bench's. */
const SPAWNED = process.argv.includes("--spawned") || process.argv.includes("--entry");
/** When the spawned console was started (its profile's time origin). */
let spawnedAt: number | undefined;
/** `--entry FILE`: another build's bundle to spawn (e.g. the main branch's, for a before/after pair). */
const ENTRY = pathArg("--entry");
const here = dirname(fileURLToPath(import.meta.url));

const pct = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const round = (n: number, d = 1): number => Math.round(n * 10 ** d) / 10 ** d;

/** One timed stretch of calls: latencies (ms), seconds, the console's and the bench's CPU seconds over it, the load at its end. */
interface Stretch {
  lat: number[];
  secs: number;
  consoleS: number | null;
  clientS: number | null;
  load1: number;
}

/** Runs `n` calls with `c` in flight and returns them unsummarised (see `summary`). */
async function stretch(n: number, c: number, fn: (i: number) => Promise<void>, first = 0): Promise<Stretch> {
  const lat: number[] = [];
  let next = first;
  const end = first + n;
  const cpu0 = meter.mark();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: c }, async () => {
      for (let i = next++; i < end; i = next++) {
        const s = performance.now();
        await fn(i);
        lat.push(performance.now() - s);
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  return { lat, secs, consoleS: meter.console(cpu0), clientS: meter.client(cpu0), load1: load1() };
}

/** p50/p99, calls/s and CPU per call over one or more stretches of the same calls, with their conditions. */
function summary(parts: Stretch[]) {
  const lat = parts.flatMap((p) => p.lat).sort((a, b) => a - b);
  const secs = parts.reduce((t, p) => t + p.secs, 0);
  const sum = (k: "consoleS" | "clientS"): number | null =>
    parts.some((p) => p[k] === null)
      ? null
      : round(
          parts.reduce((t, p) => t + (p[k] ?? 0), 0),
          2,
        );
  const consoleS = sum("consoleS");
  // The stretches' worst load stands for them all.
  const c = conditions(consoleS, Math.max(...parts.map((p) => p.load1)));
  all.push(c);
  return {
    p50: round(pct(lat, 50)),
    p99: round(pct(lat, 99)),
    perSec: round(lat.length / secs),
    ...conditionColumns(c),
    ...(meter.kind === "spawned" ? { clientCpuS: sum("clientS") } : {}),
    // CPU milliseconds per call: the console's (in-process: with the bench's client).
    cpuMsPerCall: consoleS === null ? NaN : round((consoleS * 1000) / lat.length, 2),
  };
}

/** Runs `n` calls with `c` in flight; returns latencies (ms) and throughput (calls/s). */
async function load(n: number, c: number, fn: (i: number) => Promise<void>) {
  return summary([await stretch(n, c, fn)]);
}

async function main(): Promise<void> {
  await waitIdleIfAsked();
  if (SPAWNED && !ENTRY) requireBundle();
  const bench: Pick<ReturnType<typeof adminClient>, "http" | "until"> & { pid?: number; close(): Promise<void> } =
    SPAWNED ? await spawned() : await startBenchConsole("cc");
  const { http, until } = bench;
  meter = cpuMeter(bench.pid);
  console.log(
    `console: ${meter.kind}${bench.pid ? ` (pid ${bench.pid}, CPU from /proc)` : " (CPU: this process, client included)"}`,
  );
  const nodes: Json[] = [];
  let releaseRange = (): void => undefined;
  try {
    releaseRange = await usePortRange(http);
    const org = async (mspId: string) => http("POST", "/organizations", { mspId, name: mspId });
    const [o1, o2, oo] = [await org("BenchOrg1MSP"), await org("BenchOrg2MSP"), await org("BenchOrdMSP")];
    const node = async (o: Json, kind: "peer" | "orderer", name: string) => {
      const d = await http(
        "GET",
        `/nodes/defaults/fabric?peerCount=${kind === "peer" ? 1 : 0}&ordererCount=${kind === "orderer" ? 1 : 0}`,
      );
      const x = kind === "peer" ? d.peers[0] : d.orderers[0];
      const base = { organizationId: o.id, mspId: o.mspId, version: VERSION, ...x };
      const n = await http("POST", "/nodes", {
        name,
        blockchainPlatform: "FABRIC",
        ...(kind === "peer" ? { fabricPeer: base } : { fabricOrderer: base }),
      });
      nodes.push(n);
      return n;
    };
    const p1 = await node(o1, "peer", "bench-p1");
    const p2 = await node(o2, "peer", "bench-p2");
    const ord = await node(oo, "orderer", "bench-o1");
    for (const n of [p1, p2, ord]) {
      await until(`${n.name} running`, async () =>
        (await http("GET", `/nodes/${n.id}`)).status === "RUNNING" ? true : undefined,
      );
    }
    const net = await http("POST", "/networks/fabric", {
      name: "benchcc",
      config: {
        peerOrganizations: [
          { id: o1.id, nodeIds: [p1.id] },
          { id: o2.id, nodeIds: [p2.id] },
        ],
        ordererOrganizations: [{ id: oo.id, nodeIds: [ord.id] }],
      },
    });
    await http("POST", `/networks/fabric/${net.id}/orderers/${ord.id}/join`);
    for (const p of [p1, p2]) await http("POST", `/networks/fabric/${net.id}/peers/${p.id}/join`);
    for (const [o, p] of [
      [o1, p1],
      [o2, p2],
    ] as const) {
      const [host, port] = String(p.fabricPeer.externalEndpoint).split(":");
      await http("POST", `/networks/fabric/${net.id}/anchor-peers`, {
        organizationId: o.id,
        anchorPeers: [{ host, port: Number(port) }],
      });
    }

    // Lifecycle: new definition → first successful invoke.
    const source = resolve(here, "../../server/src/fabric/test-support/chaincode/asset-node");
    const phases: Record<string, number> = {};
    const phaseConditions: Record<string, Conditions> = {};
    const cc = (await http("POST", "/sc/fabric/chaincodes", { name: "benchasset", network_id: net.id })).chaincode;
    const t0 = performance.now();
    let last = t0;
    const cpuT0 = meter.mark();
    let cpuLast = cpuT0;
    const mark = (name: string): void => {
      const now = performance.now();
      phases[name] = Math.round(now - last);
      phaseConditions[name] = taken(cpuLast);
      last = now;
      cpuLast = meter.mark();
    };
    const def = (
      await http("POST", `/sc/fabric/chaincodes/${cc.id}/definitions`, {
        version: "1.0",
        sequence: 1,
        endorsement_policy: "AND('BenchOrg1MSP.peer','BenchOrg2MSP.peer')",
        source_path: source,
      })
    ).definition;
    mark("definition (copy source)");
    await http("POST", `/sc/fabric/definitions/${def.id}/install`, { peer_ids: [p1.id, p2.id] });
    mark("install on 2 peers");
    await http("POST", `/sc/fabric/definitions/${def.id}/approve`, { peer_id: p1.id });
    mark("approve org 1");
    await http("POST", `/sc/fabric/definitions/${def.id}/approve`, { peer_id: p2.id });
    mark("approve org 2");
    await http("POST", `/sc/fabric/definitions/${def.id}/commit`, { peer_id: p1.id });
    mark("commit");
    await http("POST", `/sc/fabric/definitions/${def.id}/deploy`, {});
    mark("deploy (npm install + start)");
    await http("POST", `/sc/fabric/chaincodes/${cc.id}/invoke`, { function: "CreateAsset", args: ["a0", "v"] });
    mark("first invoke");
    phases.total = Math.round(performance.now() - t0);
    phaseConditions.total = taken(cpuT0);

    // Calls: console API vs a direct fabric-gateway client on the same peer, same identity.
    const msp = await http("POST", `/organizations/${o1.id}/msp/export`, {});
    const keyPem = readFileSync(join(msp.path, "keystore", readdirSync(join(msp.path, "keystore"))[0]!), "utf8");
    const certPem = readFileSync(join(msp.path, "signcerts", "cert.pem"));
    const opensslSigner = fabricMessageSigner(createPrivateKey(keyPem));
    const client = new grpc.Client(
      String(p1.fabricPeer.externalEndpoint),
      grpc.credentials.createSsl(readFileSync(msp.tlsRootCertFile)),
    );
    const gateway = connect({
      client,
      identity: { mspId: msp.mspId, credentials: certPem },
      // The console's own signer (OpenSSL over the whole message, S made low) unless --js-signer:
      // fabric-gateway's newPrivateKeySigner signs digests in JavaScript, ~1 CPU-ms a call on the
      // bench's event loop, which slowed the direct path at concurrency 8 and so hid part of the
      // console's overhead in the ratio.
      ...(JS_SIGNER
        ? { signer: signers.newPrivateKeySigner(createPrivateKey(keyPem)), hash: hash.sha256 }
        : { signer: async (m: Uint8Array) => opensslSigner(m), hash: hash.none }),
    });
    const contract = gateway.getNetwork("benchcc").getContract("benchasset");
    const rows: Json[] = [];
    /**
     * One call measured both ways, in the same conditions: each path first gets `warm` untimed calls
     * at the same concurrency (the console's JIT, the client's, the peer's and the chaincode's caches),
     * then the timed calls run in halves in the order direct, console, console, direct, so a drift over
     * the run (the ledger growing, another process's load) weighs on both paths alike. (Until
     * 2026-11-28 each path had one warm-up call and the console ran first: its JIT warm-up was in its
     * figures, while the direct client ran on a peer and chaincode the console's calls had warmed.)
     */
    const pair = async (
      what: string,
      n: number,
      warm: number,
      api: (i: number) => Promise<void>,
      direct: (i: number) => Promise<void>,
    ) => {
      await stretch(warm, CONCURRENCY, api, -warm);
      await stretch(warm, CONCURRENCY, direct, -2 * warm);
      const half = Math.ceil(n / 2);
      const d1 = await stretch(half, CONCURRENCY, direct);
      const consoleHalf = async (first: number): Promise<Stretch> => {
        const from = spawnedAt === undefined ? 0 : Math.round(performance.now() - spawnedAt);
        const stopProfile = bench.pid ? async () => null : await startProfile();
        const r = await stretch(first === 0 ? half : n - half, CONCURRENCY, api, first);
        if (profiling && spawnedAt !== undefined) {
          console.log(
            `console profile: ${what} from ${from} to ${Math.round(performance.now() - spawnedAt)} ms after spawn (${r.lat.length} calls)`,
          );
        }
        const profile = await stopProfile(
          join(here, "results", `chaincode-${what.split(" ")[0]}-${first}-${Date.now()}.cpuprofile`),
        );
        if (profile) console.log(`CPU profile of the console's ${what} calls: ${profile}`);
        return r;
      };
      const a1 = await consoleHalf(0);
      const a2 = await consoleHalf(half);
      const d2 = await stretch(n - half, CONCURRENCY, direct, half);
      const a = summary([a1, a2]);
      const d = summary([d1, d2]);
      rows.push({ call: what, path: "console API", ...a });
      rows.push({ call: what, path: "fabric-gateway direct", ...d });
      rows.push({
        call: what,
        path: "overhead (console/direct)",
        p50: round(a.p50 / d.p50, 2),
        p99: round(a.p99 / d.p99, 2),
        perSec: round(d.perSec / a.perSec, 2),
      });
    };
    await pair(
      "query ReadAsset",
      REQUESTS,
      WARM_QUERIES,
      async () =>
        void (await http("POST", `/sc/fabric/chaincodes/${cc.id}/query`, { function: "ReadAsset", args: ["a0"] })),
      async () => void (await contract.evaluateTransaction("ReadAsset", "a0")),
    );
    await pair(
      "invoke CreateAsset",
      INVOKES,
      CONCURRENCY,
      async (i) =>
        void (await http("POST", `/sc/fabric/chaincodes/${cc.id}/invoke`, {
          function: "CreateAsset",
          args: [`api-${i}`, "v"],
        })),
      async (i) => void (await contract.submitTransaction("CreateAsset", `direct-${i}`, "v")),
    );
    // The console's own floor: an authenticated read that touches no peer.
    const floor = await load(
      REQUESTS,
      CONCURRENCY,
      async () => void (await http("GET", `/sc/fabric/chaincodes/${cc.id}`)),
    );
    rows.push({ call: "GET /sc/fabric/chaincodes/{id}", path: "console API (no peer)", ...floor });
    // What the console spends with no call at all (health polls, supervision of the 3 nodes and the
    // chaincode server), per second: the long invoke rows carry it too.
    const idle0 = meter.mark();
    await new Promise((r) => setTimeout(r, 3000));
    const idleCpu = meter.console(idle0);
    rows.push({
      call: "no calls for 3 s",
      path: "console idle",
      ...conditionColumns(taken(idle0)),
      cpuMsPerSecond: idleCpu === null ? null : round((idleCpu * 1000) / 3, 1),
    });
    gateway.close();
    client.close();

    console.log(`\nFabric ${VERSION}: new definition → first successful invoke on a 2-org channel (AND policy), ms`);
    console.table(
      Object.entries(phases).map(([phase, ms]) => ({
        phase,
        ms,
        ...(phaseConditions[phase] ? conditionColumns(phaseConditions[phase]) : {}),
      })),
    );
    console.log(
      `\ncalls at concurrency ${CONCURRENCY} (p50/p99 ms, calls/s; overhead row: console ÷ direct, throughput direct ÷ console)`,
    );
    console.table(rows);
    reportLoad(all);
    const out = join(here, "results");
    mkdirSync(out, { recursive: true });
    const file = join(out, `chaincode-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        {
          version: VERSION,
          concurrency: CONCURRENCY,
          phases,
          phaseConditions,
          calls: rows,
          loadTooHigh: all.some((c) => c.loadTooHigh),
        },
        null,
        2,
      ),
    );
    console.log(`saved ${file}`);
  } finally {
    const defs = await http("GET", "/sc/fabric/chaincodes").catch(() => ({ chaincodes: [] }));
    for (const c of defs.chaincodes as Json[])
      await http("DELETE", `/sc/fabric/chaincodes/${c.id}`).catch(() => undefined);
    for (const n of nodes) await http("POST", `/nodes/${n.id}/stop`).catch(() => undefined);
    await bench.close();
    releaseRange();
  }
}

/** The bundle as its own process on a fresh data directory, behind the same admin client. */
async function spawned() {
  // --profile: V8 writes the console's whole-process profile when it exits; the bench prints where
  // each call window starts and ends, in ms after the spawn.
  const nodeArgs = profiling ? ["--cpu-prof", `--cpu-prof-dir=${join(here, "results")}`] : [];
  spawnedAt = performance.now();
  const c = await startSpawnedConsole("cc", ENTRY, 60_000, nodeArgs);
  return { ...adminClient(c.base), pid: c.pid, close: c.close };
}

await runBench("chaincode", main);
