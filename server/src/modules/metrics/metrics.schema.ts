import { z } from "zod";
import { dbIdQuery, lazySchema } from "../../http/schema-helpers.js";

const promql = lazySchema(() => z.string().min(1).max(10_000).describe("PromQL expression"));
const time = lazySchema(() => z.string().max(64).describe("RFC 3339 time or Unix seconds"));
const step = lazySchema(() => z.string().max(32).describe("Step: a duration such as 15s, 1m, 1h, or seconds"));

export const deploymentMode = lazySchema(() =>
  z.enum(["service", "docker"]).describe("How Prometheus runs: service (a supervised process) or docker"),
);

/** What a request may send: upstream's Go clients send "" (or nothing) for "the default". */
const requestedMode = lazySchema(() =>
  z
    .enum(["service", "docker", ""])
    .describe(
      "How Prometheus runs: service (a supervised process) or docker. Empty or missing: docker (upstream's default) " +
        "where this console's Docker engine answers, service otherwise",
    ),
);

/** Refresh: upstream's Go clients send "" (or nothing) for "unchanged". */
const refreshMode = lazySchema(() =>
  z
    .enum(["service", "docker", ""])
    .describe("How Prometheus runs: service (a supervised process) or docker (empty or missing: unchanged)"),
);

const dockerConfig = lazySchema(() =>
  z
    .object({ network_mode: z.string().max(64).optional().describe("Docker network mode (host)") })
    .optional()
    .describe("Docker settings (docker mode only)"),
);

export const deployBody = lazySchema(() =>
  z
    .object({
      deployment_mode: requestedMode.optional(),
      prometheus_port: z.number().int().min(1024).max(65535).describe("Port Prometheus listens on (loopback)"),
      prometheus_version: z.string().min(1).max(64).describe("Version label (the installed Prometheus is what runs)"),
      scrape_interval: z.number().int().min(1).max(3600).describe("Scrape interval in seconds"),
      docker_config: dockerConfig,
    })
    .describe("Prometheus deployment")
    .meta({ id: "DeployPrometheusRequest" }),
);

/**
 * Upstream's RefreshPrometheusRequest. Every field is optional and a Go zero value (0, "") means
 * "unchanged"; an empty body only rewrites the scrape configuration and reloads it.
 */
export const refreshBody = lazySchema(() =>
  z
    .object({
      deployment_mode: refreshMode.optional(),
      prometheus_port: z
        .number()
        .int()
        .min(0)
        .max(65535)
        .refine((p) => p === 0 || p >= 1024, "must be 1024-65535 (0: unchanged)")
        .optional()
        .describe("New port (0 or missing: unchanged); a new port restarts Prometheus"),
      prometheus_version: z.string().max(64).optional().describe("New version label (empty: unchanged)"),
      scrape_interval: z
        .number()
        .int()
        .min(0)
        .max(3600)
        .optional()
        .describe("New scrape interval in seconds (0 or missing: unchanged)"),
      docker_config: dockerConfig,
    })
    .describe("New settings for the deployed Prometheus; what is left out stays (no body: {})")
    .meta({ id: "RefreshPrometheusRequest" }),
);

export const messageResponse = lazySchema(() =>
  z
    .object({ message: z.string().describe("What happened") })
    .describe("A message")
    .meta({ id: "MessageResponse" }),
);

export const defaultsResponse = lazySchema(() =>
  z
    .object({
      deployment_mode: deploymentMode,
      prometheus_port: z.number().int().describe("First free port from 9090"),
      prometheus_version: z.string().describe("Version of the installed Prometheus"),
      scrape_interval: z.number().int().describe("Default scrape interval, seconds"),
      available_ports: z.array(z.number().int()).describe("Free ports from 9090"),
      docker_config: z
        .object({ network_mode: z.string().describe("Docker network mode") })
        .describe("Docker settings (docker mode is not available yet)"),
      binary_found: z.boolean().describe("Whether a prometheus binary was found (PATH or CHAINLAUNCH_PROMETHEUS_BIN)"),
    })
    .describe("Defaults for a deployment")
    .meta({ id: "PrometheusDefaultsResponse" }),
);

export const statusResponse = lazySchema(() =>
  z
    .object({
      status: z.string().describe("not_deployed, starting, running, error, stopped"),
      version: z.string().optional().describe("The prometheus_version it was deployed with (a label)"),
      binary_version: z
        .string()
        .optional()
        .describe("The version the Prometheus that runs reports (the installed binary's when stopped), e.g. 2.42.0+ds"),
      port: z.number().int().optional().describe("Port"),
      scrape_interval: z.number().optional().describe("Scrape interval as Go's time.Duration (nanoseconds)"),
      scrape_interval_seconds: z.number().int().optional().describe("Scrape interval, seconds"),
      deployment_mode: z.string().optional().describe("service or docker"),
      network_mode: z.string().optional().describe("Docker network mode (docker deployments only)"),
      started_at: z.string().optional().describe("When it started"),
      error: z.string().optional().describe("Why it is not running"),
      targets: z.number().int().optional().describe("Scrape jobs in the configuration (nodes, plugins, custom jobs)"),
    })
    .describe("Prometheus status")
    .meta({ id: "PrometheusStatus" }),
);

export const targetsResponse = lazySchema(() =>
  z.record(z.string(), z.unknown()).describe("Prometheus's targets (activeTargets, droppedTargets)"),
);

export const queryBody = lazySchema(() =>
  z
    .object({
      query: promql,
      start: time.optional(),
      end: time.optional(),
      step: step.optional(),
    })
    .describe("An instant query, or a range query with start and end")
    .meta({ id: "CustomQueryRequest" }),
);

export const queryResult = lazySchema(() =>
  z
    .object({
      status: z.string().describe("success or error"),
      data: z.unknown().optional().describe("Prometheus's data: resultType and result"),
      error: z.string().optional().describe("Error message"),
      warnings: z.array(z.string()).optional().describe("Prometheus's warnings"),
    })
    .describe("A query result")
    .meta({ id: "QueryResult" }),
);

export const labelValuesResponse = lazySchema(() =>
  z
    .object({ status: z.string().describe("success"), data: z.array(z.string()).describe("Label values") })
    .describe("Label values")
    .meta({ id: "LabelValuesResponse" }),
);

export const nodeIdParams = lazySchema(() => z.object({ id: dbIdQuery().describe("Node id") }).strict());
export const nodeLabelParams = lazySchema(() =>
  z
    .object({
      id: dbIdQuery().describe("Node id"),
      label: z.string().min(1).max(128).describe("Label name"),
    })
    .strict(),
);
export const labelValuesQuery = lazySchema(() =>
  z
    .object({
      match: z
        .union([z.string().max(2000), z.array(z.string().max(2000)).max(20)])
        .optional()
        .describe("Series selectors (repeat the key for several)"),
    })
    .strict(),
);
export const jobParams = lazySchema(() =>
  z.object({ jobName: z.string().min(1).max(255).describe("Job name (a node's slug)") }).strict(),
);
export const jobQuery = lazySchema(() =>
  z.object({ query: promql.optional().describe("PromQL (default: up)") }).strict(),
);
export const jobRangeQuery = lazySchema(() => z.object({ query: promql, start: time, end: time, step }).strict());
