import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import { nowIso, type DB } from "../../db/db.js";
import type { EventBus } from "../../events/bus.js";
import { AppError, ConflictError, InputError, NotFoundError, errorMessage } from "../../http/errors.js";
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
import { createScopedQueries, type QueryInput } from "./metrics-query.js";
import { resolvePrometheus, prometheusVersion } from "./prometheus-binary.js";
import { createPrometheusClient, type PromResponse } from "./prometheus-client.js";
import { prometheusConfig, scrapeJobsOf, type ScrapeJob } from "./prometheus-config.js";

export const DEFAULT_PROMETHEUS_PORT = 9090;
export const DEFAULT_SCRAPE_INTERVAL = 15;
const PROCESS_ID = "prometheus";
/** Node changes arriving together (a bulk create) regenerate the config once. */
const SYNC_DEBOUNCE_MS = 200;

export interface DeployInput {
  deployment_mode?: "service" | "docker" | undefined;
  prometheus_port: number;
  prometheus_version: string;
  scrape_interval: number;
  docker_config?: { network_mode?: string | undefined } | undefined;
}

export interface PrometheusStatus {
  status: string;
  version?: string;
  port?: number;
  /** Go's time.Duration on the wire: nanoseconds. */
  scrape_interval?: number;
  scrape_interval_seconds?: number;
  deployment_mode?: string;
  network_mode?: string;
  started_at?: string;
  error?: string;
  targets?: number;
}

/**
 * The managed Prometheus: a supervised process (like the nodes, it outlives console restarts and
 * is adopted again), listening on loopback, whose scrape config is written from the console's nodes
 * and reloaded whenever a node is created, changed or deleted. Queries go through the console, scoped
 * to a node's own job (`createScopedQueries`).
 */
export function createPrometheusService(deps: {
  db: DB;
  nodes: Pick<NodesRepo, "all" | "byId">;
  bus: Pick<EventBus, "subscribe">;
  log: Pick<FastifyBaseLogger, "info" | "warn" | "error">;
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  supervisor?: Supervisor;
  /** Mode "docker": Prometheus runs as a container on this engine. */
  docker?: DockerRuntime;
}) {
  const { db, nodes, log } = deps;
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
  let port = DEFAULT_PROMETHEUS_PORT;
  const client = createPrometheusClient(() => `http://127.0.0.1:${port}`);
  const queries = createScopedQueries(() => client);
  let syncTimer: NodeJS.Timeout | undefined;
  /** Deploy, undeploy and config syncs one at a time. */
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn, fn);
    chain = next.catch(() => undefined);
    return next;
  };

  async function row() {
    return db.selectFrom("metrics_deployment").selectAll().where("id", "=", 1).executeTakeFirst();
  }

  /** Other scrape jobs (plugins' metrics endpoints), registered by their modules. */
  const jobSources: (() => Promise<ScrapeJob[]>)[] = [];
  async function jobs(): Promise<ScrapeJob[]> {
    const extra = await Promise.all(jobSources.map((f) => f().catch(() => [])));
    return [...scrapeJobsOf(await nodes.all()), ...extra.flat()];
  }

  /** Writes prometheus.yml (temp file + rename). True when its content changed. */
  async function writeConfig(scrapeInterval: number): Promise<boolean> {
    const text = prometheusConfig({ scrapeIntervalSeconds: scrapeInterval, jobs: await jobs() });
    const old = await readFile(configFile, "utf8").catch(() => "");
    if (old === text) return false;
    await mkdir(dir, { recursive: true });
    await writeFile(`${configFile}.tmp`, text, { mode: 0o600 });
    await rename(`${configFile}.tmp`, configFile);
    return true;
  }

  /**
   * Mode "docker": the same binary in an image made here (FROM scratch, no registry), on the host's
   * network, so it scrapes the same targets on 127.0.0.1 with the same config file (same path inside).
   */
  async function containerSpecFor(binary: string, p: number): Promise<ProcessSpec> {
    const spec = specFor(binary, p);
    const docker = deps.docker as DockerRuntime;
    const version = ((await prometheusVersion(binary)) ?? "local").replace(/[^A-Za-z0-9_.-]/g, "_");
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

  /** A 400 naming what mode "docker" lacks, before anything changes. */
  async function dockerReady(networkMode: string | undefined): Promise<void> {
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
  }

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

  async function startProcess(p: number, adopt: boolean, mode: string): Promise<ProcessState> {
    const binary = resolvePrometheus(deps.env);
    port = p;
    const spec = mode === "docker" ? await containerSpecFor(binary, p) : specFor(binary, p);
    if (adopt) {
      const adopted = await sup.adopt(spec);
      if (adopted.adopted) return adopted;
    }
    return sup.start(spec);
  }

  async function stopProcess(): Promise<void> {
    if (sup.get(PROCESS_ID)) await sup.stop(PROCESS_ID);
    sup.remove(PROCESS_ID);
  }

  async function deploy(input: DeployInput): Promise<{ message: string }> {
    const mode = input.deployment_mode === "docker" ? "docker" : "service";
    if (mode === "docker") await dockerReady(input.docker_config?.network_mode);
    // Found before anything changes, so a missing binary leaves the current deployment as it is.
    const binary = resolvePrometheus(deps.env);
    return serial(async () => {
      const current = await row();
      const ownPort = current?.deployed === 1 && sup.get(PROCESS_ID) ? current.port : undefined;
      if (input.prometheus_port !== ownPort) {
        const reserved = portOwners(await nodes.all()).keys();
        const conflict = await checkPort(input.prometheus_port, { reserved, hosts: ["127.0.0.1"] });
        if (conflict) {
          throw new ConflictError(
            `prometheus_port: ${input.prometheus_port} is ${conflict.reason === "reserved" ? "used by a node" : "in use"}`,
          );
        }
      }
      await stopProcess();
      await writeConfig(input.scrape_interval);
      const now = nowIso();
      const values = {
        deployment_mode: mode,
        port: input.prometheus_port,
        scrape_interval: input.scrape_interval,
        version: input.prometheus_version,
        deployed: 1,
        started_at: null,
        error: null,
        updated_at: now,
      };
      if (current) await db.updateTable("metrics_deployment").set(values).where("id", "=", 1).execute();
      else
        await db
          .insertInto("metrics_deployment")
          .values({ id: 1, ...values, created_at: now })
          .execute();
      port = input.prometheus_port;
      const state = await sup.start(
        mode === "docker"
          ? await containerSpecFor(binary, input.prometheus_port)
          : specFor(binary, input.prometheus_port),
      );
      if (state.status !== "RUNNING") {
        const tail = (await sup.tailLog(PROCESS_ID, 5).catch(() => [])).join("\n");
        const message = `prometheus did not start: ${state.errorMessage ?? state.status}${tail ? `\n${tail}` : ""}`;
        await stopProcess().catch(() => undefined);
        await db.updateTable("metrics_deployment").set({ deployed: 0, error: message }).where("id", "=", 1).execute();
        throw new ConflictError(message);
      }
      await db
        .updateTable("metrics_deployment")
        .set({ started_at: state.startedAt ?? nowIso() })
        .where("id", "=", 1)
        .execute();
      log.info({ port: input.prometheus_port, mode }, "prometheus deployed");
      return {
        message: `Prometheus deployed on port ${input.prometheus_port}${mode === "docker" ? " (Docker container)" : ""}`,
      };
    });
  }

  async function mustBeDeployed() {
    const r = await row();
    if (!r || r.deployed !== 1) throw new ConflictError("Prometheus is not deployed: POST /metrics/deploy first");
    port = r.port;
    return r;
  }

  /** Regenerates the scrape config from the nodes and, when it changed, has Prometheus reload it. */
  async function sync(force = false): Promise<void> {
    await serial(async () => {
      const r = await row();
      if (!r || r.deployed !== 1) return;
      const changed = await writeConfig(r.scrape_interval);
      if ((changed || force) && sup.get(PROCESS_ID)?.status === "RUNNING") await client.reload();
    });
  }

  function scheduleSync(): void {
    clearTimeout(syncTimer);
    syncTimer = setTimeout(() => {
      void sync().catch((err: unknown) => log.warn({ err: errorMessage(err) }, "prometheus config sync failed"));
    }, SYNC_DEBOUNCE_MS);
  }

  const unsubscribe = deps.bus.subscribe((event) => {
    if (
      event.type === "node.created" ||
      event.type === "node.updated" ||
      event.type === "node.deleted" ||
      event.type === "plugin.status"
    ) {
      scheduleSync();
    }
  });

  async function nodeJob(id: number): Promise<ScrapeJob> {
    const node = await nodes.byId(id);
    if (!node) throw new NotFoundError(`node ${id} not found`);
    const [job] = scrapeJobsOf([node]);
    if (!job) throw new ConflictError(`node '${node.name}' has no metrics endpoint (Besu metrics are off)`);
    return job;
  }

  async function knownJob(name: string): Promise<ScrapeJob> {
    const job = (await jobs()).find((j) => j.job === name);
    if (!job)
      throw new NotFoundError(
        `job ${name} not found: jobs are the nodes' names (slugs) and running plugins' metrics endpoints`,
      );
    return job;
  }

  /** The node jobs another console may read; 503 without a running Prometheus, 404 without nodes. */
  async function federatedJobs(): Promise<string[]> {
    const r = await row();
    if (!r || r.deployed !== 1) {
      throw new AppError(
        "Prometheus is not deployed on this console, so it has no metrics to share (POST /metrics/deploy there)",
        503,
        "METRICS_UNAVAILABLE",
      );
    }
    port = r.port;
    const names = scrapeJobsOf(await nodes.all()).map((j) => j.job);
    if (names.length === 0) throw new NotFoundError("this console has no nodes with a metrics endpoint");
    return names;
  }

  return {
    /** Adds scrape jobs from another module (read at every config write; announce changes on the bus). */
    addJobSource(source: () => Promise<ScrapeJob[]>): void {
      jobSources.push(source);
    },
    /** Adopts the Prometheus an earlier console left running, or starts it again if it should run. */
    async resume(): Promise<void> {
      const r = await row();
      if (!r || r.deployed !== 1) return;
      await serial(async () => {
        await writeConfig(r.scrape_interval);
        const state = await startProcess(r.port, true, r.deployment_mode);
        if (state.adopted) await client.reload().catch(() => undefined);
        else
          await db
            .updateTable("metrics_deployment")
            .set({ started_at: state.startedAt ?? nowIso() })
            .where("id", "=", 1)
            .execute();
      });
    },
    async defaults() {
      const r = await row();
      const binary = (() => {
        try {
          return resolvePrometheus(deps.env);
        } catch {
          return undefined;
        }
      })();
      const version = binary ? await prometheusVersion(binary) : null;
      const available: number[] = [];
      for (let p = DEFAULT_PROMETHEUS_PORT; p < DEFAULT_PROMETHEUS_PORT + 100 && available.length < 5; p++) {
        if (r?.deployed === 1 && r.port === p) continue;
        if ((await checkPort(p, { hosts: ["127.0.0.1"] })) === null) available.push(p);
      }
      return {
        deployment_mode: "service" as const,
        prometheus_port: available[0] ?? DEFAULT_PROMETHEUS_PORT,
        prometheus_version: version ? `v${version.replace(/\+.*$/, "")}` : "v2.42.0",
        scrape_interval: DEFAULT_SCRAPE_INTERVAL,
        available_ports: available,
        // Docker mode runs on the host's network (it scrapes nodes on 127.0.0.1).
        docker_config: { network_mode: "host" },
        binary_found: binary !== undefined,
      };
    },
    deploy,
    async undeploy(): Promise<{ message: string }> {
      return serial(async () => {
        await stopProcess();
        await rm(dir, { recursive: true, force: true });
        await db
          .updateTable("metrics_deployment")
          .set({ deployed: 0, started_at: null, error: null, updated_at: nowIso() })
          .where("id", "=", 1)
          .execute();
        return { message: "Prometheus undeployed" };
      });
    },
    async reload(): Promise<{ message: string }> {
      await mustBeDeployed();
      await sync(true);
      return { message: "Prometheus configuration reloaded" };
    },
    async status(): Promise<PrometheusStatus> {
      const r = await row();
      if (!r || r.deployed !== 1) return { status: "not_deployed", ...(r?.error ? { error: r.error } : {}) };
      port = r.port;
      const state = sup.get(PROCESS_ID);
      let version: string | undefined;
      if (state?.status === "RUNNING") {
        const info = await client.buildInfo().catch(() => undefined);
        version = (info?.data as { version?: string } | undefined)?.version;
      }
      return {
        status: (state?.status ?? "STOPPED").toLowerCase(),
        version: version ?? r.version,
        port: r.port,
        scrape_interval: r.scrape_interval * 1_000_000_000,
        scrape_interval_seconds: r.scrape_interval,
        deployment_mode: r.deployment_mode,
        ...(r.deployment_mode === "docker" ? { network_mode: "host" } : {}),
        ...(r.started_at ? { started_at: r.started_at } : {}),
        ...(state?.errorMessage || r.error ? { error: state?.errorMessage ?? r.error ?? "" } : {}),
        targets: (await jobs()).length,
      };
    },
    /** Prometheus's active targets, each with the node it scrapes. */
    async targets(): Promise<Record<string, unknown>> {
      await mustBeDeployed();
      const res = await client.targets();
      return (res.data ?? {}) as Record<string, unknown>;
    },
    async nodeQuery(id: number, input: QueryInput): Promise<PromResponse> {
      await mustBeDeployed();
      return queries.run(input, (await nodeJob(id)).job);
    },
    async nodeLabelValues(id: number, label: string, match: string[]): Promise<PromResponse> {
      await mustBeDeployed();
      return queries.labelValues(label, match, (await nodeJob(id)).job);
    },
    async jobQuery(name: string, input: QueryInput): Promise<PromResponse> {
      await mustBeDeployed();
      return queries.run(input, (await knownJob(name)).job);
    },
    /**
     * PromQL for a console this one grants metrics federation: confined to the jobs of this console's
     * own nodes (not plugins' endpoints, not Prometheus's own series).
     */
    async federatedQuery(input: QueryInput): Promise<PromResponse> {
      return queries.run(input, await federatedJobs());
    },
    /** Label values among this console's node jobs, for a federated console. */
    async federatedLabelValues(label: string, match: string[]): Promise<PromResponse> {
      return queries.labelValues(label, match, await federatedJobs());
    },
    /** Detaches from Prometheus (it keeps running, like the nodes). */
    close(): void {
      clearTimeout(syncTimer);
      unsubscribe();
      sup.close();
    },
  };
}

export type PrometheusService = ReturnType<typeof createPrometheusService>;
