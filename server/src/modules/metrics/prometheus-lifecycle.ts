import { rm } from "node:fs/promises";
import type { FastifyBaseLogger } from "fastify";
import { nowIso, type DB } from "../../db/db.js";
import { errorMessage } from "../../http/errors.js";
import { resolvePrometheus } from "./prometheus-binary.js";
import { NotDeployedError, PROCESS_ID, type DeploymentMode, type PrometheusRuntime } from "./prometheus-runtime.js";

export interface DeployInput {
  /** Empty or missing: upstream's default, docker, where this console's Docker engine answers; else service. */
  deployment_mode?: "service" | "docker" | "" | undefined;
  prometheus_port: number;
  prometheus_version: string;
  scrape_interval: number;
  docker_config?: { network_mode?: string | undefined } | undefined;
}

/** Upstream's RefreshPrometheusRequest: Go leaves out (omitempty) or zeroes what stays as it is. */
export interface RefreshInput {
  deployment_mode?: "service" | "docker" | "" | undefined;
  prometheus_port?: number | undefined;
  prometheus_version?: string | undefined;
  scrape_interval?: number | undefined;
  docker_config?: { network_mode?: string | undefined } | undefined;
}

type Message = { message: string };

/**
 * The verbs that change whether and how Prometheus runs: deploy, stop, start, refresh and undeploy.
 * Stop keeps the deployment (row, configuration, data) so start brings back the same Prometheus on
 * the same port; undeploy removes it.
 */
export function createPrometheusLifecycle(deps: {
  db: DB;
  rt: PrometheusRuntime;
  log: Pick<FastifyBaseLogger, "info" | "warn">;
  env?: NodeJS.ProcessEnv | undefined;
}) {
  const { db, rt, log } = deps;
  const update = (values: Record<string, unknown>): Promise<unknown> =>
    db
      .updateTable("metrics_deployment")
      .set({ ...values, updated_at: nowIso() })
      .where("id", "=", 1)
      .execute();

  /**
   * Upstream's handler turns an empty mode into docker; a console without a Docker engine that answers
   * runs it as a service instead of refusing (upstream's GET /metrics/defaults proposes service too).
   */
  const modeOf = async (mode: string | undefined): Promise<DeploymentMode> =>
    mode === "service" || mode === "docker" ? mode : (await rt.dockerUsable()) ? "docker" : "service";

  async function deploy(input: DeployInput): Promise<Message> {
    const mode = await modeOf(input.deployment_mode);
    if (mode === "docker") await rt.dockerReady(input.docker_config?.network_mode);
    // Found before anything changes, so a missing binary leaves the current deployment as it is.
    resolvePrometheus(deps.env);
    return rt.serial(async () => {
      const current = await rt.row();
      const ownPort = current?.deployed === 1 && rt.sup.get(PROCESS_ID) ? current.port : undefined;
      if (input.prometheus_port !== ownPort) await rt.portFree(input.prometheus_port);
      await rt.stopProcess();
      await rt.writeConfig(input.scrape_interval);
      const now = nowIso();
      const values = {
        deployment_mode: mode,
        port: input.prometheus_port,
        scrape_interval: input.scrape_interval,
        version: input.prometheus_version,
        deployed: 1,
        stopped: 0,
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
      try {
        const state = await rt.launch(input.prometheus_port, mode);
        await update({ started_at: state.startedAt ?? nowIso() });
      } catch (err) {
        await update({ deployed: 0, error: errorMessage(err) });
        throw err;
      }
      log.info({ port: input.prometheus_port, mode }, "prometheus deployed");
      return {
        message: `Prometheus deployed on port ${input.prometheus_port}${mode === "docker" ? " (Docker container)" : ""}`,
      };
    });
  }

  /** The deployment, or a 400 naming the verb that needs one. */
  async function deployed(verb: string) {
    const r = await rt.row();
    if (!r || r.deployed !== 1) throw new NotDeployedError(verb);
    return r;
  }

  /** Starts the deployed Prometheus with its stored settings (inside the queue). */
  async function launchStored(r: NonNullable<Awaited<ReturnType<PrometheusRuntime["row"]>>>): Promise<void> {
    await rt.stopProcess(); // an entry left in error
    await rt.portFree(r.port);
    rt.setPort(r.port);
    await rt.writeConfig(r.scrape_interval);
    try {
      const state = await rt.launch(r.port, r.deployment_mode === "docker" ? "docker" : "service");
      await update({ stopped: 0, started_at: state.startedAt ?? nowIso(), error: null });
    } catch (err) {
      await update({ error: errorMessage(err) });
      throw err;
    }
  }

  return {
    deploy,
    async undeploy(): Promise<Message> {
      return rt.serial(async () => {
        await rt.stopProcess();
        await rm(rt.dir, { recursive: true, force: true });
        await update({ deployed: 0, stopped: 0, started_at: null, error: null });
        return { message: "Prometheus undeployed" };
      });
    },
    /** Stops Prometheus, keeping its settings, configuration and data; a console restart leaves it stopped. */
    async stop(): Promise<Message> {
      return rt.serial(async () => {
        const r = await deployed("stop");
        if (r.stopped === 1 && !rt.sup.get(PROCESS_ID)) return { message: "Prometheus is not running" };
        await rt.stopProcess();
        await update({ stopped: 1, started_at: null, error: null });
        log.info({ port: r.port }, "prometheus stopped");
        return {
          message: "Prometheus stopped; its configuration and data are kept (POST /metrics/start runs it again)",
        };
      });
    },
    /** Starts a stopped Prometheus with the settings it was deployed with. */
    async start(): Promise<Message> {
      const r0 = await deployed("start");
      resolvePrometheus(deps.env);
      if (r0.deployment_mode === "docker") await rt.dockerReady("host");
      return rt.serial(async () => {
        const r = await deployed("start");
        if (rt.running() && r.stopped !== 1) return { message: "Prometheus is already running" };
        await launchStored(r);
        log.info({ port: r.port }, "prometheus started");
        return { message: `Prometheus started on port ${r.port}` };
      });
    },
    /**
     * Applies new settings (what upstream's refresh takes; left out or zero: unchanged), rewrites the
     * scrape configuration from the nodes and custom jobs, and has Prometheus reload it. A new port or
     * mode restarts it; a stopped Prometheus stays stopped with the new settings saved.
     */
    async refresh(input: RefreshInput): Promise<Message> {
      const r0 = await deployed("refresh");
      const mode: DeploymentMode = input.deployment_mode
        ? await modeOf(input.deployment_mode)
        : r0.deployment_mode === "docker"
          ? "docker"
          : "service";
      const port = input.prometheus_port || r0.port;
      const interval = input.scrape_interval || r0.scrape_interval;
      const version = input.prometheus_version || r0.version;
      const network = input.docker_config?.network_mode || undefined;
      if (mode === "docker" && (mode !== r0.deployment_mode || network)) await rt.dockerReady(network);
      const restart = port !== r0.port || mode !== r0.deployment_mode;
      if (restart && r0.stopped !== 1) {
        const res = await deploy({
          deployment_mode: mode,
          prometheus_port: port,
          prometheus_version: version,
          scrape_interval: interval,
        });
        return { message: `Prometheus refreshed: ${res.message.replace(/^Prometheus /, "")}` };
      }
      return rt.serial(async () => {
        const r = await deployed("refresh");
        if (port !== r.port) await rt.portFree(port);
        await update({ deployment_mode: mode, port, scrape_interval: interval, version });
        if (r.stopped === 1) {
          await rt.writeConfig(interval);
          return {
            message:
              "Prometheus is stopped: its settings and scrape configuration were updated (POST /metrics/start runs it)",
          };
        }
        rt.setPort(port);
        if (!rt.running()) {
          await launchStored({ ...r, deployment_mode: mode, port, scrape_interval: interval, version });
          return { message: `Prometheus refreshed: started again on port ${port}` };
        }
        await rt.writeConfig(interval);
        await rt.client.reload();
        return { message: "Prometheus refreshed: scrape configuration rewritten and reloaded" };
      });
    },
  };
}

export type PrometheusLifecycle = ReturnType<typeof createPrometheusLifecycle>;
