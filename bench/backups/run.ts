/**
 * Benchmark: backing up and restoring a console with a running 1-peer/1-orderer channel whose ledger
 * has grown by N config blocks. Measures a backup's duration and its phases (staging, nodes paused,
 * upload), each node's pause, the snapshot size, a second (incremental) backup, a restore drill,
 * and a CLI-equivalent restore into a new data directory. Targets a local restic repository, so the
 * numbers are the console's and restic's, not a network's.
 *
 *   npx tsx bench/backups/run.ts [--blocks N] [--wait-idle[=SECONDS]]
 *
 * Each step's row carries the 1-minute load and the CPU seconds this process (the console, in-process;
 * restic runs apart and is not counted) used in it, flagged when the load was too high to compare.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { restoreBackup } from "../../server/src/modules/backups/restore.js";
import {
  conditionColumns,
  conditions,
  reportLoad,
  runBench,
  selfCpuSeconds,
  waitIdleIfAsked,
  type Conditions,
} from "../support/conditions.js";
import {
  FABRIC_VERSION as VERSION,
  startBenchConsole,
  StopWaiting,
  usePortRange,
  type Json,
} from "../support/console.js";
import { numberArg } from "../support/args.js";

const BLOCKS = numberArg("--blocks", 10);
const here = dirname(fileURLToPath(import.meta.url));

async function main(): Promise<void> {
  await waitIdleIfAsked();
  const { http, until, close, built, dataDir } = await startBenchConsole("bk");
  // A LOCAL target must sit inside the console's allowed roots (by default <data>/backups/local).
  const repo = join(dataDir, "backups", "local", "bench-repo");
  const restoreRoot = mkdtempSync(join(tmpdir(), "cl-bench-restore-"));
  const events: Json[] = [];
  built.bus.subscribe((e) => {
    if (e.type === "backup.progress") events.push({ at: Date.now(), ...e.data });
  });
  const nodes: Json[] = [];
  let releaseRange = (): void => undefined;
  const all: Conditions[] = [];
  const taken = (cpu0: NodeJS.CpuUsage): Conditions => {
    const c = conditions(selfCpuSeconds(cpu0));
    all.push(c);
    return c;
  };
  try {
    releaseRange = await usePortRange(http);
    const org = await http("POST", "/organizations", { mspId: "BbOrg1MSP", name: "BbOrg1MSP" });
    const ord = await http("POST", "/organizations", { mspId: "BbOrdMSP", name: "BbOrdMSP" });
    for (const [o, kind] of [
      [org, "peer"],
      [ord, "orderer"],
    ] as const) {
      const d = await http(
        "GET",
        `/nodes/defaults/fabric?peerCount=${kind === "peer" ? 1 : 0}&ordererCount=${kind === "orderer" ? 1 : 0}`,
      );
      const x = kind === "peer" ? d.peers[0] : d.orderers[0];
      const name = `bb-${kind}0`;
      const base = { organizationId: o.id, mspId: o.mspId, version: VERSION, ...x };
      const spec = {
        name,
        blockchainPlatform: "FABRIC",
        ...(kind === "peer" ? { fabricPeer: base } : { fabricOrderer: base }),
      };
      const n = await http("POST", "/nodes", spec);
      nodes.push(
        await until(`${n.name} RUNNING`, async () => {
          const cur = await http("GET", `/nodes/${n.id}`);
          return cur.status === "RUNNING" ? cur : undefined;
        }),
      );
    }
    const [peer, orderer] = nodes as [Json, Json];
    const net = await http("POST", "/networks/fabric", {
      name: "bbchannel",
      config: {
        peerOrganizations: [{ id: org.id, nodeIds: [peer.id] }],
        ordererOrganizations: [{ id: ord.id, nodeIds: [orderer.id] }],
      },
    });
    await http("POST", `/networks/fabric/${net.id}/orderers/${orderer.id}/join`);
    await http("POST", `/networks/fabric/${net.id}/peers/${peer.id}/join`);
    const [host, port] = String(peer.endpoint).split(":");
    for (let i = 0; i < BLOCKS; i++) {
      // Alternate the anchor peer list so every update is a real config change (one block each).
      await http("POST", `/networks/fabric/${net.id}/anchor-peers`, {
        organizationId: org.id,
        anchorPeers: i % 2 === 0 ? [{ host, port: Number(port) }] : [],
      });
    }
    const height = (await http("GET", `/networks/fabric/${net.id}/info`)).height;

    // Snapshots carry the master key only wrapped under the recovery key, so a backup needs one first.
    const { recoveryKey } = await http("POST", "/backups/recovery-key", {});
    const target = await http("POST", "/backups/targets", {
      name: "bench",
      type: "LOCAL",
      bucketPath: repo,
      resticPassword: "bench-password",
    });
    const runBackup = async () => {
      events.length = 0;
      const cpu0 = process.cpuUsage();
      const t0 = Date.now();
      const b = await http("POST", "/backups", { targetId: target.id });
      const done = await until(
        "backup",
        async () => {
          const x = await http("GET", `/backups/${b.id}`);
          if (x.status === "failed") throw new StopWaiting(x.errorMessage);
          return x.status === "completed" ? x : undefined;
        },
        600_000,
      );
      const uploadAt = events.find((e) => e.phase === "upload")?.at ?? Date.now();
      return {
        id: done.id,
        wallMs: Date.now() - t0,
        durationMs: done.durationMs,
        stagingMs: uploadAt - t0,
        sizeBytes: done.sizeBytes,
        pauses: done.metadata.backup.nodes.map((n: Json) => ({ node: n.name, pauseMs: n.pauseMs })),
        files: done.metadata.backup.files,
        snapshotId: done.snapshotId,
        conditions: taken(cpu0),
      };
    };
    const first = await runBackup();
    const second = await runBackup();
    const v0 = Date.now();
    const verifyCpu0 = process.cpuUsage();
    await http("POST", `/backups/${second.id}/verify`);
    const verified = await until(
      "drill",
      async () => {
        const x = await http("GET", `/backups/${second.id}`);
        return x.verificationStatus !== "running" ? x : undefined;
      },
      600_000,
    );
    const verifyMs = Date.now() - v0;
    const verifyC = taken(verifyCpu0);
    const r0 = Date.now();
    const restoreCpu0 = process.cpuUsage();
    await restoreBackup({
      target: repo,
      snapshot: second.snapshotId,
      dataDir: join(restoreRoot, "data"),
      password: "bench-password",
      recoveryKey,
    });
    const restoreMs = Date.now() - r0;
    const restoreC = taken(restoreCpu0);

    const result = {
      at: new Date().toISOString(),
      fabric: VERSION,
      height,
      first,
      second,
      verify: { ms: verifyMs, status: verified.verificationStatus, conditions: verifyC },
      restoreMs,
      restoreConditions: restoreC,
      loadTooHigh: all.some((c) => c.loadTooHigh),
    };
    console.table([
      {
        step: "backup (first)",
        ms: first.durationMs,
        staging_ms: first.stagingMs,
        size_MB: (first.sizeBytes / 1e6).toFixed(2),
        pauses: first.pauses.map((p: Json) => `${p.node} ${p.pauseMs} ms`).join(", "),
        ...conditionColumns(first.conditions),
      },
      {
        step: "backup (second)",
        ms: second.durationMs,
        staging_ms: second.stagingMs,
        size_MB: (second.sizeBytes / 1e6).toFixed(2),
        pauses: second.pauses.map((p: Json) => `${p.node} ${p.pauseMs} ms`).join(", "),
        ...conditionColumns(second.conditions),
      },
      { step: `verify (${verified.verificationStatus})`, ms: verifyMs, ...conditionColumns(verifyC) },
      { step: "restore (CLI path)", ms: restoreMs, ...conditionColumns(restoreC) },
    ]);
    reportLoad(all);
    console.log(`channel height ${height}, ${first.files} files in the snapshot`);
    mkdirSync(join(here, "results"), { recursive: true });
    writeFileSync(join(here, "results", `${Date.now()}.json`), JSON.stringify(result, null, 2));
  } finally {
    for (const n of nodes) await http("POST", `/nodes/${n.id}/stop`).catch(() => undefined);
    await close();
    releaseRange();
    rmSync(restoreRoot, { recursive: true, force: true });
  }
}

await runBench("backups", main);
