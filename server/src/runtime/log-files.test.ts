import { appendFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { waitFor } from "../test-support/wait.js";
import { followLog, readLastLines, rotateIfNeeded } from "./log-files.js";

const dir = mkdtempSync(join(tmpdir(), "cl-logs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("log files", () => {
  it("reads the last lines, also of a file larger than the read window", async () => {
    const p = join(dir, "a.log");
    writeFileSync(p, Array.from({ length: 5000 }, (_, i) => `line ${i}`).join("\n") + "\n");
    expect(await readLastLines(p, 3)).toEqual(["line 4997", "line 4998", "line 4999"]);
    expect(await readLastLines(p, 3, 30)).toEqual(["line 4997", "line 4998", "line 4999"]);
    expect(await readLastLines(join(dir, "missing.log"), 3)).toEqual([]);
  });

  it("rotates only past the size limit and keeps `keep` copies", async () => {
    const p = join(dir, "r.log");
    writeFileSync(p, "small\n");
    expect(await rotateIfNeeded(p, { maxBytes: 100, keep: 2 })).toBe(false);
    for (const tag of ["one", "two", "three"]) {
      writeFileSync(p, `${tag}\n`.repeat(50));
      expect(await rotateIfNeeded(p, { maxBytes: 100, keep: 2 })).toBe(true);
    }
    expect(await readLastLines(p, 1)).toEqual([]);
    expect(await readLastLines(`${p}.1`, 1)).toEqual(["three"]);
    expect(await readLastLines(`${p}.2`, 1)).toEqual(["two"]);
    expect(await readLastLines(`${p}.3`, 1)).toEqual([]);
  });

  it("follows a log: tail, new lines, partial lines, and through copytruncate", async () => {
    const p = join(dir, "f.log");
    writeFileSync(p, "old 1\nold 2\nold 3\n");
    const got: string[] = [];
    const follower = await followLog(p, { tailLines: 2, intervalMs: 20, onLines: (l) => got.push(...l) });
    expect(got).toEqual(["old 2", "old 3"]);
    // Each step waits for what the follower must have read, not a fixed time: at load 11 (CI) a 20 ms poll
    // ran later than 100 ms after the write.
    const read = (lines: string[]) =>
      waitFor(
        `the follower to read ${JSON.stringify(lines)}`,
        async () => (got.join("|") === lines.join("|") ? true : undefined),
        10_000,
        10,
      );
    appendFileSync(p, "new 1\nnew ");
    await read(["old 2", "old 3", "new 1"]);
    // The partial line stays unread until its end arrives.
    await sleep(60);
    expect(got).toEqual(["old 2", "old 3", "new 1"]);
    appendFileSync(p, "2\n");
    await read(["old 2", "old 3", "new 1", "new 2"]);
    truncateSync(p, 0);
    await sleep(60);
    appendFileSync(p, "after rotate\n");
    await read(["old 2", "old 3", "new 1", "new 2", "after rotate"]);
    follower.stop();
    appendFileSync(p, "after stop\n");
    await sleep(100);
    expect(got).toEqual(["old 2", "old 3", "new 1", "new 2", "after rotate"]);
  });
});
