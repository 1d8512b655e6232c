/**
 * Benchmark: the chaincode workbench's edit-to-result loop on a real 1-org channel (one peer, one
 * orderer, the console's default batch timeout). For the TypeScript and the Go boilerplate: create the
 * project and start it once (sequence 1, warms the npm and Go caches), then measure one loop: a
 * one-line change saved through the files API, start (build, install, run, approve, commit: the
 * server's own phase timings), and the first invoke whose result shows the new behaviour.
 *
 *   npx tsx bench/workbench/run.ts [--loops N] [--wait-idle[=SECONDS]]
 *
 * Each loop's row carries the 1-minute load and the CPU seconds this process (the console, in-process)
 * used in it, flagged when the load was too high to compare (bench/support/conditions.ts).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  conditionColumns,
  conditions,
  formatFigure,
  reportLoad,
  runBench,
  selfCpuSeconds,
  waitIdleIfAsked,
  type Conditions,
} from "../support/conditions.js";
import { FABRIC_VERSION as VERSION, startBenchConsole, usePortRange, type Json } from "../support/console.js";
import { numberArg } from "../support/args.js";

const LOOPS = numberArg("--loops", 2);
const here = dirname(fileURLToPath(import.meta.url));

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
  await waitIdleIfAsked();
  const all: Conditions[] = [];
  const { http, until: poll, close } = await startBenchConsole("wb");
  const until = (what: string, fn: () => Promise<boolean>) => poll(what, async () => ((await fn()) ? true : undefined));
  const results: Json[] = [];
  let releaseRange = (): void => undefined;
  try {
    releaseRange = await usePortRange(http);
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
      const firstCpu0 = process.cpuUsage();
      await http("POST", `/chaincode-projects/${p.id}/start`);
      const firstStartMs = Math.round(performance.now() - t);
      const firstStart = conditions(selfCpuSeconds(firstCpu0));
      all.push(firstStart);
      console.log(formatFigure(`${lang.boilerplate}: first start`, `${firstStartMs} ms`, firstStart));
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
        const cpu0 = process.cpuUsage();
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
        const c = conditions(selfCpuSeconds(cpu0));
        all.push(c);
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
          ...conditionColumns(c),
        });
      }
      await http("DELETE", `/chaincode-projects/${p.id}`);
    }
    console.log(`\nedit → start → first invoke showing the change (Fabric ${VERSION}, 1 org, default batch timeout)`);
    console.table(results);
    reportLoad(all);
    const out = join(here, "results");
    mkdirSync(out, { recursive: true });
    const file = join(out, `workbench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(
      file,
      JSON.stringify({ version: VERSION, results, loadTooHigh: all.some((c) => c.loadTooHigh) }, null, 2),
    );
    console.log(`saved ${file}`);
  } finally {
    for (const n of (await http("GET", "/nodes?limit=100").catch(() => ({ items: [] }))).items ?? []) {
      await http("POST", `/nodes/${n.id}/stop`).catch(() => undefined);
    }
    await close();
    releaseRange();
  }
}

await runBench("workbench", main);
