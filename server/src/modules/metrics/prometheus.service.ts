import type { FastifyBaseLogger } from "fastify";
import { nowIso, type DB } from "../../db/db.js";
import type { EventBus } from "../../events/bus.js";
import { AppError, ConflictError, NotFoundError, errorMessage } from "../../http/errors.js";
import type { DockerRuntime } from "../../runtime/docker/index.js";
import { checkPort, type Supervisor } from "../../runtime/index.js";
import type { NodesRepo } from "../nodes/nodes.repo.js";
import { createScopedQueries, type JobScope, type QueryInput } from "./metrics-query.js";
import type { PromResponse } from "./prometheus-client.js";
import { scrapeJobsOf, uniqueJobs, type ScrapeJob } from "./prometheus-config.js";
import { createPrometheusLifecycle } from "./prometheus-lifecycle.js";
import { resolvePrometheus } from "./prometheus-binary.js";
import { createPrometheusRuntime, PROCESS_ID } from "./prometheus-runtime.js";

export type { DeployInput, RefreshInput } from "./prometheus-lifecycle.js";

export const DEFAULT_PROMETHEUS_PORT = 9090;
export const DEFAULT_SCRAPE_INTERVAL = 15;
/** Node changes arriving together (a bulk create) regenerate the config once. */
const SYNC_DEBOUNCE_MS = 200;

/** What a query is confined to: one node's job, one named job, or every job of the configuration. */
export type ScopeTarget = { node: number } | { job: string } | "all";

export interface PrometheusStatus {
  status: string;
  /** The prometheus_version label it was deployed with (upstream's field; Terraform compares it with its plan). */
  version?: string;
  /** What the Prometheus that runs (or would run) reports, e.g. 2.42.0+ds. */
  binary_version?: string;
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

/** One of Prometheus's active targets, as /api/v1/targets lists it. */
export interface ActiveTarget {
  scrapePool?: string;
  scrapeUrl?: string;
  health?: string;
  lastError?: string;
  lastScrape?: string;
  labels?: Record<string, string>;
}

/**
 * The managed Prometheus: a supervised process (like the nodes, it outlives console restarts and
 * is adopted again), listening on loopback, whose scrape config is written from the console's nodes
 * (and plugins' endpoints and the operator's custom jobs) and reloaded whenever one changes. Deploy,
 * stop, start, refresh and undeploy live in `prometheus-lifecycle.ts`. Queries go through the console,
 * scoped to a node's own job (`createScopedQueries`).
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
  /** The operator's scrape jobs (POST /metrics/job/add), rendered after the console's own. */
  customJobs?: () => Promise<ScrapeJob[]>;
}) {
  const { nodes, log } = deps;
  let syncTimer: NodeJS.Timeout | undefined;

  /** Other scrape jobs (plugins' metrics endpoints), registered by their modules. */
  const jobSources: (() => Promise<ScrapeJob[]>)[] = [];
  /** Every job of the configuration: nodes, plugins, then custom jobs; a name taken twice keeps the first. */
  async function jobs(): Promise<ScrapeJob[]> {
    const extra = await Promise.all(jobSources.map((f) => f().catch(() => [])));
    const custom = deps.customJobs ? await deps.customJobs() : [];
    return uniqueJobs([...scrapeJobsOf(await nodes.all()), ...extra.flat(), ...custom], (j) =>
      log.warn(
        { job: j.job, source: j.source ?? "node" },
        "a scrape job's name is taken by another job; it is left out",
      ),
    );
  }

  const rt = createPrometheusRuntime({
    db: deps.db,
    nodes,
    log,
    dataDir: deps.dataDir,
    env: deps.env,
    supervisor: deps.supervisor,
    docker: deps.docker,
    jobs,
  });
  rt.setPort(DEFAULT_PROMETHEUS_PORT);
  const { client, serial } = rt;
  const row = () => rt.row();
  const queries = createScopedQueries(() => client);
  const lifecycle = createPrometheusLifecycle({ db: deps.db, rt, log, env: deps.env });

  /** The running deployment, or a 409 saying what to call first. */
  async function mustBeDeployed() {
    const r = await row();
    if (!r || r.deployed !== 1) throw new ConflictError("Prometheus is not deployed: POST /metrics/deploy first");
    if (r.stopped === 1) throw new ConflictError("Prometheus is stopped: POST /metrics/start first");
    rt.setPort(r.port);
    return r;
  }

  /** Regenerates the scrape config from the nodes and, when it changed, has Prometheus reload it. */
  async function sync(force = false): Promise<"reloaded" | "written" | "not_deployed"> {
    return serial(async () => {
      const r = await row();
      if (!r || r.deployed !== 1) return "not_deployed";
      const changed = await rt.writeConfig(r.scrape_interval);
      if (!rt.running()) return "written";
      rt.setPort(r.port);
      if (changed || force) await client.reload();
      return "reloaded";
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
        `job ${name} not found: jobs are the nodes' names (slugs), running plugins' metrics endpoints and the jobs added with POST /metrics/job/add`,
      );
    return job;
  }

  /** The node jobs another console may read; 503 without a running Prometheus, 404 without nodes. */
  async function federatedJobs(): Promise<string[]> {
    const r = await row();
    if (!r || r.deployed !== 1 || r.stopped === 1) {
      throw new AppError(
        r?.deployed === 1
          ? "Prometheus is stopped on this console, so it has no metrics to share (POST /metrics/start there)"
          : "Prometheus is not deployed on this console, so it has no metrics to share (POST /metrics/deploy there)",
        503,
        "METRICS_UNAVAILABLE",
      );
    }
    rt.setPort(r.port);
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
      // Stopped on purpose (POST /metrics/stop): it stays stopped until POST /metrics/start.
      if (!r || r.deployed !== 1 || r.stopped === 1) return;
      await serial(async () => {
        await rt.writeConfig(r.scrape_interval);
        const state = await rt.adoptOrStart(r.port, r.deployment_mode === "docker" ? "docker" : "service");
        if (state.adopted) await client.reload().catch(() => undefined);
        else
          await deps.db
            .updateTable("metrics_deployment")
            .set({ started_at: state.startedAt ?? nowIso() })
            .where("id", "=", 1)
            .execute();
      });
    },
    async defaults() {
      const r = await row();
      const binaryFound = (() => {
        try {
          resolvePrometheus(deps.env);
          return true;
        } catch {
          return false;
        }
      })();
      const version = await rt.installedVersion();
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
        binary_found: binaryFound,
      };
    },
    deploy: lifecycle.deploy,
    undeploy: lifecycle.undeploy,
    stop: lifecycle.stop,
    start: lifecycle.start,
    refresh: lifecycle.refresh,
    async reload(): Promise<{ message: string }> {
      const r = await row();
      if (!r || r.deployed !== 1) throw new ConflictError("Prometheus is not deployed: POST /metrics/deploy first");
      const done = await sync(true);
      return {
        message:
          done === "reloaded"
            ? "Prometheus configuration reloaded"
            : "Prometheus configuration written; Prometheus is not running and reads it when started",
      };
    },
    /** Every scrape job of the configuration (nodes, plugins, custom), each name once. */
    scrapeJobs: jobs,
    /**
     * Rewrites the configuration and, when Prometheus runs, has it reload (a Prometheus that refuses
     * the file answers 502 with its reason). "not_deployed": nothing to write yet.
     */
    applyConfig(): Promise<"reloaded" | "written" | "not_deployed"> {
      return sync(true);
    },
    /** Prometheus's active targets when it runs; none otherwise. */
    async activeTargets(): Promise<ActiveTarget[]> {
      const r = await row();
      if (!r || r.deployed !== 1 || r.stopped === 1 || !rt.running()) return [];
      rt.setPort(r.port);
      const res = await client.targets().catch(() => undefined);
      return ((res?.data as { activeTargets?: ActiveTarget[] } | undefined)?.activeTargets ?? []) as ActiveTarget[];
    },
    async status(): Promise<PrometheusStatus> {
      const r = await row();
      if (!r || r.deployed !== 1) return { status: "not_deployed", ...(r?.error ? { error: r.error } : {}) };
      rt.setPort(r.port);
      const state = r.stopped === 1 ? undefined : rt.sup.get(PROCESS_ID);
      let running: string | undefined;
      if (state?.status === "RUNNING") {
        const info = await client.buildInfo().catch(() => undefined);
        running = (info?.data as { version?: string } | undefined)?.version;
      }
      const binaryVersion = running ?? (await rt.installedVersion());
      return {
        status: (state?.status ?? "STOPPED").toLowerCase(),
        version: r.version,
        ...(binaryVersion ? { binary_version: binaryVersion } : {}),
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
     * The job(s) a target's queries are confined to (409 unless Prometheus runs, 404 for an unknown
     * node or job); undefined when the configuration has no job at all.
     */
    async scope(target: ScopeTarget): Promise<JobScope | undefined> {
      await mustBeDeployed();
      if (target === "all") {
        const names = (await jobs()).map((j) => j.job);
        return names.length ? names : undefined;
      }
      return "node" in target ? (await nodeJob(target.node)).job : (await knownJob(target.job)).job;
    },
    /** Queries on this Prometheus confined to a scope (see `scope`). */
    queries,
    /** Prometheus's metric metadata (type, help, unit by metric name); 409 unless it runs. */
    async metadata(metric?: string, limit?: number): Promise<PromResponse> {
      await mustBeDeployed();
      return client.metadata(metric, limit);
    },
    /** Whether Prometheus could be deployed on `port` (a node's port, or one something listens on, is not). */
    async portAvailable(port: number): Promise<boolean> {
      const r = await row();
      if (r?.deployed === 1 && r.stopped !== 1 && r.port === port) return false;
      return rt.portAvailable(port);
    },
    /** Prometheus's log file (it may not exist before the first deploy). */
    logFile: rt.logFile,
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
      rt.sup.close();
    },
  };
}

export type PrometheusService = ReturnType<typeof createPrometheusService>;
