import type { ChartSeries } from "@/components/charts/series-data";
import type { RangeSeries } from "@/data/metrics/metrics";

/** The per-peer query: its channels' transactions per minute (the node Metrics tab's "tx" panel). */
export const TX_PER_MINUTE_QUERY = "sum by (channel) (rate(ledger_transaction_count[2m])) * 60";

/**
 * One series per channel, the sum over every peer's series of that channel at each timestamp.
 * Peers of one console are queried with the same end and step, so their timestamps line up; a
 * point missing on one peer just doesn't add to that timestamp. NaN and ±Inf samples are skipped
 * (a peer without data there), and a timestamp where no peer had a finite value is left out, so the
 * chart shows a gap rather than a false zero. Channels come out sorted by name.
 */
export function sumByChannel(perNode: readonly (readonly RangeSeries[])[]): ChartSeries[] {
  const channels = new Map<string, Map<number, number>>();
  for (const series of perNode) {
    for (const s of series) {
      const channel = s.metric.channel ?? "";
      let points = channels.get(channel);
      if (!points) {
        points = new Map();
        channels.set(channel, points);
      }
      for (const [t, v] of s.values) {
        const n = Number(v);
        if (!Number.isFinite(n)) continue;
        points.set(t, (points.get(t) ?? 0) + n);
      }
    }
  }
  return [...channels.entries()]
    .filter(([, points]) => points.size > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([channel, points]) => ({
      label: channel || "(no channel)",
      values: [...points.entries()].sort((a, b) => a[0] - b[0]).map(([t, n]): [number, string] => [t, String(n)]),
    }));
}

/** The largest value of any series (0 when there is none): "no transactions" when it is 0. */
export function peakValue(series: readonly ChartSeries[]): number {
  let max = 0;
  for (const s of series) for (const [, v] of s.values) max = Math.max(max, Number(v));
  return max;
}
