import { nowIso } from "../../db/db.js";
import { ConflictError, NotFoundError } from "../../http/errors.js";
import type { NodesRepo } from "../nodes/nodes.repo.js";
import type { AddJobInput, JobInfo } from "./metrics-jobs.schema.js";
import { targetsOf, type MetricsJobRow, type MetricsJobsRepo } from "./metrics-jobs.repo.js";
import type { ScrapeJob } from "./prometheus-config.js";
import type { PrometheusService } from "./prometheus.service.js";

const DEFAULT_METRICS_PATH = "/metrics";

/** A stored custom job as the configuration renders it: Prometheus's own labels only (job, instance). */
export function customScrapeJob(row: MetricsJobRow): ScrapeJob {
  const targets = targetsOf(row);
  return {
    job: row.job_name,
    nodeId: 0,
    nodeName: row.job_name,
    nodeType: "CUSTOM",
    platform: "CUSTOM",
    target: targets[0] ?? "",
    targets,
    path: row.metrics_path,
    labels: {},
    source: "custom",
    ...(row.scrape_interval ? { interval: row.scrape_interval } : {}),
  };
}

type Applied = Awaited<ReturnType<PrometheusService["applyConfig"]>>;

const appliedNote: Record<Applied, string> = {
  reloaded: "Prometheus reloaded its configuration",
  written: "Prometheus is not running and reads it when started",
  not_deployed: "it is scraped once Prometheus is deployed",
};

/**
 * Custom scrape jobs (upstream's generic jobs): stored in metrics_jobs, rendered into prometheus.yml
 * after the console's own jobs, and applied with a reload. Their names never take a node's slug or a
 * running plugin's job name.
 */
export function createMetricsJobsService(deps: {
  repo: MetricsJobsRepo;
  nodes: Pick<NodesRepo, "all">;
  prometheus: Pick<PrometheusService, "scrapeJobs" | "applyConfig" | "activeTargets">;
}) {
  const { repo, prometheus } = deps;

  /** What owns `name` besides the custom jobs, said for a message; undefined when nothing does. */
  async function consoleOwner(name: string): Promise<string | undefined> {
    const node = (await deps.nodes.all()).find((n) => n.slug === name);
    if (node) return `the job of the console's node '${node.name}'`;
    const job = (await prometheus.scrapeJobs()).find((j) => j.job === name && j.source !== "custom");
    if (job) return job.source === "plugin" ? `the job of plugin '${job.nodeName}'` : "one of the console's own jobs";
    return undefined;
  }

  return {
    async add(input: AddJobInput): Promise<{ message: string }> {
      const name = input.job_name;
      if (await repo.byName(name)) {
        throw new ConflictError(
          `job_name: a custom job named '${name}' already exists (DELETE /metrics/job/${name} first)`,
        );
      }
      const owner = await consoleOwner(name);
      if (owner) throw new ConflictError(`job_name: '${name}' is ${owner}; choose another name`);
      const now = nowIso();
      await repo.insert({
        job_name: name,
        targets: JSON.stringify(input.targets ?? []),
        metrics_path: input.metrics_path || DEFAULT_METRICS_PATH,
        scrape_interval: input.scrape_interval || null,
        created_at: now,
        updated_at: now,
      });
      let applied: Applied;
      try {
        applied = await prometheus.applyConfig();
      } catch (err) {
        // Prometheus refused the file (or did not answer): the job goes, and so does its line.
        await repo.deleteByName(name);
        await prometheus.applyConfig().catch(() => undefined);
        throw err;
      }
      return { message: `Job ${name} added; ${appliedNote[applied]}` };
    },

    async remove(name: string): Promise<{ message: string }> {
      if (!(await repo.deleteByName(name))) {
        const owner = await consoleOwner(name);
        if (owner) {
          throw new ConflictError(
            `jobName: '${name}' is ${owner}, which the console manages; only jobs added with POST /metrics/job/add can be removed`,
          );
        }
        throw new NotFoundError(`jobName: no custom job named '${name}' (GET /metrics/jobs lists them)`);
      }
      const applied = await prometheus.applyConfig();
      return { message: `Job ${name} removed; ${appliedNote[applied]}` };
    },

    /** Every scrape job, by name, with Prometheus's view of its targets when it runs. */
    async list(): Promise<Record<string, JobInfo>> {
      const [jobs, active, rows] = await Promise.all([prometheus.scrapeJobs(), prometheus.activeTargets(), repo.all()]);
      const created = new Map(rows.map((r) => [r.job_name, r.created_at]));
      const out: Record<string, JobInfo> = {};
      for (const j of jobs) {
        const source = j.source ?? "node";
        out[j.job] = {
          job_name: j.job,
          source,
          targets: j.targets ?? [j.target],
          metrics_path: j.path,
          scrape_interval: j.interval ?? null,
          ...(source === "node" ? { node_id: j.nodeId } : {}),
          ...(source === "custom" && created.has(j.job) ? { created_at: created.get(j.job) as string } : {}),
          health: active
            .filter((a) => a.labels?.job === j.job)
            .map((a) => ({
              target: a.labels?.instance ?? "",
              health: a.health ?? "unknown",
              last_error: a.lastError ?? "",
              last_scrape: a.lastScrape ?? "",
            })),
        };
      }
      return out;
    },
  };
}

export type MetricsJobsService = ReturnType<typeof createMetricsJobsService>;
