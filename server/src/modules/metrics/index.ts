import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";
import { createNodesRepo } from "../nodes/nodes.repo.js";
import { createMetricsJobsRepo } from "./metrics-jobs.repo.js";
import { registerMetricsJobsRoutes } from "./metrics-jobs.routes.js";
import { createMetricsJobsService, customScrapeJob } from "./metrics-jobs.service.js";
import { registerMetricsRoutes } from "./metrics.routes.js";
import type { MetricsFederation } from "../federation/federation.metrics.js";
import { registerConnectionMetricsRoutes } from "./metrics-connection.routes.js";
import { registerMetricsExploreRoutes } from "./metrics-explore.routes.js";
import { registerFilteredMetricsRoutes } from "./metrics-filtered.routes.js";
import { createFilteredMetrics } from "./metrics-filtered.service.js";
import { resolvePrometheus } from "./prometheus-binary.js";
import type { DockerRuntime } from "../../runtime/docker/index.js";
import { createPrometheusService, type PrometheusService } from "./prometheus.service.js";

export interface MetricsModule {
  service: PrometheusService;
  /** Serves /metrics/connection/{id}/* through metrics federation (the federation module is made later). */
  bindFederation(federation: Pick<MetricsFederation, "query">): void;
}

/**
 * The managed Prometheus and the metrics queries. On ready it adopts the Prometheus an earlier
 * console left running (or starts it again when it should run); on close it detaches, leaving it
 * running like the nodes.
 */
export function registerMetricsModule(
  api: FastifyInstance,
  ctx: Pick<AppContext, "db" | "bus" | "log" | "config">,
  deps: { docker?: DockerRuntime } = {},
): MetricsModule {
  const prometheusEnv = { ...process.env, CHAINLAUNCH_PROMETHEUS_BIN: ctx.config.prometheusBin };
  const nodes = createNodesRepo(ctx.db);
  const jobsRepo = createMetricsJobsRepo(ctx.db);
  const service = createPrometheusService({
    db: ctx.db,
    nodes,
    bus: ctx.bus,
    log: ctx.log,
    dataDir: ctx.config.dataDir,
    env: prometheusEnv,
    customJobs: async () => (await jobsRepo.all()).map(customScrapeJob),
    ...(deps.docker ? { docker: deps.docker } : {}),
  });
  registerMetricsRoutes(api, service);
  registerMetricsJobsRoutes(api, createMetricsJobsService({ repo: jobsRepo, nodes, prometheus: service }));
  registerMetricsExploreRoutes(api, service);
  const filtered = createFilteredMetrics({ prometheus: service });
  registerFilteredMetricsRoutes(api, filtered);
  api.addHook("onReady", async () => {
    try {
      resolvePrometheus(prometheusEnv);
    } catch (err) {
      // Said once at boot; deploy answers 503 with the same message until it is installed.
      ctx.log.warn(`metrics are unavailable: ${(err as Error).message}`);
    }
    await service.resume().catch((err: unknown) => ctx.log.error({ err }, "resuming prometheus failed"));
  });
  api.addHook("onClose", async () => service.close());
  return {
    service,
    bindFederation: (federation) => registerConnectionMetricsRoutes(api, { federation, filtered }),
  };
}
