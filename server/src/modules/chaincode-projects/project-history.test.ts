import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AppError } from "../../http/errors.js";
import { projectHistory } from "./project-history.js";

const base = mkdtempSync(join(tmpdir(), "cl-project-history-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("project history (a git repository in the project folder)", () => {
  it("records snapshots with their changes, reads files and diffs, and restores", async () => {
    const dir = mkdtempSync(join(base, "p-"));
    mkdirSync(join(dir, "src"));
    mkdirSync(join(dir, "node_modules", "dep"), { recursive: true });
    writeFileSync(join(dir, ".gitignore"), "node_modules/\ndist/\n");
    writeFileSync(join(dir, "src", "a.ts"), "export const a = 1;\n");
    writeFileSync(join(dir, "src", "b.ts"), "export const b = 1;\n");
    writeFileSync(join(dir, "node_modules", "dep", "index.js"), "ignored");
    const h = projectHistory(dir);
    const first = await h.snapshot("Create", "");
    writeFileSync(join(dir, "src", "a.ts"), "export const a = 2;\n");
    rmSync(join(dir, "src", "b.ts"));
    writeFileSync(join(dir, "src", "c.ts"), "export const c = 3;\n");
    const second = await h.snapshot("Start: sequence 1", "alice");

    const list = await h.list(1, 20);
    expect(list.map((c) => c.message)).toEqual(["Start: sequence 1", "Create"]);
    expect(list[0]).toMatchObject({
      hash: second,
      parent: first,
      author: "alice",
      added: ["src/c.ts"],
      modified: ["src/a.ts"],
      removed: ["src/b.ts"],
    });
    expect(list[1]).toMatchObject({ hash: first, parent: "", added: [".gitignore", "src/a.ts", "src/b.ts"] });
    expect((await h.list(2, 1)).map((c) => c.hash)).toEqual([first]);
    expect((await h.detail(second.slice(0, 7))).hash).toBe(second);

    expect(await h.fileAt(first, "src/a.ts")).toBe("export const a = 1;\n");
    const diff = await h.diff("src/a.ts", first, second);
    expect(diff).toContain("-export const a = 1;");
    expect(diff).toContain("+export const a = 2;");
    expect(await h.diff("src/b.ts", first, second)).toContain("-export const b = 1;");

    // It is a real git repository: git itself reads it.
    const log = execFileSync("git", ["-C", dir, "log", "--format=%s"], { encoding: "utf8" });
    expect(log.trim().split("\n")).toEqual(["Start: sequence 1", "Create"]);

    const restored = await h.restore(first, "bob");
    expect(readFileSync(join(dir, "src", "a.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(readFileSync(join(dir, "src", "b.ts"), "utf8")).toBe("export const b = 1;\n");
    expect(existsSync(join(dir, "src", "c.ts"))).toBe(false);
    expect(existsSync(join(dir, "node_modules", "dep", "index.js"))).toBe(true);
    expect(await h.detail(restored)).toMatchObject({
      message: `Restore ${first.slice(0, 7)}`,
      author: "bob",
      removed: ["src/c.ts"],
    });
  });

  it("commits what was staged when a start began, not an edit saved while it ran", async () => {
    const dir = mkdtempSync(join(base, "p-"));
    writeFileSync(join(dir, "a.txt"), "v1");
    const h = projectHistory(dir);
    await h.snapshot("Create", "");
    writeFileSync(join(dir, "a.txt"), "v2");
    await h.stage();
    writeFileSync(join(dir, "a.txt"), "v3 (saved during the start)");
    const started = await h.commit("Start: sequence 1", "");
    expect(await h.fileAt(started, "a.txt")).toBe("v2");
    const next = await h.snapshot("Start: sequence 2", "");
    expect(await h.fileAt(next, "a.txt")).toBe("v3 (saved during the start)");
  });

  it("answers a malformed hash with a 400 and an unknown one with a 404", async () => {
    const dir = mkdtempSync(join(base, "p-"));
    writeFileSync(join(dir, "a.txt"), "a");
    const h = projectHistory(dir);
    await h.snapshot("one", "");
    const status = async (p: Promise<unknown>) => ((await p.catch((e: unknown) => e)) as AppError).status;
    expect(await status(h.detail("not-a-hash"))).toBe(400);
    expect(await status(h.detail("0123456789abcdef0123456789abcdef01234567"))).toBe(404);
    expect(await status(h.fileAt((await h.list(1, 1))[0]!.hash, "missing.txt"))).toBe(404);
  });

  it("records around a FIFO (a shell can make one; reading it would block), keeps links as links, refuses a linked .git", async () => {
    const dir = mkdtempSync(join(base, "p-"));
    writeFileSync(join(dir, "a.txt"), "a");
    writeFileSync(join(base, "outside.txt"), "outside");
    execFileSync("mkfifo", [join(dir, "pipe")]);
    symlinkSync(join(base, "outside.txt"), join(dir, "link"));
    const h = projectHistory(dir);
    const c = await h.snapshot("Create", "");
    expect((await h.detail(c)).added).toEqual(["a.txt", "link"]);
    expect(await h.fileAt(c, "link")).toBe(join(base, "outside.txt"));
    const other = mkdtempSync(join(base, "p-"));
    symlinkSync(join(dir, ".git"), join(other, ".git"));
    await expect(projectHistory(other).snapshot("x", "")).rejects.toThrow(/\.git is not a folder/);
  });
});
