import { stringify } from "yaml";
import { dialHost } from "../nodes/fabric-node.js";
import { deploymentOf } from "../nodes/nodes.mapping.js";
import type { NodeRow } from "../nodes/nodes.repo.js";

/** One node's scrape job: its name is the node's slug, which is also the label queries are scoped to. */
export interface ScrapeJob {
  job: string;
  nodeId: number;
  nodeName: string;
  nodeType: string;
  platform: string;
  /** host:port of the metrics endpoint. */
  target: string;
  path: string;
  /** Labels instead of the node's (a plugin's service: plugin, service). */
  labels?: Record<string, string>;
  /** Its own scrape interval (a plugin's endpoint or a custom job may ask for one), e.g. 15s. */
  interval?: string;
  /** Every target of the job (a custom job may have several); `target` is the first. */
  targets?: string[];
  /** Who made the job: a node (default), a running plugin, or an operator (POST /metrics/job/add). */
  source?: "node" | "plugin" | "custom";
}

const DURATION_UNITS: Record<string, number> = {
  ms: 0.001,
  s: 1,
  m: 60,
  h: 3600,
  d: 86_400,
  w: 604_800,
  y: 31_536_000,
};

/** Seconds of a Prometheus duration (`1m30s`, `500ms`), or undefined when it is not one. */
export function durationSeconds(text: string): number | undefined {
  if (!/^(\d+(ms|s|m|h|d|w|y))+$/.test(text)) return undefined;
  let total = 0;
  for (const m of text.matchAll(/(\d+)(ms|s|m|h|d|w|y)/g))
    total += Number(m[1]) * (DURATION_UNITS[m[2] as string] ?? 0);
  return total;
}

/**
 * The jobs with each name once: Prometheus refuses a configuration that names a job twice. The first
 * wins, so a node's or plugin's job keeps its name over a custom job that took it first (a node
 * created later with that slug); `dropped` hears of each one left out.
 */
export function uniqueJobs(jobs: ScrapeJob[], dropped: (job: ScrapeJob) => void = () => undefined): ScrapeJob[] {
  const seen = new Set<string>();
  return jobs.filter((j) => {
    if (seen.has(j.job)) {
      dropped(j);
      return false;
    }
    seen.add(j.job);
    return true;
  });
}

/** Splits host:port, keeping IPv6 brackets. */
function hostAndPort(address: string): { host: string; port: string } | undefined {
  const i = address.lastIndexOf(":");
  if (i <= 0) return undefined;
  const host = address.slice(0, i).replace(/^\[|\]$/g, "");
  const port = address.slice(i + 1);
  return /^\d+$/.test(port) ? { host, port } : undefined;
}

/**
 * The scrape jobs of the console's nodes: a Fabric peer or orderer is scraped on its operations
 * endpoint (`metrics.provider: prometheus` in the configs we write), a Besu node on its metrics port
 * when metrics are on. Wildcard listeners are scraped on loopback.
 */
export function scrapeJobsOf(rows: NodeRow[]): ScrapeJob[] {
  const jobs: ScrapeJob[] = [];
  for (const row of rows) {
    const d = deploymentOf(row);
    let address: string | undefined;
    if (d.kind === "fabric") address = d.operationsAddress;
    if (d.kind === "besu" && d.props.metricsEnabled) address = `${d.props.metricsHost}:${d.props.metricsPort}`;
    const hp = address ? hostAndPort(address) : undefined;
    if (!hp) continue;
    const host = dialHost(hp.host);
    jobs.push({
      job: row.slug,
      nodeId: row.id,
      nodeName: row.name,
      nodeType: row.node_type,
      platform: row.platform,
      target: `${host.includes(":") ? `[${host}]` : host}:${hp.port}`,
      path: "/metrics",
    });
  }
  return jobs.sort((a, b) => a.nodeId - b.nodeId);
}

/**
 * prometheus.yml for the managed instance: one job per node, labelled with the node's id, name and type,
 * one per metrics endpoint of a running plugin (labelled plugin and service), and the operator's custom
 * jobs (their labels are Prometheus's own: job and instance).
 */
export function prometheusConfig(opts: { scrapeIntervalSeconds: number; jobs: ScrapeJob[] }): string {
  const interval = `${opts.scrapeIntervalSeconds}s`;
  // A scrape may not take longer than the interval (Prometheus refuses such a config).
  const timeout = `${Math.min(opts.scrapeIntervalSeconds, 10)}s`;
  const doc = {
    global: { scrape_interval: interval, evaluation_interval: interval, scrape_timeout: timeout },
    scrape_configs: opts.jobs.map((j) => ({
      job_name: j.job,
      metrics_path: j.path,
      ...(j.interval ? { scrape_interval: j.interval } : {}),
      // A job scraped more often than the global timeout gets its interval as its timeout.
      ...(j.interval && (durationSeconds(j.interval) ?? Infinity) < Math.min(opts.scrapeIntervalSeconds, 10)
        ? { scrape_timeout: j.interval }
        : {}),
      static_configs: [
        {
          targets: j.targets ?? [j.target],
          labels: j.labels ?? {
            node_id: String(j.nodeId),
            node_name: j.nodeName,
            node_type: j.nodeType,
            platform: j.platform,
          },
        },
      ],
    })),
  };
  return `# Written by ChainLaunch from its nodes; changes here are overwritten.\n${stringify(doc)}`;
}
