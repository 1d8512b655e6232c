import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createFabricBinaryResolver } from "../../runtime/index.js";
import { buildCcaasPackage } from "./package.js";

const run = promisify(execFile);
const VERSION = process.env.CHAINLAUNCH_E2E_FABRIC_VERSION ?? "3.1.0";
const peer = (await createFabricBinaryResolver({ downloader: null }).findLocal(VERSION, ["peer"]))?.paths.peer;
if (!peer) console.warn(`ccaas package test: the peer CLI comparison is skipped: no Fabric ${VERSION} binaries`);

describe("ccaas packages", () => {
  const dir = mkdtempSync(join(tmpdir(), "cl-ccaas-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const pkg = buildCcaasPackage({
    label: "asset_1.0",
    connection: { address: "127.0.0.1:9999", dial_timeout: "10s", tls_required: false },
    indexes: { byOwner: '{"index":{"fields":["owner"]},"name":"byOwner","type":"json"}' },
  });

  it("holds metadata.json and code.tar.gz with connection.json, as tar reads them", async () => {
    const file = join(dir, "pkg.tar.gz");
    writeFileSync(file, pkg.bytes);
    expect((await run("tar", ["-tzf", file])).stdout.split("\n").filter(Boolean)).toEqual([
      "metadata.json",
      "code.tar.gz",
    ]);
    await run("tar", ["-xzf", file, "-C", dir]);
    expect(JSON.parse(readFileSync(join(dir, "metadata.json"), "utf8"))).toEqual({
      type: "ccaas",
      label: "asset_1.0",
      path: "",
    });
    const code = join(dir, "code");
    await run("mkdir", ["-p", code]);
    await run("tar", ["-xzf", join(dir, "code.tar.gz"), "-C", code]);
    expect(JSON.parse(readFileSync(join(code, "connection.json"), "utf8"))).toEqual({
      address: "127.0.0.1:9999",
      dial_timeout: "10s",
      tls_required: false,
    });
    expect(readFileSync(join(code, "META-INF/statedb/couchdb/indexes/byOwner.json"), "utf8")).toMatch(/byOwner/);
  });

  it("is deterministic and named label:sha256", () => {
    const again = buildCcaasPackage({
      label: "asset_1.0",
      connection: { address: "127.0.0.1:9999", dial_timeout: "10s", tls_required: false },
      indexes: { byOwner: '{"index":{"fields":["owner"]},"name":"byOwner","type":"json"}' },
    });
    expect(again.bytes.equals(pkg.bytes)).toBe(true);
    expect(pkg.packageId).toMatch(/^asset_1\.0:[0-9a-f]{64}$/);
    expect(() => buildCcaasPackage({ label: "-bad", connection: { address: "a:1", tls_required: false } })).toThrow(
      /label/,
    );
  });

  it.skipIf(!peer)("has the id Fabric's own `peer lifecycle chaincode calculatepackageid` computes", async () => {
    const file = join(dir, "calc.tar.gz");
    writeFileSync(file, pkg.bytes);
    // The CLI wants a core.yaml to start; calculatepackageid reads nothing from it.
    writeFileSync(join(dir, "core.yaml"), "peer:\n  id: cli\n");
    const { stdout } = await run(peer!, ["lifecycle", "chaincode", "calculatepackageid", file], {
      env: { ...process.env, FABRIC_CFG_PATH: dir, FABRIC_LOGGING_SPEC: "error" },
    });
    expect(stdout.trim()).toBe(pkg.packageId);
  });
});
