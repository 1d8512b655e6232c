import { InputError, UpstreamError, errorMessage } from "../../http/errors.js";

/** What Prometheus's HTTP API answers: `{status: "success", data}` or `{status: "error", errorType, error}`. */
export interface PromResponse {
  status: string;
  data?: unknown;
  errorType?: string;
  error?: string;
  warnings?: string[];
}

/** One series of a vector or matrix result. */
interface PromSeries {
  metric: Record<string, string>;
  value?: unknown;
  values?: unknown[];
}

/**
 * A client of one Prometheus's HTTP API (`/api/v1/*`, `/-/reload`, `/-/ready`). Prometheus's own
 * 4xx (bad PromQL: `bad_data`) become 400s carrying its message; no answer becomes a 502.
 */
export function createPrometheusClient(baseUrl: () => string, timeoutMs = 30_000) {
  async function call(path: string, params?: URLSearchParams, method: "GET" | "POST" = "GET"): Promise<PromResponse> {
    const url = `${baseUrl()}${path}`;
    let res: Response;
    try {
      res =
        method === "POST"
          ? await fetch(url, {
              method,
              body: params ?? new URLSearchParams(),
              signal: AbortSignal.timeout(timeoutMs),
            })
          : await fetch(params ? `${url}?${params.toString()}` : url, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new UpstreamError(`Prometheus at ${baseUrl()} did not answer: ${errorMessage(err)}`);
    }
    const text = await res.text();
    let body: PromResponse;
    try {
      body = JSON.parse(text) as PromResponse;
    } catch {
      // The status only: a port that no longer holds our Prometheus may hold anything, and its page is not ours to show.
      if (!res.ok)
        throw new UpstreamError(`Prometheus at ${baseUrl()} answered HTTP ${res.status} without a JSON body`);
      return { status: "success", data: text };
    }
    if (body.status === "error") {
      // bad_data is the caller's query (parse or type errors), 422 an execution error (e.g. too many points).
      if (res.status === 400 || res.status === 422) {
        throw new InputError(`query: ${body.error ?? "refused by Prometheus"}`, { errorType: body.errorType });
      }
      throw new UpstreamError(`Prometheus: ${body.error ?? `HTTP ${res.status}`}`, { errorType: body.errorType });
    }
    return body;
  }

  return {
    query(query: string, time?: string): Promise<PromResponse> {
      const p = new URLSearchParams({ query });
      if (time) p.set("time", time);
      return call("/api/v1/query", p, "POST");
    },
    queryRange(query: string, start: string, end: string, step: string): Promise<PromResponse> {
      return call("/api/v1/query_range", new URLSearchParams({ query, start, end, step }), "POST");
    },
    /**
     * Prometheus's verdict on a query without evaluating it into data: the exemplars API parses and
     * type-checks the expression like a query does and, with exemplar storage off, returns nothing.
     */
    async check(query: string): Promise<void> {
      const now = Math.floor(Date.now() / 1000);
      await call("/api/v1/query_exemplars", new URLSearchParams({ query, start: String(now - 1), end: String(now) }));
    },
    labelValues(label: string, match: string[]): Promise<PromResponse> {
      const p = new URLSearchParams();
      for (const m of match) p.append("match[]", m);
      return call(`/api/v1/label/${encodeURIComponent(label)}/values`, p);
    },
    /** Label sets of the series matching any selector, seen between start and end (Unix seconds). */
    series(match: string[], start: string, end: string): Promise<PromResponse> {
      const p = new URLSearchParams({ start, end });
      for (const m of match) p.append("match[]", m);
      return call("/api/v1/series", p, "POST");
    },
    /** Metric metadata (type, help, unit) by metric name, as the targets scraped last reported it. */
    metadata(metric?: string, limit?: number): Promise<PromResponse> {
      const p = new URLSearchParams();
      if (metric) p.set("metric", metric);
      if (limit) p.set("limit", String(limit));
      return call("/api/v1/metadata", p);
    },
    targets(): Promise<PromResponse> {
      return call("/api/v1/targets");
    },
    buildInfo(): Promise<PromResponse> {
      return call("/api/v1/status/buildinfo");
    },
    async reload(): Promise<void> {
      let res: Response;
      try {
        res = await fetch(`${baseUrl()}/-/reload`, { method: "POST", signal: AbortSignal.timeout(timeoutMs) });
      } catch (err) {
        throw new UpstreamError(`Prometheus at ${baseUrl()} did not answer the reload: ${errorMessage(err)}`);
      }
      if (!res.ok) throw new UpstreamError(`Prometheus refused the new configuration: ${(await res.text()).trim()}`);
    },
  };
}

export type PrometheusClient = ReturnType<typeof createPrometheusClient>;

/**
 * Drops every series of a vector or matrix result whose `job` label names another job (or a job
 * outside the set). Selectors are already scoped; this is the second fence, so a gap in the rewriting
 * can't show foreign series. Series without a job label (aggregations, `vector(1)`) carry no stored
 * series' identity and stay.
 */
export function keepJob(response: PromResponse, job: string | string[]): PromResponse {
  const data = response.data as { resultType?: string; result?: unknown } | undefined;
  if (!data || !Array.isArray(data.result) || (data.resultType !== "vector" && data.resultType !== "matrix")) {
    return response;
  }
  const allowed = new Set(typeof job === "string" ? [job] : job);
  const result = (data.result as PromSeries[]).filter((s) => s.metric?.job === undefined || allowed.has(s.metric.job));
  return { ...response, data: { ...data, result } };
}
