import { z } from "zod";
import { dbIdQuery, lazySchema } from "../../http/schema-helpers.js";
import { LOG_LEVELS } from "./node-log-format.js";
import { NODE_LOG_LIMITS as L } from "./node-logs.js";

const lineNumber = (d: string) => dbIdQuery().describe(d);
const optionalLine = (d: string) =>
  z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional()
    .describe(`${d}; 0 or absent means no bound`);

export const logTailQuery = lazySchema(() =>
  z
    .object({
      lines: z.coerce.number().int().min(1).max(L.maxLines).describe(`Lines from the end (1-${L.maxLines})`),
    })
    .strict(),
);

export const logRangeQuery = lazySchema(() =>
  z
    .object({
      start: lineNumber("First line (1-based)"),
      end: lineNumber(`Last line, inclusive (at most ${L.maxLines} lines from start)`),
    })
    .strict()
    .superRefine((q, ctx) => {
      if (q.end < q.start) ctx.addIssue({ code: "custom", path: ["end"], message: "must be at least start" });
      else if (q.end - q.start + 1 > L.maxLines)
        ctx.addIssue({ code: "custom", path: ["end"], message: `at most ${L.maxLines} lines from start` });
    }),
);

export const logFilterQuery = lazySchema(() =>
  z
    .object({
      pattern: z
        .string()
        .max(L.maxPatternLength)
        .optional()
        .describe("RE2 regular expression (Go's regexp syntax) a line must contain a match of; empty matches all"),
      ignoreCase: z.enum(["true", "false"]).optional().describe("Match the pattern regardless of case"),
      start: optionalLine("First line searched"),
      end: optionalLine("Last line searched"),
    })
    .strict()
    .superRefine((q, ctx) => {
      if (q.start && q.end && q.end < q.start)
        ctx.addIssue({ code: "custom", path: ["end"], message: "must be at least start" });
    }),
);

const logEntry = lazySchema(() =>
  z.object({
    line_number: z.number().int().describe("Line number, from 1 at the start of the file"),
    content: z.string().describe(`The line, without its newline (at most ${L.maxLineBytes} bytes of it)`),
  }),
);

/** upstream's log.LogResponse: `success`, `data`, and `error` (only on failures). */
const envelope = <T extends z.ZodTypeAny>(data: T) =>
  z.object({
    success: z.boolean().describe("true"),
    data,
    error: z.string().optional().describe("Absent on success (failures answer with success false and the error)"),
  });

export const logEntriesResponse = lazySchema(() => envelope(z.array(logEntry).describe("Lines, in file order")));

export const logRangeResponse = lazySchema(() =>
  envelope(
    z.object({
      start_line: z.number().int().describe("First line asked for"),
      end_line: z.number().int().describe("Last line asked for"),
      entries: z.array(logEntry).describe("The lines of the range the file has"),
    }),
  ),
);

export const logStatsResponse = lazySchema(() =>
  envelope(
    z.object({
      size_bytes: z.number().int().describe("Size of the log file in bytes"),
      modified: z.string().describe("When the file last changed (RFC 3339)"),
      total_lines: z.number().int().describe("Lines in the file"),
      level_counts: z
        .partialRecord(z.enum(LOG_LEVELS), z.number().int())
        .describe(
          "Lines per level (Fabric's ERRO counts as ERROR, WARNING as WARN); lines naming none are not counted",
        ),
      first_timestamp: z.string().optional().describe("Timestamp the first timestamped line starts with, as written"),
      last_timestamp: z.string().optional().describe("Timestamp the last timestamped line starts with, as written"),
    }),
  ),
);
