import { execFile } from "node:child_process";
import { createFabricBinaryResolver, type FabricBinary, type ResolvedFabricBinaries } from "../../runtime/binaries.js";

/** The Fabric version tests run against: CHAINLAUNCH_E2E_FABRIC_VERSION, default 3.1.0. */
export const TEST_FABRIC_VERSION = process.env.CHAINLAUNCH_E2E_FABRIC_VERSION ?? "3.1.0";

/**
 * Finds cached Fabric binaries for tests, or null with a console warning naming what is
 * missing (so a skipped test says why).
 */
export async function findTestBinaries(
  needs: FabricBinary[],
  what: string,
): Promise<(ResolvedFabricBinaries & { path: (b: FabricBinary) => string }) | null> {
  const resolver = createFabricBinaryResolver({
    downloader: null,
    configuredDir: process.env.CHAINLAUNCH_FABRIC_BIN_DIR,
  });
  const bins = await resolver.findLocal(TEST_FABRIC_VERSION, needs);
  if (!bins) {
    console.warn(
      `${what} skipped: no Fabric ${TEST_FABRIC_VERSION} binaries (${needs.join(", ")}) in the cache or CHAINLAUNCH_FABRIC_BIN_DIR; run scripts/fabric-build.sh ${TEST_FABRIC_VERSION}`,
    );
    return null;
  }
  return { ...bins, path: (b) => bins.paths[b] as string };
}

/** Runs a binary with an argv array; resolves with exit code and output (never rejects). */
export function runBinary(
  file: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd: opts.cwd, env: opts.env ?? process.env, timeout: opts.timeoutMs ?? 30_000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) || 1 : 0, stdout, stderr }),
    );
  });
}
