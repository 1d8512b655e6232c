import { open, type FileHandle } from "node:fs/promises";
import { RuntimeError } from "./errors.js";

/**
 * Numbered reads of a log file. Lines are numbered from 1 at the start of the file, the way Go's
 * bufio.Scanner counts them (upstream's log API is built on it): a last line without a newline
 * still counts, and a trailing `\r` is not part of the line.
 *
 * Every read works on a snapshot: the file's size when it was opened. Lines a node writes after
 * that are not seen, so a tail, a range and the total of one request agree with each other.
 */

/** One line: its number, its text (at most `maxLineBytes` of it) and whether it was cut. */
export interface LogLine {
  n: number;
  text: string;
  cut: boolean;
}

/** An open log file and the snapshot every read of it stops at. */
export interface OpenLog {
  handle: FileHandle;
  size: number;
  mtime: Date;
}

const CHUNK = 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * Opens `path` read-only for `fn` and closes it after. Undefined when the file does not exist.
 * @throws RuntimeError LOG_FILE_TOO_LARGE when it is larger than `maxBytes` (every read starts at
 *   line 1, so this bounds the work of one request).
 */
export async function withLogFile<T>(
  path: string,
  maxBytes: number,
  fn: (log: OpenLog) => Promise<T>,
): Promise<T | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  try {
    const s = await handle.stat();
    if (!s.isFile()) return undefined;
    if (s.size > maxBytes) {
      throw new RuntimeError(
        "LOG_FILE_TOO_LARGE",
        `the log file is ${s.size} bytes, more than the ${maxBytes} bytes a numbered read scans`,
        { size: s.size, maxBytes },
      );
    }
    return await fn({ handle, size: s.size, mtime: s.mtime });
  } finally {
    await handle.close();
  }
}

/**
 * Walks the lines of `log` from byte `startOffset` (which begins line `startLine`) to the snapshot's
 * end. Only lines numbered `from`..`to` are decoded and handed to `visit`; the others are counted.
 * `visit` may return false to stop. Yields to the event loop between chunks.
 * @returns how many lines were walked (the file's total when it ran to the end) and whether it did
 */
export async function scanLines(
  log: OpenLog,
  opts: {
    from?: number;
    to?: number;
    maxLineBytes: number;
    startOffset?: number;
    startLine?: number;
    visit?: (line: LogLine) => boolean | void;
  },
): Promise<{ lines: number; complete: boolean }> {
  const from = opts.from ?? 1;
  const to = opts.to ?? Number.POSITIVE_INFINITY;
  const buf = Buffer.alloc(Math.min(CHUNK, Math.max(1, log.size)));
  let n = opts.startLine ?? 1;
  let parts: Buffer[] = [];
  let kept = 0;
  let cut = false;
  let open = false; // the current line has bytes (so an unterminated last line counts)
  const emit = (): boolean => {
    let text = Buffer.concat(parts).toString("utf8");
    if (!cut && text.endsWith("\r")) text = text.slice(0, -1);
    return opts.visit?.({ n, text, cut }) !== false;
  };
  for (let offset = opts.startOffset ?? 0; offset < log.size;) {
    const { bytesRead } = await log.handle.read(buf, 0, Math.min(buf.length, log.size - offset), offset);
    if (bytesRead === 0) break; // truncated (rotated) meanwhile: the snapshot ends here
    offset += bytesRead;
    const chunk = buf.subarray(0, bytesRead);
    for (let start = 0; start < bytesRead;) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? bytesRead : nl;
      if (end > start) {
        open = true;
        if (n >= from && n <= to) {
          const take = Math.min(end - start, opts.maxLineBytes - kept);
          if (take > 0) parts.push(Buffer.from(chunk.subarray(start, start + take)));
          kept += take;
          if (take < end - start) cut = true;
        }
      }
      if (nl === -1) break;
      if (n >= from && n <= to && !emit()) return { lines: n, complete: false };
      if (n >= to) return { lines: n, complete: false };
      n++;
      parts = [];
      kept = 0;
      cut = false;
      open = false;
      start = nl + 1;
    }
  }
  if (!open) return { lines: n - 1, complete: true };
  if (n >= from && n <= to) emit();
  return { lines: n, complete: true };
}

/**
 * The last `count` lines of `log`, newest kept first within `maxBytes` of text (each line costing at
 * most `maxLineBytes`): one pass counts lines and remembers where the last `count` begin, a second
 * decodes only those. `dropped` says how many of the asked-for lines the byte budget left out.
 */
export async function tailLines(
  log: OpenLog,
  count: number,
  limits: { maxLineBytes: number; maxBytes: number },
): Promise<{ lines: LogLine[]; total: number; dropped: number }> {
  // starts[i % count]: byte offset of line i + 1 (line numbers are 1-based).
  const starts = new Float64Array(count);
  const buf = Buffer.alloc(Math.min(CHUNK, Math.max(1, log.size)));
  let completed = 0;
  let lineStart = 0;
  for (let offset = 0; offset < log.size;) {
    const { bytesRead } = await log.handle.read(buf, 0, Math.min(buf.length, log.size - offset), offset);
    if (bytesRead === 0) break;
    const chunk = buf.subarray(0, bytesRead);
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, nl + 1)) {
      starts[completed % count] = lineStart;
      completed++;
      lineStart = offset + nl + 1;
    }
    offset += bytesRead;
  }
  let total = completed;
  if (lineStart < log.size) {
    starts[completed % count] = lineStart;
    total++;
  }
  const first = Math.max(1, total - count + 1);
  // Newest first: keep lines while their (capped) bytes fit the budget; always at least one.
  let keepFrom = total + 1;
  let spent = 0;
  for (let i = total; i >= first; i--) {
    const begin = starts[(i - 1) % count] as number;
    const end = i === total ? log.size : (starts[i % count] as number);
    const cost = Math.min(end - begin, limits.maxLineBytes);
    if (keepFrom <= total && spent + cost > limits.maxBytes) break;
    spent += cost;
    keepFrom = i;
  }
  const lines: LogLine[] = [];
  if (keepFrom <= total) {
    await scanLines(log, {
      startOffset: starts[(keepFrom - 1) % count] as number,
      startLine: keepFrom,
      maxLineBytes: limits.maxLineBytes,
      visit: (l) => void lines.push(l),
    });
  }
  return { lines, total, dropped: keepFrom - first };
}
