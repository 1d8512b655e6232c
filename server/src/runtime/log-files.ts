import { closeSync, openSync } from "node:fs";
import { copyFile, mkdir, open, rename, stat, truncate } from "node:fs/promises";
import { dirname } from "node:path";

/** Size-based rotation: the live file plus `keep` older copies (`.1` newest … `.keep` oldest). */
export interface LogRotation {
  maxBytes: number;
  keep: number;
}

export const DEFAULT_LOG_ROTATION: LogRotation = { maxBytes: 10 * 1024 * 1024, keep: 3 };

/**
 * Opens a log file for a child's stdout/stderr with O_APPEND. The child writes straight to this
 * fd, so it keeps logging when the console is gone; and because of O_APPEND every write lands
 * at the current end, so truncating the file (copytruncate) never leaves a hole.
 * The caller closes its copy of the fd after spawn.
 */
export async function openLogFd(path: string): Promise<number> {
  await mkdir(dirname(path), { recursive: true });
  return openSync(path, "a", 0o640);
}

export function closeFd(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

/**
 * Rotates `path` when it is larger than `maxBytes`, by copytruncate: shift `.1…` up, copy the live
 * file to `.1`, then truncate it in place. The writer (a detached node) keeps its fd. Lines written
 * between the copy and the truncate are lost; that window is milliseconds.
 * @returns true when it rotated.
 */
export async function rotateIfNeeded(path: string, rotation: LogRotation = DEFAULT_LOG_ROTATION): Promise<boolean> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch {
    return false;
  }
  if (size <= rotation.maxBytes || rotation.keep < 1) return false;
  for (let i = rotation.keep - 1; i >= 1; i--) {
    await rename(`${path}.${i}`, `${path}.${i + 1}`).catch(() => undefined);
  }
  await copyFile(path, `${path}.1.tmp`);
  await rename(`${path}.1.tmp`, `${path}.1`);
  await truncate(path, 0);
  return true;
}

/** The last `lines` lines of a file (reads at most `maxBytes` from its end). Empty when missing. */
export async function readLastLines(path: string, lines: number, maxBytes = 64 * 1024): Promise<string[]> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch {
    return [];
  }
  try {
    const { size } = await handle.stat();
    // One byte more than the window: if it is a newline, the window starts on a whole line.
    const start = Math.max(0, size - maxBytes - 1);
    const buf = Buffer.alloc(size - start);
    await handle.read(buf, 0, buf.length, start);
    const all = buf.toString("utf8").split("\n");
    if (all.at(-1) === "") all.pop();
    // Unless we read from the start, the first piece is a cut line (or empty).
    if (start > 0) all.shift();
    return all.slice(-lines);
  } finally {
    await handle.close();
  }
}

export interface LogFollower {
  stop(): void;
}

/**
 * Tail plus follow: hands the last `tailLines` lines, then every complete new line as the node
 * writes it, by polling the file. Survives copytruncate rotation (the size drops: read again from 0)
 * and a replaced file (the inode changes). A partial last line waits for its newline.
 */
export async function followLog(
  path: string,
  opts: { tailLines?: number; intervalMs?: number; maxChunkBytes?: number; onLines: (lines: string[]) => void },
): Promise<LogFollower> {
  const initial = await readLastLines(path, opts.tailLines ?? 100);
  if (initial.length > 0) opts.onLines(initial);
  let offset = 0;
  let inode = 0;
  try {
    const s = await stat(path);
    offset = s.size;
    inode = s.ino;
  } catch {
    // not there yet: follow from its start once it appears
  }
  let partial = "";
  let busy = false;
  let stopped = false;
  const maxChunk = opts.maxChunkBytes ?? 1024 * 1024;

  const tick = async (): Promise<void> => {
    let s;
    try {
      s = await stat(path);
    } catch {
      return;
    }
    if (s.ino !== inode || s.size < offset) {
      inode = s.ino;
      offset = 0;
      partial = "";
    }
    if (s.size === offset) return;
    const length = Math.min(s.size - offset, maxChunk);
    const handle = await open(path, "r");
    try {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buf, 0, length, offset);
      offset += bytesRead;
      const text = partial + buf.subarray(0, bytesRead).toString("utf8");
      const lines = text.split("\n");
      partial = lines.pop() ?? "";
      if (lines.length > 0 && !stopped) opts.onLines(lines);
    } finally {
      await handle.close();
    }
  };

  const timer = setInterval(() => {
    if (busy || stopped) return;
    busy = true;
    tick()
      .catch(() => undefined)
      .finally(() => (busy = false));
  }, opts.intervalMs ?? 250);
  timer.unref();
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
