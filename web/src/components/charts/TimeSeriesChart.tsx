import { useEffect, useRef, type ReactElement } from "react";
import uPlot, { type AlignedData, type Options } from "uplot";
import "uplot/dist/uPlot.min.css";
import { alignSeries, compactNumber, type ChartSeries } from "@/components/charts/series-data";

const AXIS_FONT = "12px system-ui, sans-serif";
let measurer: CanvasRenderingContext2D | null | undefined;

/**
 * Width the y axis needs for its widest label (ticks, gap and a margin included). A fixed width
 * clipped long labels at their left, so 67.1 MiB read "7.1 MiB".
 */
export function axisWidth(values: readonly string[] | null | undefined): number {
  if (!values?.length) return 50;
  measurer ??= document.createElement("canvas").getContext("2d");
  let widest = 0;
  for (const v of values) {
    let w = v.length * 7.5;
    if (measurer) {
      measurer.font = AXIS_FONT;
      w = measurer.measureText(v).width;
    }
    widest = Math.max(widest, w);
  }
  return Math.ceil(widest) + 24;
}

const COLOURS = ["#2563eb", "#16a34a", "#d97706", "#dc2626", "#7c3aed", "#0891b2", "#db2777", "#65a30d"];

/**
 * A line chart of time series (uPlot on a canvas). Sizes itself to its container and follows the
 * theme's text colour for axes; `format` writes the y values (axis and legend).
 */
export function TimeSeriesChart({
  series,
  height = 180,
  format = compactNumber,
  ariaLabel,
  xRange,
}: {
  series: ChartSeries[];
  /** The x axis span in unix seconds (the range asked for); otherwise the data's own. */
  xRange?: [number, number];
  height?: number;
  format?: (n: number) => string;
  ariaLabel: string;
}): ReactElement {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ink = getComputedStyle(el).color || "#888";
    const grid = "rgba(128,128,128,0.15)";
    const opts: Options = {
      width: Math.max(200, el.clientWidth),
      height,
      legend: { show: series.length > 0 },
      cursor: { drag: { x: false, y: false } },
      scales: { x: xRange ? { time: true, range: () => xRange } : { time: true } },
      axes: [
        { stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid } },
        {
          stroke: ink,
          grid: { stroke: grid },
          ticks: { stroke: grid },
          font: AXIS_FONT,
          size: (_u, values) => axisWidth(values),
          values: (_u, splits) => splits.map((v) => format(v)),
        },
      ],
      series: [
        {},
        ...series.map((s, i) => ({
          label: s.label,
          stroke: COLOURS[i % COLOURS.length],
          width: 1.5,
          spanGaps: false,
          value: (_u: uPlot, v: number | null) => (v === null ? "—" : format(v)),
        })),
      ],
    };
    const chart = new uPlot(opts, alignSeries(series) as AlignedData, el);
    plot.current = chart;
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(200, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [series, height, format, xRange]);

  return <div ref={box} role="img" aria-label={ariaLabel} className="w-full text-muted-foreground" />;
}
