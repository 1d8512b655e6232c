/**
 * Benchmark: the Fabric chaincode lifecycle and calls on a 2-org channel (a peer each, one orderer).
 * - time from a new definition to the first successful invoke, by phase (install, approve ×2,
 *   commit, build + start of the chaincode server, first invoke);
 * - invoke and query latency (p50/p99) and throughput at a fixed concurrency, through the console's
 *   HTTP API and through a direct fabric-gateway client (same peer, same org admin identity, read
 *   from an MSP folder the console exported) in the same run, and the console's overhead as a ratio.
 *
 *   npx tsx bench/chaincode/run.ts [--requests N] [--concurrency C] [--wait-idle[=SECONDS]]
 *
 * Each phase and each call row carries the 1-minute load and the CPU seconds this process used for it
 * (the console runs in-process, so the direct client's and the console's work both count there),
 * flagged when the load was too high to compare (bench/support/conditions.ts).
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
  reportLoad,
  runBench,
  selfCpuSeconds,
  waitIdleIfAsked,
  type Conditions,
} from "../support/conditions.js";
import { FABRIC_VERSION as VERSION, startBenchConsole, usePortRange, type Json } from "../support/console.js";
import { numberArg } from "../support/args.js";

/** Every figure's conditions, for the closing line on how many were taken at too high a load. */
const all: Conditions[] = [];
const taken = (cpu0: NodeJS.CpuUsage): Conditions => {
  const c = conditions(selfCpuSeconds(cpu0));
  all.push(c);
  return c;
};

const REQUESTS = numberArg("--requests", 200);
const CONCURRENCY = numberArg("--concurrency", 8);
const here = dirname(fileURLToPath(import.meta.url));

const pct = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const round = (n: number, d = 1): number => Math.round(n * 10 ** d) / 10 ** d;

/** Runs `n` calls with `c` in flight; returns latencies (ms) and throughput (calls/s). */
async function load(n: number, c: number, fn: (i: number) => Promise<void>) {
  const lat: number[] = [];
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: c }, async () => {
      for (let i = next++; i < n; i = next++) {
        const s = performance.now();
        await fn(i);
        lat.push(performance.now() - s);
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  return {
    p50: round(pct(lat, 50)),
    p99: round(pct(lat, 99)),
    perSec: round(n / secs),
    ...conditionColumns(taken(cpu0)),
  };
}

async function main(): Promise<void> {
  await waitIdleIfAsked();
  const bench = await startBenchConsole("cc");
  const { http, until } = bench;
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
    const cpuT0 = process.cpuUsage();
    let cpuLast = cpuT0;
    const mark = (name: string): void => {
      const now = performance.now();
      phases[name] = Math.round(now - last);
      phaseConditions[name] = taken(cpuLast);
      last = now;
      cpuLast = process.cpuUsage();
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
    const client = new grpc.Client(
      String(p1.fabricPeer.externalEndpoint),
      grpc.credentials.createSsl(readFileSync(msp.tlsRootCertFile)),
    );
    const gateway = connect({
      client,
      identity: { mspId: msp.mspId, credentials: certPem },
      signer: signers.newPrivateKeySigner(createPrivateKey(keyPem)),
      hash: hash.sha256,
    });
    const contract = gateway.getNetwork("benchcc").getContract("benchasset");
    const rows: Json[] = [];
    const pair = async (
      what: string,
      n: number,
      api: (i: number) => Promise<void>,
      direct: (i: number) => Promise<void>,
    ) => {
      await api(-1);
      await direct(-2); // warm both paths
      const a = await load(n, CONCURRENCY, api);
      const d = await load(n, CONCURRENCY, direct);
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
      async () =>
        void (await http("POST", `/sc/fabric/chaincodes/${cc.id}/query`, { function: "ReadAsset", args: ["a0"] })),
      async () => void (await contract.evaluateTransaction("ReadAsset", "a0")),
    );
    await pair(
      "invoke CreateAsset",
      Math.max(20, Math.floor(REQUESTS / 2)),
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

await runBench("chaincode", main);
