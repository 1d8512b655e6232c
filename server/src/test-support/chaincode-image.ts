import { execFile } from "node:child_process";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type Docker from "dockerode";
import { buildImage } from "../runtime/docker/index.js";

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
/** The Go test chaincode (a chaincode-as-a-service server). */
export const ASSET_GO = resolve(here, "../fabric/test-support/chaincode/asset-go");

/** Whether `go` can build the test chaincode here (printed when not). */
export async function haveGo(what: string): Promise<boolean> {
  try {
    await run("go", ["version"]);
    return true;
  } catch {
    console.warn(`${what}: skipped: no \`go\` on PATH to build the test chaincode image`);
    return false;
  }
}

/**
 * Builds the Go test chaincode static (CGO off) and an image of it alone (FROM scratch, entrypoint
 * the server) tagged `tag` on the engine: what a user's CI would push, made here with no registry.
 * Returns the copy of the source it built from.
 */
export async function buildAssetGoImage(docker: Docker, work: string, tag: string): Promise<string> {
  const src = join(work, "asset-go");
  cpSync(ASSET_GO, src, { recursive: true });
  const ctx = join(work, "image");
  mkdirSync(ctx, { recursive: true });
  await run("go", ["build", "-o", join(ctx, "chaincode.bin"), "."], {
    cwd: src,
    env: { ...process.env, CGO_ENABLED: "0" },
    timeout: 300_000,
  });
  writeFileSync(join(ctx, "Dockerfile"), 'FROM scratch\nCOPY chaincode.bin /chaincode\nENTRYPOINT ["/chaincode"]\n');
  await buildImage(docker, ctx, tag);
  return src;
}
