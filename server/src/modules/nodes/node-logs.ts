import type { RE2JS } from "re2js";
import { ConflictError, InputError, NotFoundError } from "../../http/errors.js";
import { RuntimeError, scanLines, tailLines, withLogFile, type LogLine, type OpenLog } from "../../runtime/index.js";
import { LOG_HEAD_CHARS, lineLevel, lineTimestamp, logHead, type LogLevel } from "./node-log-format.js";

const MiB = 1024 * 1024;

/**
 * Bounds of one log read. The supervisor rotates a node's log at 10 MiB, so a live file is far
 * below `maxFileBytes`; every read starts counting at line 1, and this caps that work.
 */
export const NODE_LOG_LIMITS = {
  /** Lines one tail or range may ask for, and matches one filter returns (upstream's tail maximum). */
  maxLines: 10_000,
  /** Bytes of one line returned; the rest is cut. */
  maxLineBytes: 16 * 1024,
  /** Bytes of line text in one answer; a tail keeps the newest lines, a range or filter the first. */
  maxResponseBytes: 8 * MiB,
  /** Larger files are not read (409). */
  maxFileBytes: 64 * MiB,
  /** Characters of a filter pattern. */
  maxPatternLength: 512,
  /** RE2 instructions of a compiled pattern: matching costs at most this per byte of text. */
  maxPatternProgram: 4000,
  /** Bytes of one line a pattern is matched against. */
  maxMatchBytes: MiB,
  /** Wall time one filter may spend matching before it is refused. */
  filterTimeMs: 15_000,
} as const;

/** One line as upstream's log API answers it. */
export interface LogEntry {
  line_number: number;
  content: string;
}

/** A read's data, and whether a limit cut lines or left some out. */
export interface LogRead<T> {
  data: T;
  truncated: boolean;
}

export interface LogStats {
  size_bytes: number;
  modified: string;
  total_lines: number;
  level_counts: Partial<Record<LogLevel, number>>;
  first_timestamp?: string;
  last_timestamp?: string;
}

const entry = (l: LogLine): LogEntry => ({ line_number: l.n, content: l.text });

/** RE2 for JavaScript (~55 ms to load): loaded by the first filter with a pattern, not at start-up. */
const re2 = () => import("re2js");

/**
 * Numbered reads of a node's own log file (upstream's /nodes/{id}/logs/tail, range, filter and
 * stats). The file is the one the node's deployment names; no request names a path.
 */
export function createNodeLogReader(deps: { logFile(id: number): Promise<string> }) {
  const L = NODE_LOG_LIMITS;

  async function read<T>(id: number, fn: (log: OpenLog) => Promise<T>): Promise<T> {
    const path = await deps.logFile(id);
    let out: T | undefined;
    try {
      out = await withLogFile(path, L.maxFileBytes, fn);
    } catch (err) {
      if (err instanceof RuntimeError && err.code === "LOG_FILE_TOO_LARGE") {
        throw new ConflictError(`node ${id}: ${err.message}; it is rotated at 10 MiB`, err.details);
      }
      throw err;
    }
    if (out === undefined) throw new NotFoundError(`node ${id}: its log file does not exist (it has never run)`);
    return out;
  }

  /** Collects lines until the byte budget is spent; the first line always fits. */
  function collector() {
    const entries: LogEntry[] = [];
    let spent = 0;
    let truncated = false;
    return {
      entries,
      get truncated() {
        return truncated;
      },
      /** false when the budget is spent (the line is not taken). */
      take(l: LogLine): boolean {
        const cost = Buffer.byteLength(l.text);
        if (entries.length > 0 && spent + cost > L.maxResponseBytes) {
          truncated = true;
          return false;
        }
        spent += cost;
        if (l.cut) truncated = true;
        entries.push(entry(l));
        return true;
      },
      /** Marks lines left out for another reason (a count limit). */
      cut(): void {
        truncated = true;
      },
    };
  }

  async function compile(pattern: string, ignoreCase: boolean): Promise<RE2JS> {
    const { RE2JS, RE2JSException } = await re2();
    let re: RE2JS;
    try {
      re = RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
    } catch (err) {
      if (err instanceof RE2JSException) throw new InputError(`pattern: not a valid RE2 expression: ${err.message}`);
      throw err;
    }
    if (re.programSize() > L.maxPatternProgram) {
      throw new InputError(
        `pattern: too complex (${re.programSize()} RE2 instructions, at most ${L.maxPatternProgram}); use fewer or smaller repetitions`,
      );
    }
    return re;
  }

  return {
    /** The last `lines` lines, numbered from the start of the file. */
    async tail(id: number, lines: number): Promise<LogRead<LogEntry[]>> {
      return read(id, async (log) => {
        const t = await tailLines(log, lines, { maxLineBytes: L.maxLineBytes, maxBytes: L.maxResponseBytes });
        return { data: t.lines.map(entry), truncated: t.dropped > 0 || t.lines.some((l) => l.cut) };
      });
    },

    /** Lines `start`..`end` (1-based, inclusive; the caller bounds the span). */
    async range(
      id: number,
      start: number,
      end: number,
    ): Promise<LogRead<{ start_line: number; end_line: number; entries: LogEntry[] }>> {
      return read(id, async (log) => {
        const c = collector();
        await scanLines(log, { from: start, to: end, maxLineBytes: L.maxLineBytes, visit: (l) => c.take(l) });
        return { data: { start_line: start, end_line: end, entries: c.entries }, truncated: c.truncated };
      });
    },

    /**
     * Lines between `start` and `end` (each optional) that match `pattern`, an RE2 expression as
     * upstream's Go regexp reads it (linear time, no backreferences), against each line's first
     * `maxMatchBytes`; an empty pattern matches all.
     * At most `maxLines` matches, the first ones: ask again from the last line_number + 1 for more.
     */
    async filter(
      id: number,
      q: { pattern?: string | undefined; ignoreCase?: boolean; start?: number | undefined; end?: number | undefined },
    ): Promise<LogRead<LogEntry[]>> {
      const re = q.pattern ? await compile(q.pattern, q.ignoreCase ?? false) : undefined;
      return read(id, async (log) => {
        const c = collector();
        const deadline = Date.now() + L.filterTimeMs;
        let seen = 0;
        await scanLines(log, {
          from: q.start || 1,
          ...(q.end ? { to: q.end } : {}),
          maxLineBytes: re ? L.maxMatchBytes : L.maxLineBytes,
          visit: (l) => {
            if (++seen % 512 === 0 && Date.now() > deadline) {
              throw new InputError(
                `pattern: matching took more than ${L.filterTimeMs / 1000} s (stopped at line ${l.n}); search fewer lines with start and end`,
              );
            }
            if (re && !re.test(l.text)) return true;
            if (c.entries.length >= L.maxLines) {
              c.cut();
              return false;
            }
            // The whole line was matched; the answer carries at most maxLineBytes of it.
            const long = Buffer.byteLength(l.text) > L.maxLineBytes;
            const text = long ? Buffer.from(l.text).subarray(0, L.maxLineBytes).toString("utf8") : l.text;
            return c.take({ n: l.n, text, cut: l.cut || long });
          },
        });
        return { data: c.entries, truncated: c.truncated };
      });
    },

    /** Size, last change and line count (upstream's fields), plus lines per level and the first and last timestamps. */
    async stats(id: number): Promise<LogStats> {
      return read(id, async (log) => {
        const levels: Partial<Record<LogLevel, number>> = {};
        let first: string | undefined;
        let last: string | undefined;
        const { lines } = await scanLines(log, {
          maxLineBytes: LOG_HEAD_CHARS * 4,
          visit: (l) => {
            const head = logHead(l.text);
            const level = lineLevel(head);
            if (level) levels[level] = (levels[level] ?? 0) + 1;
            const ts = lineTimestamp(head);
            if (ts) {
              first ??= ts;
              last = ts;
            }
          },
        });
        return {
          size_bytes: log.size,
          modified: log.mtime.toISOString(),
          total_lines: lines,
          level_counts: levels,
          ...(first ? { first_timestamp: first } : {}),
          ...(last ? { last_timestamp: last } : {}),
        };
      });
    },
  };
}

export type NodeLogReader = ReturnType<typeof createNodeLogReader>;
