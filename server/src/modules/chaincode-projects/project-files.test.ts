import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "../../http/errors.js";
import { MAX_FILE_BYTES, projectFiles } from "./project-files.js";

const base = mkdtempSync(join(tmpdir(), "cl-project-files-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A project folder with a sibling holding a secret, and symlinks that point inside and out. */
function fixture() {
  const dir = mkdtempSync(join(base, "p-"));
  const root = join(dir, "project");
  const outside = join(dir, "outside");
  mkdirSync(join(root, "src"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.txt"), "top secret");
  writeFileSync(join(root, "src", "index.ts"), "export const a = 1;\n");
  symlinkSync(outside, join(root, "escape-dir"));
  symlinkSync(join(outside, "secret.txt"), join(root, "escape-file"));
  symlinkSync(join(root, "src", "index.ts"), join(root, "inner-link"));
  symlinkSync(join(dir, "missing"), join(root, "dangling"));
  return { root, outside, files: projectFiles(root) };
}

async function refused(p: Promise<unknown>, status: number, text: RegExp): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).status).toBe(status);
  expect((err as AppError).message).toMatch(text);
  return err as AppError;
}

describe("project files stay inside the project", () => {
  it("refuses ../ in any form, naming the path", async () => {
    const { files } = fixture();
    for (const p of ["../outside/secret.txt", "src/../../outside/secret.txt", "..", "src/..\\..\\x", "./../x"]) {
      const err = await refused(files.read(p), 400, /leaves the project/);
      expect(err.message).toContain(`'${p}'`);
      await refused(files.write(p, "x"), 400, /leaves the project/);
      await refused(files.deleteFile(p), 400, /leaves the project/);
    }
    await refused(files.createDir("../newdir"), 400, /dir: '..\/newdir' leaves the project/);
    await refused(files.deleteDir("src/../.."), 400, /leaves the project/);
  });

  it("refuses absolute paths", async () => {
    const { files, outside } = fixture();
    await refused(files.read(join(outside, "secret.txt")), 400, /is absolute/);
    await refused(files.write("/etc/passwd", "x"), 400, /path: '\/etc\/passwd' is absolute/);
    await refused(files.read("C:\\Windows\\win.ini"), 400, /is absolute/);
    await refused(files.deleteDir("/tmp"), 400, /is absolute/);
  });

  it("refuses symlinks that escape, for reading, writing and through a linked folder", async () => {
    const { files, outside } = fixture();
    await refused(files.read("escape-file"), 400, /path: 'escape-file' resolves outside the project/);
    await refused(files.read("escape-dir/secret.txt"), 400, /resolves outside the project/);
    await refused(files.write("escape-dir/new.txt", "x"), 400, /resolves outside the project/);
    await refused(files.write("escape-file", "overwritten"), 400, /resolves outside the project/);
    await refused(files.createDir("escape-dir/sub"), 400, /resolves outside the project/);
    await refused(files.read("dangling"), 400, /symlink to nothing/);
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("top secret");
    expect(readdirSync(outside)).toEqual(["secret.txt"]);
    // A link that stays inside may be read, but the editor does not write through it.
    expect(await files.read("inner-link")).toBe("export const a = 1;\n");
    await refused(files.write("inner-link", "x"), 400, /is a symlink/);
    // Deleting a link removes the link only.
    await files.deleteFile("escape-file");
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("top secret");
  });

  it("refuses oversize files and NUL bytes", async () => {
    const { files, root } = fixture();
    await refused(files.write("big.txt", "x".repeat(MAX_FILE_BYTES + 1)), 400, /content: 'big.txt' is larger than/);
    writeFileSync(join(root, "huge.bin"), Buffer.alloc(MAX_FILE_BYTES + 1));
    await refused(files.read("huge.bin"), 400, /path: 'huge.bin' is larger than/);
    await refused(files.read("src/\0index.ts"), 400, /NUL/);
  });

  it("writes atomically: new folders, replaced content, no temporary files left", async () => {
    const { files, root } = fixture();
    await files.write("src/lib/asset.ts", "export const v = 1;\n");
    await files.write("src/lib/asset.ts", "export const v = 2;\n");
    expect(await files.read("src/lib/asset.ts")).toBe("export const v = 2;\n");
    expect(readdirSync(join(root, "src", "lib"))).toEqual(["asset.ts"]);
    // Many writers at once: the file ends as one of them, whole.
    const contents = Array.from({ length: 20 }, (_, i) => `${i}`.repeat(10_000));
    await Promise.all(contents.map((c) => files.write("src/race.txt", c)));
    expect(contents).toContain(await files.read("src/race.txt"));
    expect(readdirSync(join(root, "src")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("lists the tree without installed packages or build output, folders first", async () => {
    const { files, root } = fixture();
    mkdirSync(join(root, "node_modules", "x"), { recursive: true });
    mkdirSync(join(root, "dist"));
    writeFileSync(join(root, "package.json"), "{}");
    const tree = await files.entries("demo");
    expect(tree).toMatchObject({ name: "demo", path: "", isDir: true });
    expect(tree.children?.map((c) => c.path)).toEqual(["src", "package.json"]);
    expect(tree.children?.[0]?.children?.map((c) => c.path)).toEqual(["src/index.ts"]);
  });

  it("creates and deletes folders and files, with 404 and 409 for what is or isn't there", async () => {
    const { files } = fixture();
    await files.createDir("test/unit");
    await refused(files.createDir("test/unit"), 409, /dir: 'test\/unit' already exists/);
    await files.write("test/unit/a.test.ts", "ok");
    await refused(files.deleteFile("test/unit"), 400, /is a folder/);
    await files.deleteDir("test");
    await refused(files.deleteDir("test"), 404, /dir: 'test' does not exist/);
    await refused(files.read("nope.ts"), 404, /path: 'nope.ts' does not exist/);
    await refused(files.deleteDir(""), 400, /a path inside the project is required/);
  });
});
