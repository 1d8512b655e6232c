/** A series of a range query: its labels and [unix seconds, value] points. */
export interface ChartSeries {
  label: string;
  values: [number, string][];
}

/**
 * uPlot's columnar data from Prometheus series: one shared, sorted x axis (unix seconds) and one
 * y array per series with null where a series has no point (a gap, not a zero). NaN and ±Inf samples
 * (Prometheus sends them as strings) become gaps too.
 */
export function alignSeries(series: ChartSeries[]): [number[], ...(number | null)[][]] {
  const xs = [...new Set(series.flatMap((s) => s.values.map((v) => v[0])))].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const ys = series.map((s) => {
    const y: (number | null)[] = new Array<number | null>(xs.length).fill(null);
    for (const [t, v] of s.values) {
      const n = Number(v);
      y[index.get(t) as number] = Number.isFinite(n) ? n : null;
    }
    return y;
  });
  return [xs, ...ys];
}

const UNITS = ["", "K", "M", "G", "T"];

/** A compact number for an axis or legend: 1.2K, 3.4M, 0.25, 12. */
export function compactNumber(n: number): string {
  if (!Number.isFinite(n)) return "—";
  const abs = Math.abs(n);
  if (abs < 1000)
    return abs >= 100 || Number.isInteger(n)
      ? String(Math.round(n * 100) / 100)
      : n.toPrecision(3).replace(/\.?0+$/, "");
  let i = 0;
  let v = n;
  while (Math.abs(v) >= 1000 && i < UNITS.length - 1) {
    v /= 1000;
    i++;
  }
  return `${Math.round(v * 10) / 10}${UNITS[i]}`;
}

/** Bytes as KiB/MiB/GiB. */
export function bytes(n: number): string {
  if (!Number.isFinite(n)) return "—";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  let v = n;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Math.round(v * 10) / 10} ${units[i]}`;
}

/** Seconds as ms or s. */
export function seconds(n: number): string {
  if (!Number.isFinite(n)) return "—";
  return n < 1 ? `${Math.round(n * 10_000) / 10} ms` : `${Math.round(n * 100) / 100} s`;
}
