import { appendFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { DB } from "../../db/db.js";
import type { EventBus } from "../../events/bus.js";
import { nowIso } from "../../db/db.js";
import type { AppError } from "../../http/errors.js";
import { ConflictError, errorMessage, InputError } from "../../http/errors.js";
import type { ChaincodesService } from "../fabric-chaincodes/chaincodes.service.js";
import { BOILERPLATES } from "./boilerplates.js";
import type { ProjectHistory } from "./project-history.js";
import { verifyNewServer } from "./project-verify.js";
import type { ProjectRow, ProjectsRepo } from "./projects.repo.js";
import type { Operations } from "../operations/operations.js";
import { withOperation } from "../operations/operation-scope.js";

/** The phases a start goes through, in order (the screen's stepper shows them before they run). */
export const RUN_PHASES = ["prepare", "build", "install", "run", "verify", "approve", "commit"];

/** One compiler diagnostic read from a build log. */
export interface BuildDiagnostic {
  file: string;
  line: number;
  column: number;
  message: string;
}

/**
 * Compiler errors with file and line from a build log: tsc (`src/a.ts(12,5): error TS2322: ...`) and Go
 * (`chaincode/a.go:12:5: ...`, also `./a.go:12:5:`).
 */
export function buildDiagnostics(log: string): BuildDiagnostic[] {
  const out: BuildDiagnostic[] = [];
  for (const raw of log.split("\n")) {
    const line = raw.trim();
    const ts = /^([^\s(][^(]*?\.[cm]?[jt]sx?)\((\d+),(\d+)\): (error .*)$/.exec(line);
    const go = /^(?:\.\/)?([^\s:][^:]*\.go):(\d+):(\d+): (.*)$/.exec(line);
    const m = ts ?? go;
    if (m) out.push({ file: m[1]!, line: Number(m[2]), column: Number(m[3]), message: m[4]! });
  }
  return out;
}

/** What one start did, step by step, for the screen and the benchmark. */
export interface StartResult {
  status: string;
  message: string;
  definitionId: number;
  sequence: number;
  packageId: string;
  /** Milliseconds per phase: build, install, run (server start), verify (it answers), approve, commit. */
  phases: Record<string, number>;
  /** The history commit recording the files this start ran. */
  commit: string;
}

/**
 * Runs a project on its channel through the chaincode lifecycle, never a second path: each start is
 * a new definition of the project's chaincode with the next sequence. The code is built before
 * anything reaches the channel, the new chaincode server starts on its own address and must register
 * and answer a metadata call (verify) before the definition is approved and committed, and the
 * previous version's server stops only after the commit, so a failed build, start or verify leaves
 * the previous version answering. Each change of state or phase is published as `project.status`
 * so the screens follow it live.
 */
export function createProjectRunner(deps: {
  db: DB;
  repo: ProjectsRepo;
  chaincodes: ChaincodesService;
  folder: (row: ProjectRow) => string;
  logFile: (row: ProjectRow) => string;
  history: (row: ProjectRow) => ProjectHistory;
  bus?: Pick<EventBus, "publish">;
  /** Where a start reports its phases (live, and to a page reloaded meanwhile). */
  operations?: Pick<Operations, "begin">;
}) {
  const { repo, chaincodes } = deps;

  /** Tells the screens a project's state (and, while it builds, the phase) changed. */
  /** A change of the project's state; its phases go out as the Run's `operation.progress`. */
  function publish(row: ProjectRow, status: ProjectRow["status"]): void {
    deps.bus?.publish("project.status", { project_id: row.id, status });
  }

  async function log(row: ProjectRow, line: string): Promise<void> {
    const file = deps.logFile(row);
    await mkdir(dirname(file), { recursive: true });
    await appendFile(file, `[${new Date().toISOString()}] ${line}\n`);
  }

  /** Claims the project for a start: one at a time (the update is the lock, on both databases). */
  async function claim(row: ProjectRow): Promise<void> {
    const r = await deps.db
      .updateTable("chaincode_projects")
      .set({ status: "building", last_error: null, updated_at: nowIso() })
      .where("id", "=", row.id)
      .where("status", "<>", "building")
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) throw new ConflictError(`id: project '${row.name}' is already building`);
  }

  /** Definitions of the chaincode whose server runs now (the live version, before a new one is committed). */
  async function runningDefinitions(chaincodeId: number) {
    return (await chaincodes.listDefinitions(chaincodeId)).definitions.filter((d) => d.deploy_status === "running");
  }

  async function ensureChaincode(row: ProjectRow): Promise<number> {
    if (row.chaincode_id) return row.chaincode_id;
    const cc = await chaincodes.create({ name: row.slug, network_id: row.network_id });
    await repo.update(row.id, { chaincode_id: cc.id, updated_at: nowIso() });
    return cc.id;
  }

  return {
    async start(row: ProjectRow, user: string): Promise<StartResult> {
      const boilerplate = BOILERPLATES.find((b) => b.id === row.boilerplate);
      if (!boilerplate) throw new InputError(`boilerplate: '${row.boilerplate}' is not shipped with this version`);
      await claim(row);
      publish(row, "building");
      await log(row, `start requested by ${user || "?"}`);
      const resource = `chaincode_project:${row.id}`;
      const op = deps.operations?.begin({
        kind: "project.run",
        resource,
        label: `Run ${row.name}`,
        phases: RUN_PHASES,
        user,
      });
      op?.phase("prepare");
      const phases: Record<string, number> = {};
      const timed = async <T>(phase: string, fn: () => Promise<T>): Promise<T> => {
        const t0 = Date.now();
        op?.phase(phase);
        await log(row, `${phase}…`);
        const out = await (op ? withOperation(op, fn) : fn());
        phases[phase] = Date.now() - t0;
        await log(row, `${phase} done in ${phases[phase]} ms`);
        return out;
      };
      let definitionId: number | undefined;
      let serverStarted = false;
      let chaincodeId: number | undefined;
      try {
        chaincodeId = await ensureChaincode(row);
        const { peers } = await chaincodes.channelNodes(row.network_id);
        const running = peers.filter((p) => p.status === "RUNNING");
        if (running.length === 0) {
          throw new ConflictError(
            `networkId: channel '${row.network_name}' has no running peer on this console; start one and join it first`,
          );
        }
        const sequence = (await chaincodes.committedSequence(chaincodeId)) + 1;
        // A definition left over at this sequence by a start that failed before its commit is replaced.
        for (const d of (await chaincodes.listDefinitions(chaincodeId)).definitions) {
          if (d.sequence >= sequence) {
            if (d.deploy_status === "running") await chaincodes.undeploy(d.id, user).catch(() => undefined);
            await chaincodes.deleteDefinition(d.id);
          }
        }
        const def = await chaincodes.createDefinition(chaincodeId, {
          version: `${sequence}.0`,
          sequence,
          endorsement_policy: row.endorsement_policy,
          init_required: false,
          source_path: deps.folder(row),
          source_type: boilerplate.sourceType,
        });
        definitionId = def.id;
        // The files the definition just copied are what this start records, even if edits land meanwhile.
        const staged = await deps
          .history(row)
          .stage()
          .then(() => true)
          .catch(async (err: unknown) => {
            await log(row, `staging the history failed: ${errorMessage(err)}`);
            return false;
          });
        await log(row, `definition ${def.id}: ${row.slug} version ${def.version}, sequence ${sequence}`);
        await timed("build", async () => {
          try {
            await chaincodes.build(def.id, user, { logFile: deps.logFile(row) });
          } catch (err) {
            const log = ((err as AppError).details as { buildLog?: string } | undefined)?.buildLog ?? "";
            const diagnostics = buildDiagnostics(log);
            if (diagnostics.length === 0) throw err;
            const first = diagnostics
              .slice(0, 3)
              .map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`)
              .join("; ");
            throw new InputError(`build: ${first}`, { field: "source", diagnostics, buildLog: log });
          }
        });
        const installed = await timed("install", () =>
          chaincodes.install(
            def.id,
            running.map((p) => p.id),
            user,
          ),
        );
        // From here a new server may exist (even one that failed its start): a failure stops it.
        serverStarted = true;
        await timed("run", () =>
          chaincodes.deploy(def.id, undefined, user, { built: true }).catch((err: unknown) => {
            const m = errorMessage(err);
            if (!m.startsWith("the chaincode server did not start")) throw err;
            throw new InputError(`run: the new ${m.slice(4)}`, (err as AppError).details);
          }),
        );
        await timed("verify", () => verifyNewServer(chaincodes, def));
        await timed("approve", async () => {
          const byOrg = new Map<string, number>();
          for (const p of running) if (!byOrg.has(p.mspId)) byOrg.set(p.mspId, p.id);
          for (const peerId of byOrg.values()) await chaincodes.approve(def.id, peerId, user);
        });
        await timed("commit", () => chaincodes.commit(def.id, running[0]!.id, user));
        // The new version is live: stop the servers of the ones before it.
        for (const d of await runningDefinitions(chaincodeId)) {
          if (d.id !== def.id) await chaincodes.undeploy(d.id, user).catch(() => undefined);
        }
        const message = `Start: sequence ${sequence}\n\nPackage ${installed.package_id ?? def.version}`;
        const history = deps.history(row);
        const commit = await (staged ? history.commit(message, user) : history.snapshot(message, user)).catch(
          async (err: unknown) => {
            await log(row, `recording the history failed: ${errorMessage(err)}`);
            return "";
          },
        );
        const now = nowIso();
        await repo.update(row.id, { status: "running", last_error: null, last_started_at: now, updated_at: now });
        publish(row, "running");
        await log(
          row,
          `running: sequence ${sequence} committed, package ${installed.package_id}, history ${commit.slice(0, 7)}`,
        );
        op?.succeed();
        return {
          status: "success",
          message: `${row.slug} sequence ${sequence} is running`,
          definitionId: def.id,
          sequence,
          packageId: installed.package_id ?? "",
          phases,
          commit,
        };
      } catch (err) {
        const message = errorMessage(err);
        op?.fail(err);
        await log(row, `failed: ${message}`);
        // The new server (if it started) goes; an uncommitted definition stays only as a timeline.
        if (definitionId !== undefined && serverStarted) {
          await chaincodes.undeploy(definitionId, user).catch(() => undefined);
        }
        const previous = chaincodeId !== undefined ? await runningDefinitions(chaincodeId).catch(() => []) : [];
        // The screens say which version still answers, so nobody takes the failed code for the live one.
        const live = previous.filter((d) => d.id !== definitionId).at(-1);
        const status = live ? "running" : "error";
        const lastError = live ? `${message} (sequence ${live.sequence} keeps answering)` : message;
        await repo.update(row.id, { status, last_error: lastError, updated_at: nowIso() });
        publish(row, status);
        throw err;
      }
    },

    async stop(row: ProjectRow, user: string): Promise<{ status: string; message: string }> {
      if (row.status === "building") throw new ConflictError(`id: project '${row.name}' is building; wait for it`);
      if (row.chaincode_id) {
        for (const d of await runningDefinitions(row.chaincode_id)) await chaincodes.undeploy(d.id, user);
      }
      const now = nowIso();
      await repo.update(row.id, { status: "stopped", last_stopped_at: now, updated_at: now });
      publish(row, "stopped");
      await log(row, `stopped by ${user || "?"}`);
      return { status: "success", message: `project '${row.name}' stopped` };
    },

    /** Port of the live chaincode server, if any. */
    async port(row: ProjectRow): Promise<number | null> {
      if (!row.chaincode_id || row.status === "stopped") return null;
      const live = (await runningDefinitions(row.chaincode_id)).at(-1);
      const port = live ? Number(live.chaincode_address.split(":").pop()) : NaN;
      return Number.isInteger(port) ? port : null;
    },

    chaincodeOf(row: ProjectRow): number {
      if (!row.chaincode_id) {
        throw new ConflictError(`id: project '${row.name}' has not been started yet; start it first`);
      }
      return row.chaincode_id;
    },
  };
}

export type ProjectRunner = ReturnType<typeof createProjectRunner>;
