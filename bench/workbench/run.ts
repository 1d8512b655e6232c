/**
 * Benchmark: the chaincode workbench's edit-to-result loop on a real 1-org channel (one peer, one
 * orderer, the console's default batch timeout). For the TypeScript and the Go boilerplate: create the
 * project and start it once (sequence 1, warms the npm and Go caches), then measure one loop: a
 * one-line change saved through the files API, start (build, install, run, approve, commit: the
 * server's own phase timings), and the first invoke whose result shows the new behaviour.
 *
 *   npx tsx bench/workbench/run.ts [--loops N]
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
const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) || dflt : dflt;
};
const LOOPS = arg("--loops", 2);
const here = dirname(fileURLToPath(import.meta.url));
const PASSWORD = "bench-password-1";
const admin = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString("base64")}`;

/** Per language: the file, the line a loop rewrites, and how the new behaviour shows in TransferAsset's result. */
const LANGS = [
  {
    boilerplate: "chaincode-typescript",
    file: "src/assetTransfer.ts",
    line: "return previous;",
    edit: (n: number) => `return previous + "#${n}";`,
  },
  {
    boilerplate: "chaincode-go",
    file: "chaincode/asset_transfer.go",
    line: "return previous, put(ctx, *asset)",
    edit: (n: number) => `return previous + "#${n}", put(ctx, *asset)`,
  },
] as const;

async function main(): Promise<void> {
  if (!(await createFabricBinaryResolver({ downloader: null }).findLocal(VERSION, ["peer", "orderer"]))) {
    console.error(`no Fabric ${VERSION} binaries: run scripts/fabric-build.sh ${VERSION}`);
    process.exit(2);
  }
  const dataDir = mkdtempSync(join(tmpdir(), "cl-bench-wb-"));
  const built: BuiltApp = await buildApp({
    ...loadConfig({ CHAINLAUNCH_ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: "silent", CHAINLAUNCH_FABRIC_DOWNLOAD: "0" }),
    dataDir,
    databaseUrl: undefined,
  });
  const address = await built.app.listen({ port: 0, host: "127.0.0.1" });
  const http = async (method: string, url: string, body?: object): Promise<Json> => {
    const res = await fetch(`${address}/api/v1${url}`, {
      method,
      headers: { authorization: admin, ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as Json) : {};
  };
  const until = async (what: string, fn: () => Promise<boolean>, ms = 90_000): Promise<void> => {
    const end = Date.now() + ms;
    while (!(await fn().catch(() => false))) {
      if (Date.now() > end) throw new Error(`timed out: ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const results: Json[] = [];
  try {
    const settings = (await http("GET", "/settings")).config;
    await http("POST", "/settings", { config: { ...settings, portRangeStart: 34700, portRangeEnd: 34799 } });
    const org = await http("POST", "/organizations", { mspId: "WbOrg1MSP", name: "WbOrg1MSP" });
    const node = async (kind: "peer" | "orderer", name: string) => {
      const d = await http(
        "GET",
        `/nodes/defaults/fabric?peerCount=${kind === "peer" ? 1 : 0}&ordererCount=${kind === "orderer" ? 1 : 0}`,
      );
      const x = kind === "peer" ? d.peers[0] : d.orderers[0];
      const base = { organizationId: org.id, mspId: org.mspId, version: VERSION, ...x };
      const n = await http("POST", "/nodes", {
        name,
        blockchainPlatform: "FABRIC",
        ...(kind === "peer" ? { fabricPeer: base } : { fabricOrderer: base }),
      });
      await until(`${name} running`, async () => (await http("GET", `/nodes/${n.id}`)).status === "RUNNING");
      return n;
    };
    const peer = await node("peer", "wb-peer0");
    const orderer = await node("orderer", "wb-orderer0");
    const net = await http("POST", "/networks/fabric", {
      name: "workbench",
      config: {
        peerOrganizations: [{ id: org.id, nodeIds: [peer.id] }],
        ordererOrganizations: [{ id: org.id, nodeIds: [orderer.id] }],
      },
    });
    await http("POST", `/networks/fabric/${net.id}/orderers/${orderer.id}/join`);
    await http("POST", `/networks/fabric/${net.id}/peers/${peer.id}/join`);

    for (const lang of LANGS) {
      const p = await http("POST", "/chaincode-projects", {
        name: `wb ${lang.boilerplate}`,
        networkId: net.id,
        boilerplate: lang.boilerplate,
      });
      const t = performance.now();
      await http("POST", `/chaincode-projects/${p.id}/start`);
      const firstStartMs = Math.round(performance.now() - t);
      await http("POST", `/chaincode-projects/${p.id}/invoke`, {
        function: "CreateAsset",
        args: ["a1", "blue", "5", "owner", "300"],
      });
      let current = (await http("GET", `/projects/${p.id}/files/read?path=${lang.file}`)).content as string;
      let line: string = lang.line;
      for (let n = 1; n <= LOOPS; n++) {
        const next = lang.edit(n);
        if (!current.includes(line)) throw new Error(`${lang.file} has no line '${line}'`);
        current = current.replace(line, next);
        line = next;
        const t0 = performance.now();
        await http("POST", `/projects/${p.id}/files/write`, { path: lang.file, content: current });
        const save = performance.now() - t0;
        const started = await http("POST", `/chaincode-projects/${p.id}/start`);
        const startMs = performance.now() - t0 - save;
        const t1 = performance.now();
        const r = await http("POST", `/chaincode-projects/${p.id}/invoke`, {
          function: "TransferAsset",
          args: ["a1", `owner`],
        });
        const invokeMs = performance.now() - t1;
        if (!String(r.result).endsWith(`#${n}`))
          throw new Error(`loop ${n}: the invoke answered ${JSON.stringify(r.result)}, not the new behaviour`);
        const total = performance.now() - t0;
        results.push({
          language: lang.boilerplate,
          loop: n,
          sequence: started.sequence,
          firstStartMs,
          saveMs: Math.round(save),
          ...Object.fromEntries(
            Object.entries(started.phases as Record<string, number>).map(([k, v]) => [`${k}Ms`, v]),
          ),
          startTotalMs: Math.round(startMs),
          firstInvokeMs: Math.round(invokeMs),
          editToResultMs: Math.round(total),
        });
      }
      await http("DELETE", `/chaincode-projects/${p.id}`);
    }
    console.log(`\nedit → start → first invoke showing the change (Fabric ${VERSION}, 1 org, default batch timeout)`);
    console.table(results);
    const out = join(here, "results");
    mkdirSync(out, { recursive: true });
    const file = join(out, `workbench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, JSON.stringify({ version: VERSION, results }, null, 2));
    console.log(`saved ${file}`);
  } finally {
    for (const n of (await http("GET", "/nodes?limit=100").catch(() => ({ items: [] }))).items ?? []) {
      await http("POST", `/nodes/${n.id}/stop`).catch(() => undefined);
    }
    await built.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
