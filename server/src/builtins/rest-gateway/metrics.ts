/** Upper bounds (seconds) of the request duration histogram: from a health check to a slow commit. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

const escapeLabel = (v: string): string => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');

/** What the HTTP layer records and /metrics shows. */
export interface Metrics {
  /** Counts one finished request. */
  observe(route: string, status: number, seconds: number): void;
  /** The exposition text, sorted so that scrapes are stable. */
  render(): string;
}

/**
 * Request counters and a duration histogram, rendered in the Prometheus text format (0.0.4).
 * Routes are the gateway's fixed paths plus "other", so the label sets stay bounded.
 */
export function createMetrics(prefix = "fabric_rest_gateway"): Metrics {
  const requests = new Map<string, number>();
  const durations = new Map<string, Histogram>();

  return {
    observe(route: string, status: number, seconds: number): void {
      const key = `route="${escapeLabel(route)}",status="${status}"`;
      requests.set(key, (requests.get(key) ?? 0) + 1);
      const h = durations.get(route) ?? { counts: BUCKETS.map(() => 0), sum: 0, count: 0 };
      durations.set(route, h);
      BUCKETS.forEach((le, i) => {
        if (seconds <= le) h.counts[i] = (h.counts[i] ?? 0) + 1;
      });
      h.sum += seconds;
      h.count += 1;
    },

    render(): string {
      const lines = [
        `# HELP ${prefix}_requests_total HTTP requests handled, by route and status code.`,
        `# TYPE ${prefix}_requests_total counter`,
      ];
      for (const [labels, n] of [...requests].sort(([a], [b]) => a.localeCompare(b))) {
        lines.push(`${prefix}_requests_total{${labels}} ${n}`);
      }
      lines.push(
        `# HELP ${prefix}_request_duration_seconds Time to answer an HTTP request, by route.`,
        `# TYPE ${prefix}_request_duration_seconds histogram`,
      );
      for (const [route, h] of [...durations].sort(([a], [b]) => a.localeCompare(b))) {
        const r = `route="${escapeLabel(route)}"`;
        BUCKETS.forEach((le, i) =>
          lines.push(`${prefix}_request_duration_seconds_bucket{${r},le="${le}"} ${h.counts[i]}`),
        );
        lines.push(`${prefix}_request_duration_seconds_bucket{${r},le="+Inf"} ${h.count}`);
        lines.push(`${prefix}_request_duration_seconds_sum{${r}} ${h.sum}`);
        lines.push(`${prefix}_request_duration_seconds_count{${r}} ${h.count}`);
      }
      return lines.join("\n") + "\n";
    },
  };
}
