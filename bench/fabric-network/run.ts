/**
 * Benchmark: first API call → a channel with 3 raft orderers and 2 peers all joined and at the same
 * height. Drives the real server in-process with real Fabric binaries.
 *
 *   npx tsx bench/fabric-network/run.ts [--runs N]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp, type BuiltApp } from "../../server/src/app.js";
import { loadConfig } from "../../server/src/config/config.js";
import { createFabricBinaryResolver } from "../../server/src/runtime/index.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const VERSION = process.env.CHAINLAUNCH_E2E_FABRIC_VERSION ?? "3.1.0";
const runs = Number(process.argv[process.argv.indexOf("--runs") + 1] || 1) || 1;
const admin = { authorization: `Basic ${Buffer.from("admin:bench-password-1").toString("base64")}` };

async function main(): Promise<void> {
  if (!(await createFabricBinaryResolver({ downloader: null }).findLocal(VERSION, ["peer", "orderer"]))) {
    console.error(`no Fabric ${VERSION} binaries: run scripts/fabric-build.sh ${VERSION}`);
    process.exit(2);
  }
  const results: Json[] = [];
  for (let i = 0; i < runs; i++) results.push(await once(i));
  const phases = Object.keys(results[0]!.phases as Json);
  const rows = phases.map((p) => {
    const v = results.map((r) => r.phases[p] as number).sort((a, b) => a - b);
    return { phase: p, min: v[0], median: v[Math.floor(v.length / 2)], max: v[v.length - 1] };
  });
  console.log(`\nFabric ${VERSION}: 1 org, 3 raft orderers, 2 peers, ${runs} run(s), milliseconds`);
  console.table(rows);
  console.log(`console RSS after the run: ${results.map((r) => `${r.rssMiB} MiB`).join(", ")}`);
  const out = join(dirname(fileURLToPath(import.meta.url)), "results");
  mkdirSync(out, { recursive: true });
  const file = join(out, `fabric-network-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify({ version: VERSION, runs: results, summary: rows }, null, 2));
  console.log(`saved ${file}`);
}

async function once(run: number): Promise<Json> {
  const dataDir = mkdtempSync(join(tmpdir(), "cl-bench-"));
  const built: BuiltApp = await buildApp({
    ...loadConfig({
      CHAINLAUNCH_ADMIN_PASSWORD: "bench-password-1",
      LOG_LEVEL: "silent",
      CHAINLAUNCH_FABRIC_DOWNLOAD: "0",
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
  const until = async <T>(what: string, fn: () => Promise<T | undefined>, ms = 90_000): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const v = await fn().catch(() => undefined);
      if (v !== undefined) return v;
      if (Date.now() > end) throw new Error(`timed out: ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const nodes: Json[] = [];
  const phases: Record<string, number> = {};
  try {
    const settings = (await call("GET", "/settings")).config;
    const from = 34000 + run * 100;
    await call("POST", "/settings", { config: { ...settings, portRangeStart: from, portRangeEnd: from + 99 } });
    const t0 = performance.now();
    const mark = (name: string): void => void (phases[name] = Math.round(performance.now() - t0));

    const org = await call("POST", "/organizations", { mspId: "BenchMSP", name: "Bench" });
    mark("org_and_cas");
    const d = await call("GET", "/nodes/defaults/fabric?peerCount=2&ordererCount=3");
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
    return { phases, rssMiB: Math.round(process.memoryUsage().rss / 1048576) };
  } finally {
    for (const n of nodes) await call("POST", `/nodes/${n.id}/stop`).catch(() => undefined);
    await built.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
