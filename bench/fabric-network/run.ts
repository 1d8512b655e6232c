/**
 * Benchmark: first API call → a channel with 3 raft orderers and 2 peers all joined and at the same
 * height. Drives the real server in-process with real Fabric binaries.
 *
 *   npx tsx bench/fabric-network/run.ts [--runs N] [--mode process|docker|both] [--wait-idle[=SECONDS]]
 *
 * `--mode docker` runs the five nodes as containers (mode "docker"); `both` runs the two modes in
 * turn in each run, so their figures share the machine's conditions. The engine is
 * CHAINLAUNCH_DOCKER_HOST, or a dockerd this run starts (scripts/docker-daemon.sh) and stops.
 * Each run prints its load and the console's CPU seconds (in-process: this process) beside its total,
 * flagged when the load was too high to compare (bench/support/conditions.ts).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp, type BuiltApp } from "../../server/src/app.js";
import { loadConfig } from "../../server/src/config/config.js";
import { createFabricBinaryResolver } from "../../server/src/runtime/index.js";
import { releasePorts, reservePorts } from "../../server/src/test-support/ports.js";
import {
  conditionColumns,
  conditions,
  LOAD_LIMIT,
  formatFigure,
  selfCpuSeconds,
  load1,
  reportLoad,
  runBench,
  waitIdleIfAsked,
  type Conditions,
} from "../support/conditions.js";
import { until } from "../support/console.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const VERSION = process.env.CHAINLAUNCH_E2E_FABRIC_VERSION ?? "3.1.0";
const runs = Number(process.argv[process.argv.indexOf("--runs") + 1] || 1) || 1;
const modeArg = process.argv.includes("--mode") ? process.argv[process.argv.indexOf("--mode") + 1] : "process";
const modes: ("process" | "docker")[] =
  modeArg === "both" ? ["process", "docker"] : modeArg === "docker" ? ["docker"] : ["process"];
const here = dirname(fileURLToPath(import.meta.url));
const admin = { authorization: `Basic ${Buffer.from("admin:bench-password-1").toString("base64")}` };

async function main(): Promise<void> {
  await waitIdleIfAsked();
  if (!(await createFabricBinaryResolver({ downloader: null }).findLocal(VERSION, ["peer", "orderer"]))) {
    console.error(`no Fabric ${VERSION} binaries: run scripts/fabric-build.sh ${VERSION}`);
    process.exit(2);
  }
  let dockerHost = process.env.CHAINLAUNCH_DOCKER_HOST ?? "";
  let ownDocker = "";
  if (modes.includes("docker") && !dockerHost) {
    ownDocker = mkdtempSync(join(tmpdir(), "cl-bench-docker-"));
    const script = join(here, "../../scripts/docker-daemon.sh");
    dockerHost = execFileSync("bash", [script, "start", ownDocker], { encoding: "utf8" }).trim();
  }
  const results: Json[] = [];
  try {
    for (let i = 0; i < runs; i++) for (const mode of modes) results.push(await once(mode, dockerHost));
  } finally {
    if (ownDocker) {
      execFileSync("bash", [join(here, "../../scripts/docker-daemon.sh"), "stop", ownDocker]);
      rmSync(ownDocker, { recursive: true, force: true });
    }
  }
  const summary: Json = {};
  for (const mode of modes) {
    const mine = results.filter((r) => r.mode === mode);
    const phases = Object.keys(mine[0]!.phases as Json);
    const rows = phases.map((p) => {
      const v = mine.map((r) => r.phases[p] as number).sort((a, b) => a - b);
      const cpu = mine.map((r) => r.phaseConditions[p].consoleCpuS as number).sort((a, b) => a - b);
      const load = Math.max(...mine.map((r) => r.phaseConditions[p].load1 as number));
      return {
        phase: p,
        min: v[0],
        median: v[Math.floor(v.length / 2)],
        max: v[v.length - 1],
        // Cumulative from the first call, like the times: the console's CPU seconds (median) and the worst load.
        ...conditionColumns({
          load1: load,
          consoleCpuS: cpu[Math.floor(cpu.length / 2)] ?? null,
          loadTooHigh: load > LOAD_LIMIT,
        }),
      };
    });
    summary[mode] = rows;
    console.log(
      `\nFabric ${VERSION}, mode ${mode}: 1 org, 3 raft orderers, 2 peers, ${mine.length} run(s), milliseconds`,
    );
    console.table(rows);
    for (const r of mine) {
      console.log(
        "  " +
          formatFigure(
            "run: total",
            `${r.phases.leader_and_first_config_update} ms, console RSS ${r.rssMiB} MiB, load ${r.load.before} before`,
            r.conditions as Conditions,
          ),
      );
    }
  }
  if (summary.process && summary.docker) {
    const total = (mode: string): number =>
      (summary[mode] as Json[]).find((r) => r.phase === "leader_and_first_config_update")!.median as number;
    const running = (mode: string): number =>
      (summary[mode] as Json[]).find((r) => r.phase === "processes_running")!.median as number;
    console.log(
      `\ndocker / process, medians: to the first config update ${(total("docker") / total("process")).toFixed(2)}x, ` +
        `to all five running ${(running("docker") / running("process")).toFixed(2)}x`,
    );
  }
  reportLoad(results.map((r) => r.conditions as Conditions));
  const out = join(here, "results");
  mkdirSync(out, { recursive: true });
  const file = join(out, `fabric-network-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify({ version: VERSION, runs: results, summary }, null, 2));
  console.log(`saved ${file}`);
}

async function once(mode: "process" | "docker", dockerHost: string): Promise<Json> {
  const dataDir = mkdtempSync(join(tmpdir(), "cl-bench-"));
  const built: BuiltApp = await buildApp({
    ...loadConfig({
      CHAINLAUNCH_ADMIN_PASSWORD: "bench-password-1",
      LOG_LEVEL: "silent",
      CHAINLAUNCH_FABRIC_DOWNLOAD: "0",
      ...(mode === "docker" ? { CHAINLAUNCH_DOCKER_HOST: dockerHost } : {}),
    }),
    dataDir,
    databaseUrl: undefined,
  });
  const call = async (method: "GET" | "POST" | "DELETE", url: string, payload?: object): Promise<Json> => {
    const res = await built.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: admin,
      ...(payload ? { payload } : {}),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.body ? (res.json() as Json) : {};
  };
  const nodes: Json[] = [];
  const phases: Record<string, number> = {};
  // Ports from the tests' allocator: below Linux's ephemeral range, never another run's.
  const from = await reservePorts(100);
  try {
    const settings = (await call("GET", "/settings")).config;
    await call("POST", "/settings", { config: { ...settings, portRangeStart: from, portRangeEnd: from + 99 } });
    const load = { before: load1(), after: 0 };
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const phaseConditions: Record<string, Conditions> = {};
    const mark = (name: string): void => {
      phases[name] = Math.round(performance.now() - t0);
      phaseConditions[name] = conditions(selfCpuSeconds(cpu0));
    };

    const org = await call("POST", "/organizations", { mspId: "BenchMSP", name: "Bench" });
    mark("org_and_cas");
    const d = await call(
      "GET",
      `/nodes/defaults/fabric?peerCount=2&ordererCount=3&mode=${mode === "docker" ? "docker" : "service"}`,
    );
    const specs = [
      ...d.peers.map((p: Json, i: number) => ({
        name: `peer${i}`,
        blockchainPlatform: "FABRIC",
        fabricPeer: {
          organizationId: org.id,
          mspId: org.mspId,
          version: VERSION,
          listenAddress: p.listenAddress,
          chaincodeAddress: p.chaincodeAddress,
          operationsListenAddress: p.operationsListenAddress,
          externalEndpoint: p.externalEndpoint,
          mode: p.mode,
        },
      })),
      ...d.orderers.map((o: Json, i: number) => ({
        name: `orderer${i}`,
        blockchainPlatform: "FABRIC",
        fabricOrderer: {
          organizationId: org.id,
          mspId: org.mspId,
          version: VERSION,
          listenAddress: o.listenAddress,
          adminAddress: o.adminAddress,
          operationsListenAddress: o.operationsListenAddress,
          externalEndpoint: o.externalEndpoint,
          mode: o.mode,
        },
      })),
    ];
    for (const s of specs) nodes.push(await call("POST", "/nodes", s));
    mark("node_certs_and_files");
    await Promise.all(
      nodes.map((n) =>
        until(`${n.name} RUNNING`, async () =>
          (await call("GET", `/nodes/${n.id}`)).status === "RUNNING" ? true : undefined,
        ),
      ),
    );
    mark("processes_running");
    const peers = nodes.filter((n) => n.nodeType === "FABRIC_PEER");
    const orderers = nodes.filter((n) => n.nodeType === "FABRIC_ORDERER");
    const net = await call("POST", "/networks/fabric", {
      name: "benchchannel",
      config: {
        peerOrganizations: [{ id: org.id, nodeIds: peers.map((p) => p.id) }],
        ordererOrganizations: [{ id: org.id, nodeIds: orderers.map((o) => o.id) }],
      },
    });
    mark("genesis_block");
    await Promise.all(orderers.map((o) => call("POST", `/networks/fabric/${net.id}/orderers/${o.id}/join`)));
    mark("orderers_joined");
    await Promise.all(peers.map((p) => call("POST", `/networks/fabric/${net.id}/peers/${p.id}/join`)));
    mark("peers_joined");
    await until("all five at the same height", async () => {
      const m = await call("GET", `/networks/fabric/${net.id}/map`);
      const heights = new Set(m.nodes.map((n: Json) => n.height));
      return m.nodes.length === 5 && m.nodes.every((n: Json) => n.healthy && n.height >= 1) && heights.size === 1
        ? true
        : undefined;
    });
    mark("same_height");
    await call("POST", `/networks/fabric/${net.id}/anchor-peers`, {
      organizationId: org.id,
      anchorPeers: peers.map((p) => {
        const [host, port] = (p.fabricPeer.externalEndpoint as string).split(":");
        return { host, port: Number(port) };
      }),
    });
    mark("leader_and_first_config_update");
    const cpu = process.cpuUsage(cpu0);
    const c = conditions(Math.round((cpu.user + cpu.system) / 1e4) / 100);
    load.after = c.load1;
    return {
      mode,
      phases,
      phaseConditions,
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      load,
      conditions: { ...c, loadTooHigh: c.loadTooHigh || load.before > LOAD_LIMIT },
      loadTooHigh: c.loadTooHigh || load.before > LOAD_LIMIT,
      rssMiB: Math.round(process.memoryUsage().rss / 1048576),
    };
  } finally {
    for (const n of nodes) await call("POST", `/nodes/${n.id}/stop`).catch(() => undefined);
    await built.close();
    rmSync(dataDir, { recursive: true, force: true });
    releasePorts(from, 100);
  }
}

await runBench("fabric-network", main);
