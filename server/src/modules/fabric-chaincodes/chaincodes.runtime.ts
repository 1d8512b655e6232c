import { readFile, rename, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import { nowIso } from "../../db/db.js";
import type { EventBus } from "../../events/bus.js";
import {
  buildChaincode,
  ChaincodeBuildError,
  type ChaincodeCommand,
  type ChaincodeSourceType,
} from "../../runtime/chaincode-source.js";
import {
  createSupervisor,
  tcpProbe,
  type ProcessSpec,
  type ProcessState,
  type SupervisorEvent,
} from "../../runtime/index.js";
import { createRuntimeSupervisor, type DockerRuntime } from "../../runtime/docker/index.js";
import { nodePrefix, type Sandbox, type SandboxPolicy } from "../../runtime/sandbox.js";
import { splitHostPort } from "../fabric-networks/fabric-networks.context.js";
import { operationDetail } from "../operations/operation-scope.js";
import type { ChaincodesRepo } from "./chaincodes.repo.js";

/** How a deployed chaincode server is run: saved beside its files so a new console can adopt it. */
export interface ChaincodeRunSpec {
  definitionId: number;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  address: string;
  /** Mode "docker": the image to run (its entrypoint is the chaincode server); command and args unused. */
  image?: string;
  /** With `image`: the command instead of the image's own (an image built here from the source). */
  cmd?: string[];
  workingDir?: string;
}

/** Where a chaincode container finds its TLS pair (the definition's `tls` folder, read-only). */
export const CONTAINER_TLS_DIR = "/chaincode/tls";
/** The user-defined network chaincode containers join (peers in containers reach them by name). */
export const CHAINCODE_NETWORK = "chainlaunch";

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
  /** Where builds and servers run: they see their definition's `src` (and `bin`, `tls`), never the rest. */
  sandbox: Sandbox;
  /** Mode "docker" (a definition with docker_image); without it such a definition can't run. */
  docker?: DockerRuntime;
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

  const onEvent = (e: SupervisorEvent): void => {
    const id = idOf(e.id);
    if (id === undefined || closed) return;
    const at = nowIso();
    if (e.type === "status") {
      const status =
        e.status === "RUNNING" ? "running" : e.status === "ERROR" ? "error" : e.status === "STOPPED" ? "stopped" : null;
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
  };
  const supervisor = createRuntimeSupervisor({
    process: createSupervisor({ stateDir: deps.stateDir, onEvent }),
    docker: () => {
      if (!deps.docker) throw new Error("no Docker runtime");
      return deps.docker.supervisor({ stateDir: deps.stateDir, onEvent });
    },
  });

  /**
   * A server's boundary, from its definition id (never from run.json, which a server could
   * rewrite): its source folder writable, its binary and the node install read-only, its TLS key
   * readable.
   */
  const serverPolicy = (definitionId: number): SandboxPolicy => {
    const dir = deps.definitionDir(definitionId);
    return {
      writable: [join(dir, "src")],
      readOnly: [join(dir, "bin"), nodePrefix()],
      secrets: [join(dir, "tls")],
    };
  };
  const specOf = async (r: ChaincodeRunSpec, grant = true): Promise<ProcessSpec> => {
    const { host, port } = splitHostPort(r.address);
    if (r.image) {
      // The image's server listens on all its interfaces; the port is published where the peers dial.
      const tls = join(deps.definitionDir(r.definitionId), "tls");
      const env: Record<string, string> = {
        ...r.env,
        CHAINCODE_SERVER_ADDRESS: `0.0.0.0:${port}`,
        CORE_CHAINCODE_ADDRESS: `0.0.0.0:${port}`,
      };
      for (const [k, v] of Object.entries(env)) if (v.startsWith(`${tls}/`)) env[k] = v.replace(tls, CONTAINER_TLS_DIR);
      const hostIp = host === "0.0.0.0" || host === "" ? "0.0.0.0" : /^[\d.]+$/.test(host) ? host : "0.0.0.0";
      return {
        id: processId(r.definitionId),
        command: r.image,
        args: [],
        cwd: deps.definitionDir(r.definitionId),
        probe: tcpProbe(host === "0.0.0.0" || !/^[\d.]+$/.test(host) ? "127.0.0.1" : host, port),
        startTimeoutMs: 60_000,
        container: {
          image: r.image,
          ...(r.cmd ? { cmd: r.cmd } : {}),
          ...(r.workingDir ? { workingDir: r.workingDir } : {}),
          env,
          binds: Object.values(env).some((v) => v.startsWith(`${CONTAINER_TLS_DIR}/`))
            ? [{ source: tls, target: CONTAINER_TLS_DIR, readOnly: true }]
            : [],
          ports: [{ hostIp, hostPort: port, containerPort: port }],
          network: CHAINCODE_NETWORK,
          aliases: [processId(r.definitionId)],
          labels: { "dev.chainlaunch.kind": "chaincode", "dev.chainlaunch.definition": String(r.definitionId) },
        },
      };
    }
    const boxed = await deps.sandbox.wrap(
      { command: r.command, args: r.args, env: r.env, cwd: r.cwd },
      serverPolicy(r.definitionId),
      { grant },
    );
    return {
      id: processId(r.definitionId),
      command: boxed.command,
      args: boxed.args,
      env: boxed.env,
      cwd: boxed.cwd,
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
      return supervisor.start(await specOf(r));
    },
    /**
     * Builds a definition's source in the sandbox (or, with `built`, only finds what an earlier
     * build made); the source must be the definition's own `src` folder.
     */
    async build(
      definitionId: number,
      p: { type: ChaincodeSourceType; srcDir: string; logFile: string; built?: boolean },
    ): Promise<ChaincodeCommand> {
      const own = join(deps.definitionDir(definitionId), "src");
      const src = resolve(p.srcDir);
      if (src !== own && !src.startsWith(`${own}/`)) {
        throw new ChaincodeBuildError(`the source of definition ${definitionId} must be in its own folder ${own}`, "");
      }
      return buildChaincode({ ...p, sandbox: deps.sandbox, onStep: operationDetail });
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
          const adopted = await supervisor.adopt(await specOf(r, false));
          if (!adopted.adopted && d.deploy_status === "running") await supervisor.start(await specOf(r));
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
