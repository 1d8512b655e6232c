/**
 * The contract test's entries for upstream's node log reads (http/contract.test.ts), kept here so
 * that file does not grow further.
 */
type Json = Record<string, unknown>;

/** upstream's log.LogResponse with `data` as its log service fills it (pkg/log: LogEntry, LogRange, stats map). */
const LOG_ENTRY = { type: "object", properties: { line_number: { type: "integer" }, content: { type: "string" } } };
const logResponse = (data: Json): Json => ({
  type: "object",
  properties: { success: { type: "boolean" }, error: { type: "string" }, data },
});
const LOG_DATA_REASON =
  "the reference types log.LogResponse.data as free-form ({}); upstream's log handler always puts this shape in it";

/** Replacements of the reference's free-form `data` by the shape upstream's handler always answers. */
export const LOG_REFERENCE_CORRECTIONS: Record<string, { reason: string; schema: Json }> = {
  "GET /nodes/{id}/logs/tail": {
    reason: `${LOG_DATA_REASON}: an array of LogEntry`,
    schema: logResponse({ type: "array", items: LOG_ENTRY }),
  },
  "GET /nodes/{id}/logs/filter": {
    reason: `${LOG_DATA_REASON}: an array of LogEntry`,
    schema: logResponse({ type: "array", items: LOG_ENTRY }),
  },
  "GET /nodes/{id}/logs/range": {
    reason: `${LOG_DATA_REASON}: a LogRange`,
    schema: logResponse({
      type: "object",
      properties: {
        start_line: { type: "integer" },
        end_line: { type: "integer" },
        entries: { type: "array", items: LOG_ENTRY },
      },
    }),
  },
  "GET /nodes/{id}/logs/stats": {
    reason: `${LOG_DATA_REASON}: a map of size_bytes, modified and total_lines`,
    schema: logResponse({
      type: "object",
      properties: {
        size_bytes: { type: "integer" },
        modified: { type: "string" },
        total_lines: { type: "integer" },
      },
    }),
  },
};

/** Product additions to upstream's log statistics (docs/nodes.md, "Logs"). */
export const LOG_STATS_ALLOWED: Record<string, string> = Object.fromEntries(
  ["level_counts", "first_timestamp", "last_timestamp"].map((f) => [
    `GET /nodes/{id}/logs/stats response:data.${f}`,
    "product addition: lines per level and the first and last timestamps, read in the same pass as total_lines",
  ]),
);
