import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RuntimeError } from "./errors.js";
import { scanLines, tailLines, withLogFile, type LogLine, type OpenLog } from "./log-lines.js";

const dir = mkdtempSync(join(tmpdir(), "cl-log-lines-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string | Buffer): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const MB = 1024 * 1024;
const read = <T>(p: string, fn: (log: OpenLog) => Promise<T>) => withLogFile(p, 64 * MB, fn);
const all = (p: string, maxLineBytes = 1000) =>
  read(p, async (log) => {
    const got: LogLine[] = [];
    const r = await scanLines(log, { maxLineBytes, visit: (l) => void got.push(l) });
    return { ...r, got };
  });

describe("numbered log reads", () => {
  it("numbers lines as Go's bufio.Scanner does: an unterminated last line counts, CR LF is one newline", async () => {
    expect((await all(file("a.log", "one\ntwo\nthree")))!.got.map((l) => [l.n, l.text])).toEqual([
      [1, "one"],
      [2, "two"],
      [3, "three"],
    ]);
    expect((await all(file("b.log", "one\r\ntwo\n")))!.got.map((l) => l.text)).toEqual(["one", "two"]);
    expect(await all(file("c.log", ""))).toMatchObject({ lines: 0, complete: true, got: [] });
    expect((await all(file("d.log", "\n\n")))!.got.map((l) => [l.n, l.text])).toEqual([
      [1, ""],
      [2, ""],
    ]);
    expect(await read(join(dir, "missing.log"), async () => 1)).toBeUndefined();
  });

  it("decodes only the asked range, stops when told and cuts long lines", async () => {
    const p = file("r.log", Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
    const got: number[] = [];
    const r = await read(p, (log) =>
      scanLines(log, { from: 10, to: 12, maxLineBytes: 100, visit: (l) => void got.push(l.n) }),
    );
    expect(got).toEqual([10, 11, 12]);
    expect(r).toEqual({ lines: 12, complete: false });
    const stopped: number[] = [];
    await read(p, (log) =>
      scanLines(log, { maxLineBytes: 100, visit: (l) => (stopped.push(l.n), stopped.length < 2) }),
    );
    expect(stopped).toEqual([1, 2]);
    const long = await all(file("long.log", `${"x".repeat(50)}\nshort\n`), 8);
    expect(long!.got).toEqual([
      { n: 1, text: "xxxxxxxx", cut: true },
      { n: 2, text: "short", cut: false },
    ]);
  });

  it("agrees with split() across 1 MiB read chunks, for scans and tails", async () => {
    const lines = Array.from({ length: 40_000 }, (_, i) => `${i} ${"y".repeat(i % 173)}`);
    const p = file("big.log", lines.join("\n"));
    const scanned = await all(p, 1000);
    expect(scanned!.lines).toBe(lines.length);
    expect(scanned!.got.map((l) => l.text)).toEqual(lines);
    const tail = await read(p, (log) => tailLines(log, 5, { maxLineBytes: 1000, maxBytes: MB }));
    expect(tail).toEqual({
      total: lines.length,
      dropped: 0,
      lines: lines.slice(-5).map((text, i) => ({ n: lines.length - 4 + i, text, cut: false })),
    });
  });

  it("tails fewer lines than the file has, and keeps the newest within the byte budget", async () => {
    const p = file("t.log", "a\nb\nc\n");
    expect(await read(p, (log) => tailLines(log, 10, { maxLineBytes: 100, maxBytes: 100 }))).toMatchObject({
      total: 3,
      dropped: 0,
      lines: [{ n: 1 }, { n: 2 }, { n: 3 }],
    });
    const q = file("budget.log", ["1".repeat(40), "2".repeat(40), "3".repeat(40)].join("\n") + "\n");
    const cut = await read(q, (log) => tailLines(log, 3, { maxLineBytes: 100, maxBytes: 100 }));
    expect(cut!.lines.map((l) => l.n)).toEqual([2, 3]);
    expect(cut!.dropped).toBe(1);
    // One line always comes back, cut to maxLineBytes.
    const one = await read(q, (log) => tailLines(log, 1, { maxLineBytes: 10, maxBytes: 1 }));
    expect(one!.lines).toEqual([{ n: 3, text: "3".repeat(10), cut: true }]);
    expect(await read(file("empty.log", ""), (log) => tailLines(log, 5, { maxLineBytes: 10, maxBytes: 10 }))).toEqual({
      lines: [],
      total: 0,
      dropped: 0,
    });
  });

  it("reads a snapshot: lines appended after the open are not seen", async () => {
    const p = file("s.log", "first\n");
    const r = await read(p, async (log) => {
      appendFileSync(p, "second\n");
      return scanLines(log, { maxLineBytes: 100 });
    });
    expect(r).toEqual({ lines: 1, complete: true });
  });

  it("refuses a file larger than the scan limit with a named runtime error", async () => {
    const p = file("huge.log", Buffer.alloc(2048, 0x61));
    const err = await withLogFile(p, 1024, async () => 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RuntimeError);
    expect(err).toMatchObject({ code: "LOG_FILE_TOO_LARGE", details: { size: 2048, maxBytes: 1024 } });
  });
});
