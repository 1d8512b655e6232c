/**
 * Benchmark: first API call → a channel with 3 raft orderers and 2 peers all joined and at the same
 * height. Drives the real server in-process with real Fabric binaries.
 *
 *   npx tsx bench/fabric-network/run.ts [--runs N] [--mode process|docker|both] [--spawned | --entry FILE]
 *                                       [--profile] [--wait-idle[=SECONDS]]
 *
 * `--spawned` runs the console as `make start` does (server/bundle/main.js, its own process; build it
 * first) and drives it over HTTP: its CPU seconds come from /proc, apart from the bench's; `--entry
 * FILE` spawns another build's bundle (before/after pairs). In-process (the default) the figure is
 * this process's CPU, `app.inject` included. `--profile` (in-process) writes a CPU profile of the
 * measured window to results/.
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
  load1,
  rssMiB,
  reportLoad,
  runBench,
  waitIdleIfAsked,
  type Conditions,
} from "../support/conditions.js";
import { adminClient, until } from "../support/console.js";
import { cpuMeter } from "../support/console-cpu.js";
import { requireBundle, startSpawnedConsole } from "../support/spawned-console.js";
import { profiling, startProfile } from "../support/cpu-profile.js";
import { pathArg } from "../support/args.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const VERSION = process.env.CHAINLAUNCH_E2E_FABRIC_VERSION ?? "3.1.0";
const runs = Number(process.argv[process.argv.indexOf("--runs") + 1] || 1) || 1;
const modeArg = process.argv.includes("--mode") ? process.argv[process.argv.indexOf("--mode") + 1] : "process";
const modes: ("process" | "docker")[] =
  modeArg === "both" ? ["process", "docker"] : modeArg === "docker" ? ["docker"] : ["process"];
const here = dirname(fileURLToPath(import.meta.url));
/** `--spawned`: the console as `make start` runs it (the bundle, its own process), its CPU read from /proc. */
const SPAWNED = process.argv.includes("--spawned") || process.argv.includes("--entry");
/** `--entry FILE`: another build's bundle to spawn (e.g. the main branch's, for a before/after pair). */
const ENTRY = pathArg("--entry");
const admin = { authorization: `Basic ${Buffer.from("admin:bench-password-1").toString("base64")}` };

async function main(): Promise<void> {
  await waitIdleIfAsked();
  if (SPAWNED && !ENTRY) requireBundle();
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
            `${r.phases.leader_and_first_config_update} ms, console (${r.console}) RSS ${r.rssMiB} MiB, ` +
              `load ${r.load.before} before` +
              (r.console === "spawned" ? `, bench client CPU ${r.clientCpuS.leader_and_first_config_update} s` : ""),
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

/** The console a run drives: in-process (`app.inject`, CPU of this process) or spawned (HTTP, CPU from /proc). */
async function startConsole(mode: "process" | "docker", dockerHost: string) {
  const env = mode === "docker" ? { CHAINLAUNCH_DOCKER_HOST: dockerHost } : {};
  if (SPAWNED) {
    const saved = process.env.CHAINLAUNCH_DOCKER_HOST;
    Object.assign(process.env, env);
    // --profile: V8 writes the console's whole-process profile when it exits; the window starts later.
    const nodeArgs = profiling ? ["--cpu-prof", `--cpu-prof-dir=${join(here, "results")}`] : [];
    const spawnedAt = performance.now();
    const c = await startSpawnedConsole("fabnet", ENTRY, 60_000, nodeArgs);
    if (saved === undefined) delete process.env.CHAINLAUNCH_DOCKER_HOST;
    else process.env.CHAINLAUNCH_DOCKER_HOST = saved;
    const { http } = adminClient(c.base);
    return {
      call: (method: "GET" | "POST" | "DELETE", url: string, payload?: object) => http(method, url, payload),
      pid: c.pid,
      spawnedAt,
      rss: () => rssMiB(c.pid),
      close: c.close,
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), "cl-bench-"));
  const built: BuiltApp = await buildApp({
    ...loadConfig({
      CHAINLAUNCH_ADMIN_PASSWORD: "bench-password-1",
      LOG_LEVEL: "silent",
      CHAINLAUNCH_FABRIC_DOWNLOAD: "0",
      ...env,
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
  return {
    call,
    pid: undefined,
    spawnedAt: undefined,
    rss: () => Math.round(process.memoryUsage().rss / 1048576),
    async close(): Promise<void> {
      await built.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function once(mode: "process" | "docker", dockerHost: string): Promise<Json> {
  const cons = await startConsole(mode, dockerHost);
  const { call } = cons;
  const meter = cpuMeter(cons.pid);
  const nodes: Json[] = [];
  const phases: Record<string, number> = {};
  // Ports from the tests' allocator: below Linux's ephemeral range, never another run's.
  const from = await reservePorts(100);
  try {
    const settings = (await call("GET", "/settings")).config;
    await call("POST", "/settings", { config: { ...settings, portRangeStart: from, portRangeEnd: from + 99 } });
    const load = { before: load1(), after: 0 };
    const stopProfile = cons.pid ? async () => null : await startProfile();
    if (profiling && cons.spawnedAt !== undefined) {
      console.log(
        `console profile: the measured window starts ${Math.round(performance.now() - cons.spawnedAt)} ms after spawn`,
      );
    }
    const cpu0 = meter.mark();
    const t0 = performance.now();
    const phaseConditions: Record<string, Conditions> = {};
    const clientCpuS: Record<string, number | null> = {};
    const mark = (name: string): void => {
      phases[name] = Math.round(performance.now() - t0);
      phaseConditions[name] = conditions(meter.console(cpu0));
      clientCpuS[name] = meter.client(cpu0);
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
    const consoleCpu = meter.console(cpu0);
    const profile = await stopProfile(join(here, "results", `fabric-network-${mode}-${Date.now()}.cpuprofile`));
    if (profile) console.log(`CPU profile of the measured window: ${profile}`);
    const c = conditions(consoleCpu);
    load.after = c.load1;
    return {
      mode,
      console: meter.kind,
      phases,
      phaseConditions,
      clientCpuS,
      cpuMs: consoleCpu === null ? null : Math.round(consoleCpu * 1000),
      load,
      conditions: { ...c, loadTooHigh: c.loadTooHigh || load.before > LOAD_LIMIT },
      loadTooHigh: c.loadTooHigh || load.before > LOAD_LIMIT,
      rssMiB: cons.rss(),
    };
  } finally {
    for (const n of nodes) await call("POST", `/nodes/${n.id}/stop`).catch(() => undefined);
    await cons.close();
    releasePorts(from, 100);
  }
}

await runBench("fabric-network", main);
