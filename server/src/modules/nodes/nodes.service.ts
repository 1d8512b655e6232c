import { rm } from "node:fs/promises";
import { join } from "node:path";
import { nowIso } from "../../db/db.js";
import { ConflictError, InputError, UpstreamError } from "../../http/errors.js";
import { runFile } from "../../runtime/index.js";
import {
  fabricProcessSpec,
  reissueFabricCertificates,
  writeFabricFiles,
  type FabricDeployment,
} from "./fabric-node.js";
import { createNodeCreator } from "./nodes.create.js";
import { deploymentOf, toNodeResponse } from "./nodes.mapping.js";
import { createNodePlanner } from "./nodes.plan.js";
import type { NodeFilter, NodeRow } from "./nodes.repo.js";
import { createNodeRunner } from "./nodes.run.js";
import type { NodeResponse } from "./nodes.schema.js";
import type { NodesServiceDeps } from "./nodes.types.js";
import { createNodeUpdater } from "./nodes.update.js";

export type { NodesServiceDeps } from "./nodes.types.js";

/**
 * Nodes: validation before anything exists, identities from the org CAs, files under
 * `<dataDir>/nodes/<slug>/`, and the supervised process. A failed creation leaves nothing behind.
 *
 * Composed by verb: `nodes.plan.ts` (shared checks and lookups), `nodes.run.ts` (start/stop/restart
 * through the supervisor), `nodes.create.ts`, `nodes.update.ts`; the lifecycle verbs live here.
 */
export function createNodesService(deps: NodesServiceDeps) {
  const { repo, runtime, keys } = deps;
  const sup = runtime.supervisor;
  const planner = createNodePlanner(deps);
  const runner = createNodeRunner(deps, planner);
  const { mustGet, orgCas, specOf, assertBesuRunnable } = planner;
  const { startRow, stopRow, restartRow } = runner;
  const create = createNodeCreator(deps, planner, runner);
  const update = createNodeUpdater(deps, planner, runner);

  /** Other modules that name what still uses a node. */
  const usageCheckers: Array<(nodeId: number) => Promise<string | null>> = [];

  return {
    mustGet,
    create,
    assertBesuRunnable,
    update,
    async list(filter: NodeFilter, page: number, limit: number) {
      const { rows, total } = await repo.page(filter, limit, (page - 1) * limit);
      const pageCount = Math.ceil(total / limit);
      return { items: rows.map(toNodeResponse), total, page, pageCount, hasNextPage: page < pageCount };
    },
    async get(id: number): Promise<NodeResponse> {
      return toNodeResponse(await mustGet(id));
    },
    async start(id: number): Promise<NodeResponse> {
      await startRow(await mustGet(id));
      await runtime.settle(id);
      return toNodeResponse(await mustGet(id));
    },
    async stop(id: number): Promise<NodeResponse> {
      await stopRow(await mustGet(id));
      await runtime.settle(id);
      return toNodeResponse(await mustGet(id));
    },
    async restart(id: number): Promise<NodeResponse> {
      await restartRow(await mustGet(id));
      await runtime.settle(id);
      return toNodeResponse(await mustGet(id));
    },
    /**
     * Runs the peer binary of a Fabric peer on its own config and ledger, for commands Fabric
     * allows only while the peer is stopped (`peer node unjoin`): a running peer is stopped
     * first and started again afterwards, also when the command fails.
     */
    async peerOffline(id: number, args: string[]): Promise<{ output: string }> {
      const row = await mustGet(id);
      const d = deploymentOf(row);
      if (d.kind !== "fabric" || d.role !== "peer") {
        throw new InputError(`id: node '${row.name}' is not a Fabric peer`, { field: "id" });
      }
      const spec = fabricProcessSpec(row.slug, d);
      const wasRunning = toNodeResponse(row).status === "RUNNING";
      if (wasRunning) {
        await stopRow(row);
        await runtime.settle(id);
      }
      try {
        const { stdout, stderr } = await runFile(spec.command, args, {
          timeoutMs: 60_000,
          env: spec.env,
          cwd: spec.cwd,
        }).catch((err: Error & { stdout?: string; stderr?: string }) => {
          const output = `${err.stdout ?? ""}${err.stderr ?? ""}`.trim();
          throw new UpstreamError(`peer ${args.join(" ")} on '${row.name}' failed: ${output || err.message}`);
        });
        return { output: `${stdout}${stderr}`.trim() };
      } finally {
        if (wasRunning) {
          await startRow(await mustGet(id));
          await runtime.settle(id);
        }
      }
    },
    /** Lets another module (Fabric networks) block deletion of nodes it uses. */
    addUsageChecker(check: (nodeId: number) => Promise<string | null>): void {
      usageCheckers.push(check);
    },
    /** Stops the node, removes its files and rows, frees its ports and the keys it owns. */
    async remove(id: number): Promise<NodeRow> {
      const row = await mustGet(id);
      for (const check of usageCheckers) {
        const user = await check(id);
        if (user)
          throw new ConflictError(`id: node '${row.name}' is still part of ${user}; remove it from there first`);
      }
      const d = deploymentOf(row);
      if (d.kind) await stopRow(row);
      sup.remove(row.slug);
      runtime.untrack(row.slug);
      await runtime.settle(id);
      await rm(join(deps.dataDir, "nodes", row.slug), { recursive: true, force: true });
      await repo.delete(id);
      deps.bus?.publish("node.deleted", { node_id: id, node_name: row.name });
      if (d.kind === "fabric") await keys.removeOwned([d.tlsKeyId, d.signKeyId]).catch(() => undefined);
      return row;
    },
    /** Reissues the TLS and signing certificates for the same keys, rewrites the MSP and restarts. */
    async renewCertificates(id: number): Promise<NodeResponse> {
      const row = await mustGet(id);
      const d = deploymentOf(row);
      if (d.kind !== "fabric") throw new InputError(`id: node ${id} is not a Fabric node; it has no certificates`);
      const cas = await orgCas(d.organizationId, undefined, d.role === "peer" ? "fabricPeer" : "fabricOrderer");
      const next: FabricDeployment = { ...d, ...(await reissueFabricCertificates(keys, d, row.name, cas)) };
      await writeFabricFiles(keys, next, row.slug);
      await repo.update(id, { deployment: JSON.stringify(next), updated_at: nowIso() });
      await repo.insertEvent({ node_id: id, type: "certificates_renewed", data: "{}", created_at: nowIso() });
      const renewed = await mustGet(id);
      if (row.status !== "STOPPED" && row.status !== "PENDING") await restartRow(renewed);
      await runtime.settle(id);
      return toNodeResponse(await mustGet(id));
    },
    /** Names a node placed on the registered Docker engine `engine`, or null. */
    async engineUsage(engine: string): Promise<string | null> {
      for (const row of await repo.all()) {
        const d = deploymentOf(row) as { engine?: string };
        if (d.engine === engine) return `node '${row.name}'`;
      }
      return null;
    },
    /**
     * At boot: re-attaches to every node stored as RUNNING or STARTING. A node whose process is
     * gone (a reboot) is started again; none is ever spawned twice (pid file + /proc check).
     */
    async adoptAll(): Promise<void> {
      // Outages that were going on when the console stopped carry on (before adoption reports RUNNING).
      for (const row of await repo.down()) {
        runtime.restoreDown(
          { id: row.id, name: row.name },
          { since: row.down_since as string, reason: row.down_reason, alerted: row.down_alerted === 1 },
        );
      }
      const rows = await repo.withStatus(["RUNNING", "STARTING"]);
      await Promise.all(
        rows.map(async (row) => {
          const { spec } = await specOf(row);
          const state = await sup.adopt(spec);
          if (!state.adopted) {
            await repo.insertEvent({
              node_id: row.id,
              type: "not_found_at_boot",
              data: JSON.stringify({ status: row.status }),
              created_at: nowIso(),
            });
            await startRow(row);
          }
        }),
      );
    },
    /**
     * Every node's folder, with the pid of its process group when it runs: what a backup pauses
     * (SIGSTOP) while it copies that folder, so the copy is what a crash at that instant would leave.
     */
    async backupPoints(): Promise<Array<{ id: number; name: string; slug: string; dir: string; pid?: number }>> {
      const out: Array<{ id: number; name: string; slug: string; dir: string; pid?: number }> = [];
      for (const row of await repo.all()) {
        const d = deploymentOf(row);
        if (!d.kind) continue; // a node whose creation did not finish has nothing to copy
        const dir = d.dir;
        const state = sup.get(row.slug);
        const pid = state && (state.status === "RUNNING" || state.status === "STARTING") ? state.pid : undefined;
        out.push({ id: row.id, name: row.name, slug: row.slug, dir, ...(pid ? { pid } : {}) });
      }
      return out;
    },
    /** For the keys module: names the node that uses a key. */
    async keyUsage(keyId: number): Promise<string | null> {
      const row = await repo.userOfKey(keyId);
      return row ? `node '${row.name}'` : null;
    },
  };
}

export type NodesService = ReturnType<typeof createNodesService>;
