import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import { nowIso } from "../../db/db.js";
import type { EventBus } from "../../events/bus.js";
import {
  createSupervisor,
  tcpProbe,
  type ProcessSpec,
  type ProcessState,
  type Supervisor,
} from "../../runtime/index.js";
import { splitHostPort } from "../fabric-networks/fabric-networks.context.js";
import type { ChaincodesRepo } from "./chaincodes.repo.js";

/** How a deployed chaincode server is run: saved beside its files so a new console can adopt it. */
export interface ChaincodeRunSpec {
  definitionId: number;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  address: string;
}

export const processId = (definitionId: number): string => `cc-${definitionId}`;

/**
 * Chaincode servers as supervised processes (the same supervisor as nodes, its own state folder):
 * logs, crash restarts with backoff, and adoption after a console restart (never a duplicate).
 * Status changes land on the definition row and its timeline.
 */
export function createChaincodeRuntime(deps: {
  repo: Pick<ChaincodesRepo, "updateDefinition" | "insertEvent" | "allDefinitions">;
  bus: Pick<EventBus, "publish">;
  log: Pick<FastifyBaseLogger, "warn" | "info">;
  stateDir: string;
  /** Folder of a definition's files (run.json lives there). */
  definitionDir(definitionId: number): string;
}) {
  const { repo } = deps;
  let closed = false;
  const idOf = (pid: string): number | undefined => {
    const m = /^cc-(\d+)$/.exec(pid);
    return m ? Number(m[1]) : undefined;
  };
  const queue = new Map<number, Promise<void>>();
  const enqueue = (id: number, fn: () => Promise<void>): void => {
    const next = (queue.get(id) ?? Promise.resolve()).then(fn).catch((err: unknown) => {
      if (!closed) deps.log.warn({ err, definitionId: id }, "recording a chaincode event failed");
    });
    queue.set(id, next);
  };

  const supervisor: Supervisor = createSupervisor({
    stateDir: deps.stateDir,
    onEvent(e) {
      const id = idOf(e.id);
      if (id === undefined || closed) return;
      const at = nowIso();
      if (e.type === "status") {
        const status =
          e.status === "RUNNING"
            ? "running"
            : e.status === "ERROR"
              ? "error"
              : e.status === "STOPPED"
                ? "stopped"
                : null;
        if (status) {
          enqueue(id, async () => {
            await repo.updateDefinition(id, {
              deploy_status: status,
              deploy_error: status === "error" ? (e.errorMessage ?? "the chaincode server failed") : null,
              updated_at: at,
            });
          });
        }
        deps.bus.publish("chaincode.status", { definition_id: id, status: e.status });
      }
      if (e.type === "crash") {
        enqueue(id, async () => {
          await repo.insertEvent({
            definition_id: id,
            event_type: "crash",
            event_data: JSON.stringify({
              status: e.willRestart ? "restarting" : "failed",
              pid: e.pid,
              exitCode: e.exitCode,
              signal: e.signal,
              attempt: e.attempt,
              restartInMs: e.restartInMs,
              lastLogLines: e.lastLogLines.slice(-10),
            }),
            created_at: at,
          });
        });
      }
    },
  });

  const specOf = (r: ChaincodeRunSpec): ProcessSpec => {
    const { host, port } = splitHostPort(r.address);
    return {
      id: processId(r.definitionId),
      command: r.command,
      args: r.args,
      env: r.env,
      cwd: r.cwd,
      probe: tcpProbe(host === "0.0.0.0" ? "127.0.0.1" : host, port),
      startTimeoutMs: 60_000,
    };
  };
  const runFile = (id: number): string => join(deps.definitionDir(id), "run.json");

  return {
    supervisor,
    /** Starts (or adopts) the chaincode server and saves how it runs. */
    async start(r: ChaincodeRunSpec): Promise<ProcessState> {
      const file = runFile(r.definitionId);
      await writeFile(`${file}.tmp`, JSON.stringify(r), { mode: 0o600 });
      await rename(`${file}.tmp`, file);
      return supervisor.start(specOf(r));
    },
    async stop(definitionId: number): Promise<void> {
      const id = processId(definitionId);
      if (supervisor.get(id)) await supervisor.stop(id);
      supervisor.remove(id);
      await queue.get(definitionId);
    },
    state(definitionId: number): ProcessState | undefined {
      return supervisor.get(processId(definitionId));
    },
    async tail(definitionId: number, lines: number): Promise<string[]> {
      return supervisor.tailLog(processId(definitionId), lines).catch(() => []);
    },
    logFile(definitionId: number): string {
      return supervisor.get(processId(definitionId))?.logFile ?? join(deps.stateDir, "logs", `cc-${definitionId}.log`);
    },
    /**
     * After a console restart: adopts every chaincode server that was running (the same process,
     * verified by its pid file), and starts again the ones that died meanwhile.
     */
    async resume(): Promise<void> {
      const defs = (await repo.allDefinitions()).filter(
        (d) => d.deploy_status === "running" || d.deploy_status === "error",
      );
      for (const d of defs) {
        try {
          const r = JSON.parse(await readFile(runFile(d.id), "utf8")) as ChaincodeRunSpec;
          const adopted = await supervisor.adopt(specOf(r));
          if (!adopted.adopted && d.deploy_status === "running") await supervisor.start(specOf(r));
        } catch (err) {
          deps.log.warn({ err, definitionId: d.id }, "could not resume a chaincode server");
        }
      }
    },
    async settle(definitionId: number): Promise<void> {
      await queue.get(definitionId);
    },
    close(): void {
      closed = true;
      supervisor.close();
    },
  };
}

export type ChaincodeRuntime = ReturnType<typeof createChaincodeRuntime>;
