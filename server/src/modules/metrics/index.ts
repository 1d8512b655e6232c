import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";
import { createNodesRepo } from "../nodes/nodes.repo.js";
import { registerMetricsRoutes } from "./metrics.routes.js";
import { resolvePrometheus } from "./prometheus-binary.js";
import type { DockerRuntime } from "../../runtime/docker/index.js";
import { createPrometheusService, type PrometheusService } from "./prometheus.service.js";

export interface MetricsModule {
  service: PrometheusService;
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
  const service = createPrometheusService({
    db: ctx.db,
    nodes: createNodesRepo(ctx.db),
    bus: ctx.bus,
    log: ctx.log,
    dataDir: ctx.config.dataDir,
    env: prometheusEnv,
    ...(deps.docker ? { docker: deps.docker } : {}),
  });
  registerMetricsRoutes(api, service);
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
  return { service };
}
