import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { durationSeconds } from "./prometheus-config.js";

/** Names that fit a URL path segment and a PromQL string: letters, digits, _ . - */
export const JOB_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
/** host:port: a DNS name or IPv4 address, or an IPv6 address in brackets. No scheme, no path. */
const TARGET = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,252})):(\d{1,5})$/;
/** A path Prometheus requests as is: no query, fragment or whitespace. */
const METRICS_PATH = /^\/[^\s?#]*$/;
const MIN_INTERVAL_S = 1;
const MAX_INTERVAL_S = 86_400;

export const jobNameParams = lazySchema(() =>
  z
    .object({ jobName: z.string().min(1).max(255).describe("Job name (one added with POST /metrics/job/add)") })
    .strict(),
);

/**
 * Upstream's AddJobRequest. Go clients send `null` for an empty target list and "" for a field left
 * unset; "" gets the default, and a job without targets is refused naming `targets`.
 */
export const addJobBody = lazySchema(() =>
  z
    .object({
      job_name: z
        .string()
        .max(64)
        .regex(JOB_NAME, "must be 1-64 letters, digits, '_', '.' or '-' (not starting with '.' or '-')")
        .describe("Job name, unique among all the scrape jobs (nodes' slugs and plugins' jobs included)"),
      targets: z
        .array(z.string().max(260).describe("host:port"))
        .max(100)
        .nullable()
        .describe("Endpoints to scrape, host:port each (at least one)"),
      metrics_path: z
        .string()
        .max(255)
        .nullable()
        .optional()
        .describe("Path of the metrics endpoint (empty: /metrics)"),
      scrape_interval: z
        .string()
        .max(16)
        .nullable()
        .optional()
        .describe("A Prometheus duration such as 15s or 1m (empty: the deployment's interval)"),
    })
    .superRefine((v, ctx) => {
      const targets = v.targets ?? [];
      if (targets.length === 0) {
        ctx.addIssue({ code: "custom", path: ["targets"], message: "at least one host:port target is required" });
      }
      targets.forEach((t, i) => {
        const m = TARGET.exec(t);
        if (!m || Number(m[1]) < 1 || Number(m[1]) > 65535) {
          ctx.addIssue({
            code: "custom",
            path: ["targets", i],
            message: `'${t}' is not host:port (no scheme or path), e.g. 127.0.0.1:9100`,
          });
        }
      });
      if (new Set(targets).size !== targets.length) {
        ctx.addIssue({ code: "custom", path: ["targets"], message: "lists a target twice" });
      }
      if (v.metrics_path && !METRICS_PATH.test(v.metrics_path)) {
        ctx.addIssue({
          code: "custom",
          path: ["metrics_path"],
          message: "must be a path starting with / (no query, fragment or spaces)",
        });
      }
      if (v.scrape_interval) {
        const s = durationSeconds(v.scrape_interval);
        if (s === undefined || s < MIN_INTERVAL_S || s > MAX_INTERVAL_S) {
          ctx.addIssue({
            code: "custom",
            path: ["scrape_interval"],
            message: "must be a Prometheus duration from 1s to 1d, such as 15s, 1m or 1m30s",
          });
        }
      }
    })
    .describe("A custom scrape job")
    .meta({ id: "AddJobRequest" }),
);
export type AddJobInput = z.infer<typeof addJobBody>;

const jobTargetHealth = lazySchema(() =>
  z
    .object({
      target: z.string().describe("host:port"),
      health: z.string().describe("up, down or unknown (Prometheus's verdict)"),
      last_error: z.string().describe("The last scrape's error, empty when it worked"),
      last_scrape: z.string().describe("When it was last scraped (RFC 3339)"),
    })
    .describe("How a target's scrapes go"),
);

export const jobInfo = lazySchema(() =>
  z
    .object({
      job_name: z.string().describe("Job name (the job label of its series)"),
      source: z
        .enum(["node", "plugin", "custom"])
        .describe(
          "node and plugin jobs follow the console's nodes and plugins; custom jobs are added and removed here",
        ),
      targets: z.array(z.string()).describe("host:port of each target"),
      metrics_path: z.string().describe("Path scraped"),
      scrape_interval: z.string().nullable().describe("The job's own interval, or null for the deployment's"),
      node_id: z.number().int().optional().describe("The node it scrapes (node jobs)"),
      created_at: z.string().optional().describe("When it was added (custom jobs)"),
      health: z
        .array(jobTargetHealth)
        .describe("Prometheus's view of each target; empty while Prometheus is not running or has not scraped yet"),
    })
    .describe("A scrape job")
    .meta({ id: "MetricsJob" }),
);
export type JobInfo = z.infer<typeof jobInfo>;

export const jobsResponse = lazySchema(() =>
  z
    .record(z.string(), jobInfo)
    .describe("Every scrape job of the managed Prometheus, by job name (as upstream lists them)"),
);
