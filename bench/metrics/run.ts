/**
 * Benchmark: the managed Prometheus scraping N Fabric nodes (default 10: 8 peers and 2 orderers of
 * one organization). The console is the bundled server as `make start` runs it (its own process, so
 * its RSS is the console's alone). Measures the console's RSS before and while Prometheus is
 * deployed, Prometheus's own RSS over a sampling window, the nodes' RSS for scale, the time from
 * deploy to every target up, and the latency of the node Metrics tab's range query.
 *
 *   npm run build -w server && npx tsx bench/metrics/run.ts [--nodes N] [--seconds S] [--interval I]
 *     [--wait-idle[=SECONDS]]
 *
 * Each figure carries the 1-minute load and the console process's CPU seconds (from /proc) when it was
 * taken, flagged when the load was too high to compare (bench/support/conditions.ts).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, releasePorts } from "../../server/src/test-support/ports.js";
import { processesUnder } from "../../server/src/test-support/processes.js";
import {
  conditions,
  formatFigure,
  processCpuSeconds,
  reportLoad,
  rssMiB,
  runBench,
  waitIdleIfAsked,
  type Conditions,
} from "../support/conditions.js";
import { adminClient, FABRIC_VERSION as VERSION, usePortRange, type Json } from "../support/console.js";
import { requireBundle, startSpawnedConsole } from "../support/spawned-console.js";
import { numberArg } from "../support/args.js";

const NODES = numberArg("--nodes", 10);
const SECONDS = numberArg("--seconds", 120);
const INTERVAL = numberArg("--interval", 15);
const here = dirname(fileURLToPath(import.meta.url));
const MiB = 1024 * 1024;

/** Resident set size of a pid in bytes (VmRSS), 0 when gone. */
const rss = (pid: number): number => (rssMiB(pid) ?? 0) * MiB;

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

/** The bundled server on a free port with a fresh data directory, and an admin HTTP helper. */
async function startBundledConsole() {
  requireBundle();
  const c = await startSpawnedConsole("mt");
  const { http, until } = adminClient(c.base);
  return {
    http,
    until,
    dataDir: c.dataDir,
    pid: c.pid,
    async close(): Promise<void> {
      await c.stop();
      for (const pid of processesUnder(c.dataDir)) process.kill(pid, "SIGKILL");
      await c.close();
    },
  };
}

async function main(): Promise<void> {
  await waitIdleIfAsked();
  const { http, until, close, dataDir, pid } = await startBundledConsole();
  const nodes: Json[] = [];
  const result: Json = { nodes: NODES, scrapeIntervalSeconds: INTERVAL, sampleSeconds: SECONDS };
  /** The conditions of each figure, by the figure's name in `result`. */
  const at: Record<string, Conditions> = {};
  const taken = (name: string): void => void (at[name] = conditions(processCpuSeconds(pid)));
  let releaseRange = (): void => undefined;
  let promPort = 0;
  try {
    releaseRange = await usePortRange(http);
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
    taken("consoleRssBeforeMiB");

    const port = await freePort();
    promPort = port;
    const t0 = Date.now();
    await http("POST", "/metrics/deploy", {
      prometheus_port: port,
      prometheus_version: "bench",
      scrape_interval: INTERVAL,
    });
    result.deployMs = Date.now() - t0;
    taken("deployMs");
    await until(
      "every target up",
      async () => {
        const t = ((await http("GET", "/metrics/targets")).activeTargets ?? []) as Json[];
        return t.length === NODES && t.every((x) => x.health === "up") ? true : undefined;
      },
      120_000,
    );
    result.deployToAllUpMs = Date.now() - t0;
    taken("deployToAllUpMs");
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
    taken("consoleRssMiB");

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
    taken("rangeQueryMs");
  } finally {
    await http("POST", "/metrics/undeploy").catch(() => undefined);
    for (const n of nodes) await http("POST", `/nodes/${n.id}/stop`).catch(() => undefined);
    await close();
    releaseRange();
    if (promPort) releasePorts(promPort);
  }
  result.conditions = at;
  result.loadTooHigh = Object.values(at).some((c) => c.loadTooHigh);

  const r2 = (n: number): string => n.toFixed(1);
  /** One figure line, its label padded to a column, with the conditions it was taken under. */
  const line = (label: string, figure: string, name: string): void =>
    console.log(formatFigure(label.padEnd(40), figure, at[name]!));
  console.log(`\nmanaged Prometheus, ${NODES} Fabric nodes, scrape every ${INTERVAL}s, sampled ${SECONDS}s`);
  line("deploy (config + start + ready)", `${result.deployMs} ms`, "deployMs");
  line(`deploy -> all ${NODES} targets up`, `${result.deployToAllUpMs} ms`, "deployToAllUpMs");
  line("console RSS before deploy", `${r2(result.consoleRssBeforeMiB)} MiB`, "consoleRssBeforeMiB");
  line(
    "console RSS while scraped (p50 / max)",
    `${r2(result.consoleRssMiB.p50)} / ${r2(result.consoleRssMiB.max)} MiB`,
    "consoleRssMiB",
  );
  line(
    "Prometheus RSS (p50 / max)",
    `${r2(result.prometheusRssMiB.p50)} / ${r2(result.prometheusRssMiB.max)} MiB`,
    "consoleRssMiB",
  );
  line(`the ${NODES} nodes' RSS, summed (p50)`, `${r2(result.nodesRssMiB.p50)} MiB`, "consoleRssMiB");
  line(
    "range query via console (p50 / p99)",
    `${r2(result.rangeQueryMs.p50)} / ${r2(result.rangeQueryMs.p99)} ms`,
    "rangeQueryMs",
  );
  reportLoad(Object.values(at));
  mkdirSync(join(here, "results"), { recursive: true });
  writeFileSync(join(here, "results", `metrics-${Date.now()}.json`), JSON.stringify(result, null, 2));
}

await runBench("metrics", main);
