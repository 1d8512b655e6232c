import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * The anvil binary shipped in the npm package @foundry-rs/anvil-linux-amd64 (a real JSON-RPC node
 * for the eth_* tests), or undefined when the package is not installed.
 */
export function anvilPath(): string | undefined {
  try {
    const pkg = createRequire(import.meta.url).resolve("@foundry-rs/anvil-linux-amd64/package.json");
    const bin = join(dirname(pkg), "bin", "anvil");
    return existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}
