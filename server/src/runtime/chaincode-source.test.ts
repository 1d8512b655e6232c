import { execFile } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import {
  buildChaincode,
  ChaincodeBuildError,
  chaincodeServerEnv,
  detectSourceType,
  extractArchive,
} from "./chaincode-source.js";
import { createSandbox } from "./sandbox.js";

const run = promisify(execFile);
const root = mkdtempSync(join(tmpdir(), "cl-ccsrc-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
// Builds run as the product runs them: in bwrap (as the sandbox user when root).
const sandbox = createSandbox({ mode: "bwrap", user: "chainlaunch-sandbox", cacheDir: join(root, "cache") });
let n = 0;
const fresh = (): string => {
  const d = join(root, String(n++));
  mkdirSync(d, { recursive: true });
  return d;
};
/** A tar.gz of `files` made by the system tar (what a user uploads). */
async function tgz(
  files: Record<string, string>,
  opts: { top?: string; link?: [string, string] } = {},
): Promise<Buffer> {
  const src = fresh();
  const base = opts.top ? join(src, opts.top) : src;
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(base, name, ".."), { recursive: true });
    writeFileSync(join(base, name), content);
  }
  if (opts.link) symlinkSync(opts.link[1], join(base, opts.link[0]));
  const out = join(root, `a${n++}.tgz`);
  await run("tar", ["-czf", out, "-C", src, "."]);
  return readFileSync(out);
}
let haveGo = true;
await run("go", ["version"]).catch(() => {
  haveGo = false;
  console.warn("chaincode source tests: the go build case is skipped: no `go` on PATH");
});

describe("chaincode sources", () => {
  it("unpacks a tar.gz, strips one top-level folder and detects the language", async () => {
    const dest = fresh();
    await extractArchive(await tgz({ "package.json": "{}", "index.js": "" }, { top: "project" }), dest);
    expect(readdirSync(dest).sort()).toEqual(["index.js", "package.json"]);
    expect(await detectSourceType(dest)).toBe("node");
    const go = fresh();
    await extractArchive(await tgz({ "go.mod": "module x\n", "main.go": "package main\n" }), go);
    expect(await detectSourceType(go)).toBe("go");
    const exe = fresh();
    writeFileSync(join(exe, "server"), "#!/bin/sh\n");
    chmodSync(join(exe, "server"), 0o755);
    expect(await detectSourceType(exe)).toBe("executable");
    expect(await detectSourceType(fresh())).toBeUndefined();
  });

  it("refuses archives that climb out, hold links, or are not archives", async () => {
    await expect(
      extractArchive(await tgz({ "a.txt": "x" }, { link: ["evil", "/etc/passwd"] }), fresh()),
    ).rejects.toThrow(/link or special file/);
    const src = fresh();
    writeFileSync(join(src, "x"), "x");
    const out = join(root, "climb.tgz");
    await run("tar", ["-czf", out, "-C", src, "--transform", "s,^,../../,", "x"]);
    await expect(extractArchive(readFileSync(out), fresh())).rejects.toThrow(/unsafe path/);
    await expect(extractArchive(Buffer.from("hello world"), fresh())).rejects.toThrow(/not a tar.gz, tar or zip/);
  });

  it("fails a Node.js build with the step that failed and its log", async () => {
    const dir = fresh();
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "broken", version: "1.0.0", scripts: { build: "echo compiling-asset && exit 3" } }),
    );
    const err = await buildChaincode({ type: "node", srcDir: dir, logFile: join(dir, "..", "b.log"), sandbox }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(ChaincodeBuildError);
    expect(err.message).toMatch(/^npm run build failed \(exit 3\)/);
    expect(err.log).toMatch(/compiling-asset/);
  });

  it("names fabric-shim when a Node.js package can't serve chaincode", async () => {
    const dir = fresh();
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "noshim", version: "1.0.0" }));
    await expect(
      buildChaincode({ type: "node", srcDir: dir, logFile: join(dir, "..", "c.log"), sandbox }),
    ).rejects.toThrow(/must depend on fabric-shim/);
  });

  it.skipIf(!haveGo)("fails a Go build with the compiler's message", { timeout: 120_000 }, async () => {
    const dir = fresh();
    writeFileSync(join(dir, "go.mod"), "module example.com/broken\n\ngo 1.22\n");
    writeFileSync(join(dir, "main.go"), "package main\n\nfunc main() { undefinedThing() }\n");
    const err = await buildChaincode({ type: "go", srcDir: dir, logFile: join(dir, "..", "g.log"), sandbox }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(ChaincodeBuildError);
    expect(err.message).toMatch(/^go build failed \(exit 1\)/);
    expect(err.log).toMatch(/undefined: undefinedThing/);
  });

  it("names the missing Go toolchain", async () => {
    const dir = fresh();
    writeFileSync(join(dir, "go.mod"), "module x\n");
    await expect(
      buildChaincode({
        type: "go",
        srcDir: dir,
        logFile: join(dir, "..", "h.log"),
        sandbox,
        findTool: async () => undefined,
      }),
    ).rejects.toThrow(/Go toolchain not found: install Go 1\.22\+ .* or upload a prebuilt executable/);
  });

  it("gives each server the fabric-samples and fabric-shim environment", () => {
    expect(chaincodeServerEnv({ ccid: "cc:1", address: "127.0.0.1:9999" })).toEqual({
      CHAINCODE_ID: "cc:1",
      CHAINCODE_SERVER_ADDRESS: "127.0.0.1:9999",
      CORE_CHAINCODE_ID: "cc:1",
      CORE_CHAINCODE_ADDRESS: "127.0.0.1:9999",
      CHAINCODE_TLS_DISABLED: "true",
    });
    expect(
      chaincodeServerEnv({ ccid: "cc:1", address: "a:1", tls: { keyFile: "k", certFile: "c", clientCaFile: "ca" } }),
    ).toMatchObject({
      CHAINCODE_TLS_DISABLED: "false",
      CORE_CHAINCODE_TLS_KEY_FILE: "k",
      CORE_CHAINCODE_TLS_CERT_FILE: "c",
      CORE_CHAINCODE_TLS_CLIENT_CACERT_FILE: "ca",
    });
  });
});
