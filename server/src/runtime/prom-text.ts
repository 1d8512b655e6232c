/**
 * A reader of the Prometheus text exposition format (version 0.0.4), the format Fabric's operations
 * endpoint serves at `/metrics` when `metrics.provider` is `prometheus`. Only what the console needs:
 * samples with their labels and values; HELP/TYPE lines and timestamps are skipped.
 */

export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Thrown for a line that is not in the format, naming the line, so a broken scrape is not read as zeros. */
export class PromParseError extends Error {}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;

function parseValue(text: string, lineNo: number): number {
  if (text === "+Inf" || text === "Inf") return Infinity;
  if (text === "-Inf") return -Infinity;
  if (text === "NaN") return NaN;
  const v = Number(text);
  if (text === "" || Number.isNaN(v)) throw new PromParseError(`line ${lineNo}: value '${text}' is not a number`);
  return v;
}

/** Reads `{a="x",b="y"}` from `line` at `start` (the `{`); returns the labels and the index after `}`. */
function parseLabels(line: string, start: number, lineNo: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = start + 1;
  const fail = (why: string): never => {
    throw new PromParseError(`line ${lineNo}: ${why}`);
  };
  for (;;) {
    while (line[i] === " ") i++;
    if (line[i] === "}") return { labels, end: i + 1 };
    const name = LABEL_NAME.exec(line.slice(i))?.[0] ?? fail("label name expected");
    i += name.length;
    while (line[i] === " ") i++;
    if (line[i] !== "=") fail(`'=' expected after label ${name}`);
    i++;
    while (line[i] === " ") i++;
    if (line[i] !== '"') fail(`quoted value expected for label ${name}`);
    i++;
    let value = "";
    for (;;) {
      const c = line[i];
      if (c === undefined) fail(`unterminated value of label ${name}`);
      if (c === '"') break;
      if (c === "\\") {
        const n = line[i + 1];
        value += n === "n" ? "\n" : n === "\\" ? "\\" : n === '"' ? '"' : `\\${n ?? ""}`;
        i += 2;
        continue;
      }
      value += c;
      i++;
    }
    labels[name] = value;
    i++;
    while (line[i] === " ") i++;
    if (line[i] === ",") i++;
    else if (line[i] !== "}") fail(`',' or '}' expected after label ${name}`);
  }
}

/** Parses a whole exposition; throws PromParseError naming the first bad line. */
export function parsePromText(text: string): PromSample[] {
  const out: PromSample[] = [];
  const lines = text.split("\n");
  for (let n = 0; n < lines.length; n++) {
    const line = (lines[n] ?? "").trim();
    if (line === "" || line.startsWith("#")) continue;
    const name = NAME.exec(line)?.[0];
    if (!name) throw new PromParseError(`line ${n + 1}: metric name expected`);
    let i = name.length;
    let labels: Record<string, string> = {};
    if (line[i] === "{") ({ labels, end: i } = parseLabels(line, i, n + 1));
    const rest = line.slice(i).trim().split(/\s+/);
    out.push({ name, labels, value: parseValue(rest[0] ?? "", n + 1) });
  }
  return out;
}

/** The samples of one metric, optionally only those whose labels include `match`. */
export function samplesOf(samples: PromSample[], name: string, match: Record<string, string> = {}): PromSample[] {
  return samples.filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v));
}

/** Metric value per value of one label (e.g. height per channel); the last sample wins. */
export function byLabel(samples: PromSample[], name: string, label: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of samplesOf(samples, name)) {
    const key = s.labels[label];
    if (key !== undefined) out.set(key, s.value);
  }
  return out;
}

/**
 * GETs a `/metrics` endpoint with a bounded timeout and parses it. Rejects on a non-200 answer,
 * a timeout or an unreadable body; the caller treats that node as unreachable.
 */
export async function scrapeMetrics(url: string, timeoutMs: number): Promise<PromSample[]> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status}`);
  return parsePromText(await res.text());
}
