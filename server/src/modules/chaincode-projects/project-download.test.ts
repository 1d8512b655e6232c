import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, dialects, insertNetworkRow, type TestApp } from "../../test-support/test-app.js";

/** Every regular file under `dir`, relative, sorted. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * A project's download (upstream's zip) and its one-folder listings, on both databases: the archive
 * unpacks with `unzip` to the project's files without node_modules, .git or build output; symlinks
 * are neither followed nor stored; `..` and linked folders are refused in the listings.
 */
describe.each(dialects())("project download and listings on %s", (dialect) => {
  let t: TestApp;
  let viewer: { authorization: string };
  let project: { id: number; slug: string };
  const folder = () => join(t.config.dataDir, "projects", project.slug);
  const get = (url: string, headers: Record<string, string> = t.admin) =>
    t.app.inject({ method: "GET", url: `/api/v1${url}`, headers: { ...headers, "content-type": "application/json" } });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    viewer = await createUser(t, `dl-viewer-${dialect}`, "viewer");
    const net = await insertNetworkRow(t, `dlnet${dialect}`);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/chaincode-projects",
      headers: t.admin,
      payload: { name: "download", networkId: net.id, boilerplate: "chaincode-javascript" },
    });
    project = res.json();
    const f = folder();
    mkdirSync(join(f, "extra", "deep"), { recursive: true });
    writeFileSync(join(f, "extra", "deep", "util.js"), "module.exports = 42;\n");
    writeFileSync(join(f, "run.sh"), "#!/bin/sh\necho run\n");
    chmodSync(join(f, "run.sh"), 0o755);
    writeFileSync(join(f, "big.bin"), Buffer.alloc(300_000, 7));
    for (const skipped of ["node_modules/left", "dist", "bin", ".vscode", "build"]) {
      mkdirSync(join(f, skipped), { recursive: true });
      writeFileSync(join(f, skipped, "x.txt"), "left out");
    }
    symlinkSync(join(t.config.dataDir, "master.key"), join(f, "leak.key"));
    symlinkSync(t.config.dataDir, join(f, "data"));
  });
  afterAll(async () => t.close());

  it("streams a zip that unzips to the project's files, without skipped folders or symlinks", async () => {
    const res = await get(`/chaincode-projects/${project.id}/download`, viewer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="${project.slug}.zip"`);
    const tmp = mkdtempSync(join(tmpdir(), "chainlaunch-dl-"));
    try {
      writeFileSync(join(tmp, "p.zip"), res.rawPayload);
      execFileSync("unzip", ["-q", join(tmp, "p.zip"), "-d", join(tmp, "out")]);
      const expected = filesUnder(folder()).filter(
        (p) => !/^(node_modules|dist|bin|\.vscode|build|\.git)\//.test(p) && p !== "leak.key" && p !== "data",
      );
      expect(expected).toEqual(expect.arrayContaining(["package.json", "extra/deep/util.js", "run.sh", "big.bin"]));
      expect(filesUnder(join(tmp, "out"))).toEqual(expected);
      for (const p of expected) {
        expect(readFileSync(join(tmp, "out", p)).equals(readFileSync(join(folder(), p))), p).toBe(true);
      }
      expect(statSync(join(tmp, "out", "run.sh")).mode & 0o111).not.toBe(0);
      // unzip checks every entry's CRC; -t says so explicitly.
      expect(execFileSync("unzip", ["-tq", join(tmp, "p.zip")]).toString()).toMatch(/No errors/);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    expect((await get("/chaincode-projects/999999/download")).statusCode).toBe(404);
  });

  it("lists one folder: files/list and dirs/list in upstream's shapes, symlinks neither listed nor followed", async () => {
    const files = await get(`/projects/${project.id}/files/list`, viewer);
    expect(files.statusCode, files.body).toBe(200);
    expect(files.json().files).toEqual(expect.arrayContaining(["package.json", "run.sh", "big.bin"]));
    expect(files.json().files).not.toContain("leak.key");
    const dirs = await get(`/projects/${project.id}/dirs/list`, viewer);
    expect(dirs.statusCode, dirs.body).toBe(200);
    expect(dirs.json()).toMatchObject({
      directories: expect.arrayContaining(["lib", "extra", ".vscode", "build"]),
      skipped: expect.arrayContaining(["node_modules", "dist", "bin", ".git"]),
    });
    expect(dirs.json().directories).not.toContain("data");
    expect((await get(`/projects/${project.id}/dirs/list?dir=extra`)).json()).toEqual({
      directories: ["deep"],
      files: [],
      skipped: [],
    });
    expect((await get(`/projects/${project.id}/files/list?dir=extra/deep`)).json()).toEqual({ files: ["util.js"] });
  });

  it("refuses `..`, absolute paths, a linked folder, a file and a missing folder, naming `dir`", async () => {
    for (const route of ["files/list", "dirs/list"]) {
      for (const [dir, status, message] of [
        ["..", 400, /dir: '\.\.' leaves the project/],
        ["extra/../..", 400, /leaves the project/],
        [t.config.dataDir, 400, /is absolute/],
        ["data", 400, /dir: 'data' resolves outside the project/],
        ["leak.key", 400, /resolves outside the project/],
        ["run.sh", 400, /dir: 'run.sh' is not a folder/],
        ["nope", 404, /dir: 'nope' does not exist/],
      ] as const) {
        const res = await get(`/projects/${project.id}/${route}?dir=${encodeURIComponent(dir)}`);
        expect(res.statusCode, `${route} ${dir}: ${res.body}`).toBe(status);
        expect(res.json().message).toMatch(message);
      }
    }
    expect((await get(`/projects/999999/files/list`)).statusCode).toBe(404);
  });
});
