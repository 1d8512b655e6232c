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
    const length = Math.min(size, maxBytes);
    const buf = Buffer.alloc(length);
    await handle.read(buf, 0, length, size - length);
    const all = buf.toString("utf8").split("\n");
    if (all.at(-1) === "") all.pop();
    // The first line may be cut when we did not read from the start.
    if (length < size) all.shift();
    return all.slice(-lines);
  } finally {
    await handle.close();
  }
}
