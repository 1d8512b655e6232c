/** Lines received so far plus the unfinished tail of the last chunk. */
export interface LogBuffer {
  lines: string[];
  partial: string;
  /** Lines dropped from the front to stay under the cap. */
  dropped: number;
}

export const EMPTY_LOG: LogBuffer = { lines: [], partial: "", dropped: 0 };

/** Keep at most this many lines in the browser. */
export const LOG_LINE_CAP = 5000;

/**
 * Appends a decoded chunk: splits on newlines (\n or \r\n), keeps an unfinished last line as
 * `partial` until its newline arrives, and drops the oldest lines past `cap`.
 */
export function appendChunk(buf: LogBuffer, chunk: string, cap = LOG_LINE_CAP): LogBuffer {
  if (!chunk) return buf;
  const parts = (buf.partial + chunk).split(/\r?\n/);
  const partial = parts.pop() ?? "";
  if (parts.length === 0) return { ...buf, partial };
  const lines = buf.lines.concat(parts);
  const over = Math.max(0, lines.length - cap);
  return { lines: over ? lines.slice(over) : lines, partial, dropped: buf.dropped + over };
}

/** Everything to show, including an unfinished last line. */
export function visibleLines(buf: LogBuffer): string[] {
  return buf.partial ? [...buf.lines, buf.partial] : buf.lines;
}

/** A log line's level for colouring, from Fabric's and Besu's formats. */
export function lineLevel(line: string): "error" | "warn" | "debug" | "info" {
  if (/\b(ERRO|ERROR|FATAL|PANI|CRIT)\b/.test(line)) return "error";
  if (/\b(WARN|WARNING)\b/.test(line)) return "warn";
  if (/\b(DEBU|DEBUG|TRACE)\b/.test(line)) return "debug";
  return "info";
}
