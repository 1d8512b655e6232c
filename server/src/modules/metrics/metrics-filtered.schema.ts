import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { FILTER_OPERATORS, MAX_FILTERS, MAX_LIMIT } from "./metrics-filters.js";

/** Schemas of the filtered, search, metadata, logs and port routes of /metrics. */

const promql = lazySchema(() => z.string().max(10_000).describe("PromQL expression"));
const time = lazySchema(() => z.string().max(64).describe("RFC 3339 time or Unix seconds (Go's zero time: none)"));
const step = lazySchema(() => z.string().max(32).describe("Step: a duration such as 15s, 1m, 1h, or seconds"));
const limit = lazySchema(() =>
  z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_LIMIT)
    .optional()
    .describe(`Series per page (0 or missing: 100, at most ${MAX_LIMIT})`),
);
const offset = lazySchema(() => z.coerce.number().int().min(0).max(1_000_000).optional().describe("Series to skip"));

export const metricFilter = lazySchema(() =>
  z
    .object({
      property: z
        .string()
        .max(128)
        .describe('A label name (job, instance, __name__, ...) or "value" (the sample value)'),
      operator: z
        .string()
        .max(32)
        .describe(`One of ${FILTER_OPERATORS.join(", ")}; gt, lt, gte and lte compare the sample value`),
      value: z
        .union([
          z.string().max(1000),
          z.number(),
          z.boolean(),
          z.array(z.union([z.string().max(1000), z.number()])).max(100),
        ])
        .describe("The value to compare with; a list (or a|b) for in and not_in"),
    })
    .describe("One filter")
    .meta({ id: "MetricFilter" }),
);

export const filteredBody = lazySchema(() =>
  z
    .object({
      query: promql.optional().describe("Base PromQL (empty or missing: every series in scope)"),
      filters: z.array(metricFilter).max(MAX_FILTERS).optional().describe("Filters, all of which must hold"),
      start: time.optional(),
      end: time.optional(),
      step: step.optional(),
      limit,
      offset,
    })
    .describe("A filtered query: instant, or range with start and end")
    .meta({ id: "FilteredQueryRequest" }),
);
export type FilteredBody = z.infer<typeof filteredBody>;

/**
 * A filtered GET's query string. Besides these, upstream's `filter[property][operator]=value` keys are
 * accepted (any other key is a 400 naming it), which a fixed object schema can't list.
 */
export const filteredQuery = lazySchema(() =>
  z
    .object({
      query: promql.optional().describe("Base PromQL (default: every series in scope)"),
      filters: z.string().max(10_000).optional().describe("Comma-separated property:operator:value filters"),
      filter: z
        .union([z.string().max(2000), z.array(z.string().max(2000)).max(MAX_FILTERS)])
        .optional()
        .describe("property:operator:value (repeatable); filter[property][operator]=value is also accepted"),
      limit,
      offset,
    })
    .catchall(z.union([z.string().max(2000), z.array(z.string().max(2000)).max(MAX_FILTERS)])),
);
export type FilteredQuery = z.infer<typeof filteredQuery>;

export const searchQuery = lazySchema(() =>
  filteredQuery
    .unwrap()
    .omit({ query: true })
    .extend({ q: z.string().max(200).optional().describe("Text the metric name contains (case-insensitive)") }),
);

export const filteredResponse = lazySchema(() =>
  z
    .object({
      status: z.string().describe("success"),
      data: z.unknown().describe("Prometheus's data (resultType and this page of result), or a page of series"),
      applied_filters: z
        .array(
          z.object({
            property: z.string().describe("Label or value"),
            operator: z.string().describe("Operator"),
            value: z.unknown().describe("Value"),
          }),
        )
        .describe("The filters as applied"),
      metadata: z
        .record(z.string(), z.unknown())
        .describe("query (the PromQL sent, before scoping), scope, result_type, warnings"),
      pagination: z
        .object({
          limit: z.number().int().describe("Series per page"),
          offset: z.number().int().describe("Series skipped"),
          total: z.number().int().describe("Series in the whole answer"),
        })
        .describe("Where this page is"),
    })
    .describe("A filtered, paginated answer")
    .meta({ id: "FilteredMetricsResponse" }),
);

export const nodeMetricsQuery = lazySchema(() =>
  z.object({ query: promql.optional().describe("PromQL (default: every series of the node)") }).strict(),
);

export const jobLabelParams = lazySchema(() =>
  z
    .object({
      jobName: z.string().min(1).max(255).describe("Job name"),
      label: z.string().min(1).max(128).describe("Label name"),
    })
    .strict(),
);

export const metadataQuery = lazySchema(() =>
  z
    .object({
      metric: z
        .string()
        .max(200)
        .regex(/^[A-Za-z_:][A-Za-z0-9_:]*$/, "must be a metric name")
        .optional()
        .describe("Only this metric"),
      limit: z.coerce.number().int().min(0).max(100_000).optional().describe("At most this many metrics (0: all)"),
    })
    .strict(),
);

export const metadataResponse = lazySchema(() =>
  z
    .object({
      status: z.string().describe("success"),
      data: z
        .record(z.string(), z.array(z.record(z.string(), z.string())))
        .describe("Per metric name: its type, help and unit as the targets report them"),
    })
    .describe("Metric metadata"),
);

export const metricsLogsQuery = lazySchema(() =>
  z
    .object({
      tail: z.coerce.number().int().min(0).max(10_000).default(100).describe("Lines from the end (default 100)"),
      follow: z
        .enum(["true", "false", "1", "0"])
        .default("false")
        .transform((v) => v === "true" || v === "1")
        .describe("Keep streaming new lines until the client disconnects"),
    })
    .strict(),
);

export const portParams = lazySchema(() =>
  z
    .object({
      port: z.coerce.number().int().min(1).max(65535).describe("TCP port (1-65535)"),
    })
    .strict(),
);
export const portCheckResponse = lazySchema(() =>
  z
    .object({ available: z.boolean().describe("Prometheus could listen on this port now") })
    .describe("Whether the port is free for Prometheus"),
);
