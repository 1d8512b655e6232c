/**
 * Benchmark: the managed Prometheus scraping N Fabric nodes (default 10: 8 peers and 2 orderers of
 * one organization). The console is the bundled server as `make start` runs it (its own process, so
 * its RSS is the console's alone). Measures the console's RSS before and while Prometheus is
 * deployed, Prometheus's own RSS over a sampling window, the nodes' RSS for scale, the time from
 * deploy to every target up, and the latency of the node Metrics tab's range query.
 *
 *   npm run build -w server && npx tsx bench/metrics/run.ts [--nodes N] [--seconds S] [--interval I]
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../server/src/test-support/postgres.js";
import { processesUnder } from "../../server/src/test-support/processes.js";
import { adminClient, BENCH_PASSWORD, FABRIC_VERSION as VERSION, type Json } from "../support/console.js";

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) || dflt : dflt;
};
const NODES = arg("--nodes", 10);
const SECONDS = arg("--seconds", 120);
const INTERVAL = arg("--interval", 15);
const here = dirname(fileURLToPath(import.meta.url));
const MiB = 1024 * 1024;

/** Resident set size of a pid in bytes (VmRSS), 0 when gone. */
function rss(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

/** The bundled server on a free port with a fresh data directory, and an admin HTTP helper. */
async function startBundledConsole() {
  const dataDir = mkdtempSync(join(tmpdir(), "cl-bench-mt-"));
  const port = await freePort();
  const server = spawn(process.execPath, [resolve(here, "../../server/bundle/main.js"), "serve"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      CHAINLAUNCH_DATA: dataDir,
      CHAINLAUNCH_ADMIN_PASSWORD: BENCH_PASSWORD,
      CHAINLAUNCH_FABRIC_DOWNLOAD: "0",
      LOG_LEVEL: "warn",
    },
    stdio: "ignore",
  });
  const base = `http://127.0.0.1:${port}`;
  const { http, until } = adminClient(base);
  await until("the console to answer", async () => ((await fetch(`${base}/healthz`)).ok ? true : undefined), 60_000);
  return {
    http,
    until,
    dataDir,
    pid: server.pid ?? 0,
    async close(): Promise<void> {
      server.kill("SIGTERM");
      await new Promise((r) => server.once("exit", r));
      for (const pid of processesUnder(dataDir)) process.kill(pid, "SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function main(): Promise<void> {
  const { http, until, close, dataDir, pid } = await startBundledConsole();
  const nodes: Json[] = [];
  const result: Json = { nodes: NODES, scrapeIntervalSeconds: INTERVAL, sampleSeconds: SECONDS };
  try {
    const settings = (await http("GET", "/settings")).config;
    await http("POST", "/settings", { config: { ...settings, portRangeStart: 34500, portRangeEnd: 34599 } });
    const org = await http("POST", "/organizations", { mspId: "MbOrg1MSP", name: "MbOrg1MSP" });
    const orderers = Math.min(2, Math.max(0, NODES - 1));
    const peers = NODES - orderers;
    // One at a time: each proposal must see the ports the ones before it took.
    for (let i = 0; i < NODES; i++) {
      const kind = i < peers ? "peer" : "orderer";
      const d = await http(
        "GET",
        `/nodes/defaults/fabric?peerCount=${kind === "peer" ? 1 : 0}&ordererCount=${kind === "orderer" ? 1 : 0}`,
      );
      const x = kind === "peer" ? d.peers[0] : d.orderers[0];
      const base = { organizationId: org.id, mspId: org.mspId, version: VERSION, ...x };
      const n = await http("POST", "/nodes", {
        name: `mb-${kind}${i}`,
        blockchainPlatform: "FABRIC",
        ...(kind === "peer" ? { fabricPeer: base } : { fabricOrderer: base }),
      });
      nodes.push(
        await until(`${n.name} RUNNING`, async () => {
          const cur = await http("GET", `/nodes/${n.id}`);
          return cur.status === "RUNNING" ? cur : undefined;
        }),
      );
    }
    result.consoleRssBeforeMiB = rss(pid) / MiB;

    const port = await freePort();
    const t0 = Date.now();
    await http("POST", "/metrics/deploy", {
      prometheus_port: port,
      prometheus_version: "bench",
      scrape_interval: INTERVAL,
    });
    result.deployMs = Date.now() - t0;
    await until(
      "every target up",
      async () => {
        const t = ((await http("GET", "/metrics/targets")).activeTargets ?? []) as Json[];
        return t.length === NODES && t.every((x) => x.health === "up") ? true : undefined;
      },
      120_000,
    );
    result.deployToAllUpMs = Date.now() - t0;
    const promPid = processesUnder(join(dataDir, "prometheus"))[0] ?? 0;

    const consoleRss: number[] = [];
    const promRss: number[] = [];
    const nodesRss: number[] = [];
    const nodePids = processesUnder(join(dataDir, "nodes"));
    const end = Date.now() + SECONDS * 1000;
    while (Date.now() < end) {
      consoleRss.push(rss(pid) / MiB);
      promRss.push(rss(promPid) / MiB);
      nodesRss.push(nodePids.reduce((a, p) => a + rss(p), 0) / MiB);
      await new Promise((r) => setTimeout(r, 5000));
    }
    result.consoleRssMiB = { p50: pct(consoleRss, 50), max: Math.max(...consoleRss) };
    result.prometheusRssMiB = { p50: pct(promRss, 50), max: Math.max(...promRss) };
    result.nodesRssMiB = { p50: pct(nodesRss, 50), max: Math.max(...nodesRss) };

    // The Metrics tab's reads: a 15-minute range of one panel, through the console.
    const peer = nodes[0] as Json;
    const lat: number[] = [];
    for (let i = 0; i < 50; i++) {
      const now = Math.ceil(Date.now() / 1000);
      const q = new URLSearchParams({
        query: "rate(process_cpu_seconds_total[2m])",
        start: String(now - 900),
        end: String(now),
        step: "8s",
      });
      const s = performance.now();
      await http("GET", `/metrics/node/${peer.id}/range?${q.toString()}`);
      lat.push(performance.now() - s);
    }
    result.rangeQueryMs = { p50: pct(lat, 50), p99: pct(lat, 99) };
  } finally {
    await http("POST", "/metrics/undeploy").catch(() => undefined);
    for (const n of nodes) await http("POST", `/nodes/${n.id}/stop`).catch(() => undefined);
    await close();
  }

  const r2 = (n: number): string => n.toFixed(1);
  console.log(`\nmanaged Prometheus, ${NODES} Fabric nodes, scrape every ${INTERVAL}s, sampled ${SECONDS}s`);
  console.log(`deploy (config + start + ready)         ${result.deployMs} ms`);
  console.log(`deploy -> all ${NODES} targets up            ${result.deployToAllUpMs} ms`);
  console.log(`console RSS before deploy               ${r2(result.consoleRssBeforeMiB)} MiB`);
  console.log(
    `console RSS while scraped (p50 / max)   ${r2(result.consoleRssMiB.p50)} / ${r2(result.consoleRssMiB.max)} MiB`,
  );
  console.log(
    `Prometheus RSS (p50 / max)              ${r2(result.prometheusRssMiB.p50)} / ${r2(result.prometheusRssMiB.max)} MiB`,
  );
  console.log(`the ${NODES} nodes' RSS, summed (p50)        ${r2(result.nodesRssMiB.p50)} MiB`);
  console.log(
    `range query via console (p50 / p99)     ${r2(result.rangeQueryMs.p50)} / ${r2(result.rangeQueryMs.p99)} ms`,
  );
  mkdirSync(join(here, "results"), { recursive: true });
  writeFileSync(join(here, "results", `metrics-${Date.now()}.json`), JSON.stringify(result, null, 2));
}

await main();
