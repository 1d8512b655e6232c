import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { DB } from "../../db/db.js";
import { AppError, ConflictError, InputError, errorMessage } from "../../http/errors.js";
import { createRuntimeSupervisor, ensureProgramImage, type DockerRuntime } from "../../runtime/docker/index.js";
import {
  checkPort,
  createSupervisor,
  type ProcessSpec,
  type ProcessState,
  type Supervisor,
} from "../../runtime/index.js";
import type { NodesRepo } from "../nodes/nodes.repo.js";
import { portOwners } from "../nodes/nodes.validation.js";
import { prometheusVersion, resolvePrometheus } from "./prometheus-binary.js";
import { createPrometheusClient, type PrometheusClient } from "./prometheus-client.js";
import { prometheusConfig, type ScrapeJob } from "./prometheus-config.js";

export const PROCESS_ID = "prometheus";

export type DeploymentMode = "service" | "docker";

export interface PrometheusRuntimeDeps {
  db: DB;
  nodes: Pick<NodesRepo, "all">;
  log: Pick<FastifyBaseLogger, "info" | "warn" | "error">;
  dataDir: string;
  env?: NodeJS.ProcessEnv | undefined;
  supervisor?: Supervisor | undefined;
  /** Mode "docker": Prometheus runs as a container on this engine. */
  docker?: DockerRuntime | undefined;
  /** Every scrape job the configuration holds, in order (read at every write). */
  jobs: () => Promise<ScrapeJob[]>;
}

/**
 * What the managed Prometheus's verbs share: its folder and configuration file, the supervisor that
 * runs it (a process, or a container in mode "docker"), the HTTP client of the port it listens on, the
 * deployment row, and one queue so deploys, stops, starts and configuration writes never interleave.
 */
export function createPrometheusRuntime(deps: PrometheusRuntimeDeps) {
  const { db, log } = deps;
  const dir = join(deps.dataDir, "prometheus");
  const configFile = join(dir, "prometheus.yml");
  const supOptions = {
    stateDir: join(dir, "runtime"),
    restart: { maxAttempts: 5 },
    onEvent: (e: { type: string; exitCode?: number | null; signal?: string | null }) => {
      if (e.type === "crash") log.warn({ exitCode: e.exitCode, signal: e.signal }, "prometheus exited");
    },
  };
  const sup =
    deps.supervisor ??
    createRuntimeSupervisor({
      process: createSupervisor(supOptions),
      docker: () => {
        if (!deps.docker) throw new Error("this console has no Docker runtime");
        return deps.docker.supervisor(supOptions);
      },
    });
  let port = 0;
  const client: PrometheusClient = createPrometheusClient(() => `http://127.0.0.1:${port}`);
  let chain: Promise<unknown> = Promise.resolve();
  const versions = new Map<string, Promise<string | null>>();

  function specFor(binary: string, p: number): ProcessSpec {
    return {
      id: PROCESS_ID,
      command: binary,
      args: [
        `--config.file=${configFile}`,
        `--storage.tsdb.path=${join(dir, "data")}`,
        `--web.listen-address=127.0.0.1:${p}`,
        // POST /-/reload applies a regenerated config without a restart.
        "--web.enable-lifecycle",
        "--storage.tsdb.retention.time=15d",
      ],
      cwd: dir,
      logFile: join(dir, "prometheus.log"),
      startTimeoutMs: 60_000,
      probe: async ({ signal }) => {
        try {
          const res = await fetch(`http://127.0.0.1:${p}/-/ready`, {
            signal: AbortSignal.any([signal, AbortSignal.timeout(2000)]),
          });
          return res.ok;
        } catch {
          return false;
        }
      },
    };
  }

  /**
   * Mode "docker": the same binary in an image made here (FROM scratch, no registry), on the host's
   * network, so it scrapes the same targets on 127.0.0.1 with the same config file (same path inside).
   */
  async function containerSpecFor(binary: string, p: number): Promise<ProcessSpec> {
    const spec = specFor(binary, p);
    const docker = deps.docker as DockerRuntime;
    const version = ((await binaryVersion(binary)) ?? "local").replace(/[^A-Za-z0-9_.-]/g, "_");
    const image = await ensureProgramImage(docker.client(), {
      tag: `chainlaunch/prometheus:${version}`,
      programs: [{ src: binary, dest: "/usr/local/bin/prometheus" }],
    });
    await mkdir(join(dir, "data"), { recursive: true });
    return {
      ...spec,
      container: {
        image,
        cmd: ["prometheus", ...spec.args],
        env: {},
        binds: [{ source: dir, target: dir, readOnly: false }],
        ports: [],
        network: "host",
        aliases: [],
        labels: { "dev.chainlaunch.kind": "prometheus" },
      },
    };
  }

  /** What `prometheus --version` says (2.42.0+ds), asked once per binary. */
  function binaryVersion(binary: string): Promise<string | null> {
    let v = versions.get(binary);
    if (!v) {
      v = prometheusVersion(binary);
      versions.set(binary, v);
    }
    return v;
  }

  /** Stops Prometheus (process or container) and forgets it; its folder stays. */
  async function stopProcess(): Promise<void> {
    if (sup.get(PROCESS_ID)) await sup.stop(PROCESS_ID);
    sup.remove(PROCESS_ID);
  }

  async function spec(mode: DeploymentMode, p: number): Promise<ProcessSpec> {
    const binary = resolvePrometheus(deps.env);
    return mode === "docker" ? containerSpecFor(binary, p) : specFor(binary, p);
  }

  return {
    dir,
    configFile,
    sup,
    client,
    /** Points the client at the port Prometheus listens on. */
    setPort(p: number): void {
      port = p;
    },
    /** Runs `fn` after every earlier deploy, stop, start and configuration write. */
    serial<T>(fn: () => Promise<T>): Promise<T> {
      const next = chain.then(fn, fn);
      chain = next.catch(() => undefined);
      return next;
    },
    async row() {
      return db.selectFrom("metrics_deployment").selectAll().where("id", "=", 1).executeTakeFirst();
    },
    /** The version the installed binary reports, or null when there is none (or it does not say). */
    async installedVersion(): Promise<string | null> {
      try {
        return await binaryVersion(resolvePrometheus(deps.env));
      } catch {
        return null;
      }
    },
    /** Writes prometheus.yml (temp file + rename). True when its content changed. */
    async writeConfig(scrapeInterval: number): Promise<boolean> {
      const text = prometheusConfig({ scrapeIntervalSeconds: scrapeInterval, jobs: await deps.jobs() });
      const old = await readFile(configFile, "utf8").catch(() => "");
      if (old === text) return false;
      await mkdir(dir, { recursive: true });
      await writeFile(`${configFile}.tmp`, text, { mode: 0o600 });
      await rename(`${configFile}.tmp`, configFile);
      return true;
    },
    /** A 400 naming what mode "docker" lacks, before anything changes. */
    async dockerReady(networkMode: string | undefined): Promise<void> {
      if (networkMode && networkMode !== "host") {
        throw new InputError(
          `docker_config.network_mode: only "host" is supported: Prometheus scrapes the nodes on 127.0.0.1, which a bridged container can't reach`,
        );
      }
      try {
        if (!deps.docker) throw new Error("this console has no Docker runtime");
        await deps.docker.ready();
      } catch (err) {
        throw new InputError(`deployment_mode: docker: ${errorMessage(err)}; or use "service"`);
      }
    },
    /** Whether this console has a local Docker engine configured that answers. */
    async dockerUsable(): Promise<boolean> {
      if (!deps.docker?.endpoint) return false;
      return deps.docker.ready().then(
        () => true,
        () => false,
      );
    },
    /** A 409 naming prometheus_port when another process or a node holds `p`. */
    async portFree(p: number): Promise<void> {
      const reserved = portOwners(await deps.nodes.all()).keys();
      const conflict = await checkPort(p, { reserved, hosts: ["127.0.0.1"] });
      if (conflict) {
        throw new ConflictError(
          `prometheus_port: ${p} is ${conflict.reason === "reserved" ? "used by a node" : "in use"}`,
        );
      }
    },
    /** Whether Prometheus could listen on `p`: no node holds it and it binds on loopback (where it listens). */
    async portAvailable(p: number): Promise<boolean> {
      const reserved = portOwners(await deps.nodes.all()).keys();
      return (await checkPort(p, { reserved, hosts: ["127.0.0.1"] })) === null;
    },
    /** Prometheus's own log (stdout and stderr; the container's too in docker mode). */
    logFile: join(dir, "prometheus.log"),
    /** Adopts a running Prometheus (after a console restart) or starts one. */
    async adoptOrStart(p: number, mode: DeploymentMode): Promise<ProcessState> {
      port = p;
      const s = await spec(mode, p);
      const adopted = await sup.adopt(s);
      return adopted.adopted ? adopted : sup.start(s);
    },
    /**
     * Starts Prometheus on `p` and waits until it is ready. When it does not come up it is stopped
     * again and the answer is a 409 with the end of its log.
     */
    async launch(p: number, mode: DeploymentMode): Promise<ProcessState> {
      port = p;
      const state = await sup.start(await spec(mode, p));
      if (state.status === "RUNNING") return state;
      const tail = (await sup.tailLog(PROCESS_ID, 5).catch(() => [])).join("\n");
      await stopProcess().catch(() => undefined);
      throw new ConflictError(
        `prometheus did not start: ${state.errorMessage ?? state.status}${tail ? `\n${tail}` : ""}`,
      );
    },
    stopProcess,
    /** Whether the supervisor runs Prometheus now. */
    running(): boolean {
      return sup.get(PROCESS_ID)?.status === "RUNNING";
    },
  };
}

export type PrometheusRuntime = ReturnType<typeof createPrometheusRuntime>;

/** 400 PROMETHEUS_NOT_DEPLOYED: the verb needs a deployment (upstream documents 400 for stop, start and refresh). */
export class NotDeployedError extends AppError {
  constructor(verb: string) {
    super(
      `Prometheus is not deployed, so there is nothing to ${verb}: POST /metrics/deploy first`,
      400,
      "PROMETHEUS_NOT_DEPLOYED",
    );
  }
}
