/**
 * What a node's log line says about itself: its level and its leading timestamp. Fabric writes
 * `2025-06-01 10:20:30.123 UTC 0001 INFO [peer] ...` (levels cut to four letters, wrapped in colour
 * codes on a terminal), Besu `2025-06-01 10:20:30.123+00:00 | main | INFO  | Besu | ...`, and
 * logfmt writers `level=info`. The expressions are anchored or bounded and run on the line's first
 * characters only, so a long or hostile line costs no more than a short one.
 */

/** The levels counted, in order of severity. */
export const LOG_LEVELS = ["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL", "PANIC"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How much of a line is looked at; levels and timestamps sit at the start. */
export const LOG_HEAD_CHARS = 256;

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;
const TOKEN = /(?:^|[\s|[\]:=])(TRACE|DEBUG|DEBU|INFO|WARNING|WARN|ERROR|ERRO|FATAL|FATA|PANIC|PANI)(?=$|[\s|\]:,])/;
const LOGFMT = /\blevel=["']?(trace|debug|info|warn|warning|error|fatal|panic)\b/i;
const TIMESTAMP =
  /^\[?(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2}|\s?[A-Z]{2,5}(?![A-Za-z]))?)/;

const ALIASES: Record<string, LogLevel> = {
  TRACE: "TRACE",
  DEBUG: "DEBUG",
  DEBU: "DEBUG",
  INFO: "INFO",
  WARNING: "WARN",
  WARN: "WARN",
  ERROR: "ERROR",
  ERRO: "ERROR",
  FATAL: "FATAL",
  FATA: "FATAL",
  PANIC: "PANIC",
  PANI: "PANIC",
};

/** The start of a line without terminal colour codes. */
export function logHead(line: string): string {
  return line.slice(0, LOG_HEAD_CHARS).replace(ANSI, "").trimStart();
}

/** The line's level (normalised: `ERRO` is ERROR, `WARNING` is WARN), or undefined when it names none. */
export function lineLevel(head: string): LogLevel | undefined {
  const m = TOKEN.exec(head) ?? LOGFMT.exec(head);
  return m ? ALIASES[(m[1] as string).toUpperCase()] : undefined;
}

/** The timestamp the line starts with, as written (`2025-06-01 10:20:30.123 UTC`), or undefined. */
export function lineTimestamp(head: string): string | undefined {
  return TIMESTAMP.exec(head)?.[1]?.trimEnd();
}
