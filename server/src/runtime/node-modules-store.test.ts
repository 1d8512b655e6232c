import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { SANDBOX_TEST_CACHE } from "../test-support/test-app.js";
import { buildCaches, buildChaincode } from "./chaincode-source.js";
import { dependencyKey, nodeModulesStore, pruneNodeModulesStore, type NodeModulesStore } from "./node-modules-store.js";
import { createSandbox, findBwrap } from "./sandbox.js";

const run = promisify(execFile);
const ASSET_NODE = resolve(import.meta.dirname, "../fabric/test-support/chaincode/asset-node");
const root = mkdtempSync(join(tmpdir(), "cl-nmstore-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const bwrap = findBwrap();
if (!bwrap) console.warn("node_modules store: the build cases are skipped: bwrap is not installed");
// As the product builds: in bwrap, as the sandbox user when root, with the tests' warm npm cache.
const sandbox = createSandbox({ mode: "bwrap", user: "chainlaunch-sandbox", cacheDir: SANDBOX_TEST_CACHE });
const store: NodeModulesStore = { dir: join(root, "store"), keep: 20 };
let n = 0;

/** A definition-like folder (`<n>/src`) holding a copy of asset-node, with `edit` applied. */
function source(edit: (dir: string) => void = () => undefined): string {
  const src = join(root, `def-${n++}`, "src");
  mkdirSync(src, { recursive: true });
  cpSync(ASSET_NODE, src, { recursive: true, filter: (p) => !p.includes("node_modules") });
  edit(src);
  return src;
}
const editJson = (file: string, fn: (j: Record<string, unknown>) => void, indent = 2): void => {
  const j = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  fn(j);
  writeFileSync(file, JSON.stringify(j, null, indent));
};
async function build(src: string): Promise<{ log: string; ms: number }> {
  const logFile = join(src, "..", "build.log");
  const t0 = Date.now();
  const cmd = await buildChaincode({ type: "node", srcDir: src, logFile, sandbox, nodeModulesStore: store });
  const ms = Date.now() - t0;
  // The server command works: fabric-shim's CLI loads and answers --help.
  const help = await run(cmd.command, [cmd.args[0]!, "server", "--help"], { cwd: cmd.cwd });
  expect(help.stdout).toMatch(/--chaincode-address/);
  return { log: readFileSync(logFile, "utf8"), ms };
}
const npmInstallRan = (log: string): boolean => /^\$ \S*npm install /m.test(log);
const entries = (): string[] => readdirSync(store.dir).filter((e) => !e.startsWith("."));

describe("node_modules store: keys", () => {
  const key = async (dir: string, dev = false) =>
    (await dependencyKey(dir, { dev, npmVersion: "11.0.0", env: {} }))?.key;

  it("keys the dependency fields, lock, dev flag and npm config; not scripts or code", async () => {
    const a = source();
    const base = await key(a);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(await key(source())).toBe(base);
    expect(await key(a, true)).not.toBe(base);
    expect(await key(source((d) => writeFileSync(join(d, "index.js"), "// other code\n")))).toBe(base);
    const scripts = source((d) => editJson(join(d, "package.json"), (j) => (j.scripts = { test: "true" })));
    expect(await key(scripts)).toBe(base);
    const dev = source((d) => editJson(join(d, "package.json"), (j) => (j.devDependencies = { typescript: "5.9.3" })));
    expect(await key(dev)).not.toBe(base);
    const lock = source((d) => editJson(join(d, "package-lock.json"), () => undefined, 1));
    expect(await key(lock)).not.toBe(base);
    const npmrc = source((d) => writeFileSync(join(d, ".npmrc"), "registry=https://registry.example/\n"));
    expect(await key(npmrc)).not.toBe(base);
    expect((await dependencyKey(a, { dev: false, npmVersion: "10.0.0", env: {} }))?.key).not.toBe(base);
    const env = { npm_config_registry: "https://registry.example/" };
    expect((await dependencyKey(a, { dev: false, npmVersion: "11.0.0", env }))?.key).not.toBe(base);
  });

  it("refuses what the key can't cover: local files, unpinned git, workspaces, linked inputs", async () => {
    const local = source((d) =>
      editJson(
        join(d, "package.json"),
        (j) => (j.dependencies = { ...(j.dependencies as object), lib: "file:../lib" }),
      ),
    );
    expect(await key(local)).toBeUndefined();
    const git = source((d) => {
      rmSync(join(d, "package-lock.json"));
      editJson(join(d, "package.json"), (j) => (j.dependencies = { lib: "github:someone/lib" }));
    });
    expect(await key(git)).toBeUndefined();
    const ws = source((d) => editJson(join(d, "package.json"), (j) => (j.workspaces = ["packages/*"])));
    expect(await key(ws)).toBeUndefined();
    // A link where the lock would be (an admin's source_path copy can carry one).
    const linked = source((d) => {
      rmSync(join(d, "package-lock.json"));
      writeFileSync(join(root, "outside.json"), "{}");
      symlinkSync(join(root, "outside.json"), join(d, "package-lock.json"));
    });
    expect(await key(linked)).toBeUndefined();
  });

  it("is never among the caches a sandboxed step writes", () => {
    const cache = join(root, "cache");
    const dir = nodeModulesStore(cache).dir;
    for (const c of buildCaches(cache)) expect(dir === c || dir.startsWith(`${c}/`)).toBe(false);
  });

  it("keeps the most recently used entries", async () => {
    const s = { dir: join(root, "prune"), keep: 2 };
    const names = ["a", "b", "c", "d"].map((c) => c.repeat(64));
    names.forEach((name, i) => {
      mkdirSync(join(s.dir, name, "node_modules"), { recursive: true });
      utimesSync(join(s.dir, name), 1000 + i, 1000 + i);
    });
    mkdirSync(join(s.dir, ".tmp-old"));
    utimesSync(join(s.dir, ".tmp-old"), 1000, 1000);
    mkdirSync(join(s.dir, ".tmp-live"));
    await pruneNodeModulesStore(s);
    expect(readdirSync(s.dir).sort()).toEqual([".tmp-live", names[2], names[3]]);
  });
});

describe.skipIf(!bwrap)("node_modules store: real builds", { timeout: 600_000 }, () => {
  it("copies the dependencies of an earlier build instead of running npm install", async () => {
    const first = await build(source());
    expect(npmInstallRan(first.log)).toBe(true);
    expect(first.log).toMatch(/kept the installed dependencies for later builds \(key [0-9a-f]{12}…\)/);
    expect(entries()).toHaveLength(1);

    const src = source();
    const second = await build(src);
    console.log(`asset-node: npm install build ${first.ms} ms, store build ${second.ms} ms`);
    expect(second.log).toMatch(/reused the installed dependencies of an earlier build \(key [0-9a-f]{12}…/);
    expect(npmInstallRan(second.log)).toBe(false);
    // Links stay links (relative, as npm made them).
    const bin = join(src, "node_modules", ".bin", "fabric-chaincode-node");
    expect(lstatSync(bin).isSymbolicLink()).toBe(true);
    expect(readdirSync(join(src, "..")).filter((e) => e.startsWith("."))).toEqual([]);
    expect(entries()).toHaveLength(1);

    // Another lock (same packages, other bytes) or another package.json is another key: npm install runs.
    const relock = await build(source((d) => editJson(join(d, "package-lock.json"), () => undefined, 4)));
    expect(npmInstallRan(relock.log)).toBe(true);
    const repkg = await build(
      source((d) => editJson(join(d, "package.json"), (j) => (j.peerDependencies = { "fabric-shim": "2.5.8" }))),
    );
    expect(npmInstallRan(repkg.log)).toBe(true);
    expect(entries()).toHaveLength(3);
  });

  it("stores what npm install made, before the build script runs", async () => {
    const tamper = (d: string): void =>
      editJson(join(d, "package.json"), (j) => {
        j.scripts = {
          build:
            "echo // tampered >> node_modules/fabric-shim/index.js && touch node_modules/fabric-shim/TAMPERED" +
            ` && (touch ${store.dir}/PLANTED || true)`,
        };
      });
    const before = new Set(entries());
    const src1 = source(tamper);
    const first = await build(src1);
    expect(npmInstallRan(first.log)).toBe(true);
    expect(existsSync(join(src1, "node_modules", "fabric-shim", "TAMPERED"))).toBe(true);
    const added = entries().filter((e) => !before.has(e));
    expect(added).toHaveLength(1);
    const stored = join(store.dir, added[0]!, "node_modules", "fabric-shim");
    expect(existsSync(join(stored, "TAMPERED"))).toBe(false);
    expect(readFileSync(join(stored, "index.js"), "utf8")).not.toMatch(/tampered/);
    expect(existsSync(join(store.dir, "PLANTED"))).toBe(false);

    // The copy a second build gets is clean, and its build script may write into it.
    const src2 = source(tamper);
    const second = await build(src2);
    expect(second.log).toMatch(/reused the installed dependencies/);
    expect(existsSync(join(src2, "node_modules", "fabric-shim", "TAMPERED"))).toBe(true);
    expect(readFileSync(join(src2, "node_modules", "fabric-shim", "index.js"), "utf8").match(/tampered/g)).toHaveLength(
      1,
    );
    expect(existsSync(join(stored, "TAMPERED"))).toBe(false);
  });

  it("lets two builds of the same new dependencies run at once and keeps one entry", async () => {
    const relock = (d: string): void => editJson(join(d, "package-lock.json"), () => undefined, 3);
    const before = new Set(entries());
    const [a, b] = await Promise.all([build(source(relock)), build(source(relock))]);
    expect([a.log, b.log].filter(npmInstallRan).length).toBeGreaterThanOrEqual(1);
    expect(entries().filter((e) => !before.has(e))).toHaveLength(1);
    expect(readdirSync(store.dir).filter((e) => e.startsWith(".tmp-"))).toEqual([]);
  });
});
