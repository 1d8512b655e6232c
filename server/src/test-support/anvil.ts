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

/** Anvil's first dev account (funded at genesis), for tests that pay gas or fund another address. */
export const ANVIL_DEV_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" as const;

/** Compiles one Solidity contract with solc-js (evm paris): its ABI as JSON text and its bytecode. */
export function compileContract(source: string, contract: string): { abi: string; bytecode: string } {
  const solc = createRequire(import.meta.url)("solc") as { compile(input: string): string };
  const out = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: "Solidity",
        sources: { [`${contract}.sol`]: { content: source } },
        settings: { evmVersion: "paris", outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
      }),
    ),
  );
  const c = out.contracts[`${contract}.sol`][contract];
  return { abi: JSON.stringify(c.abi), bytecode: `0x${c.evm.bytecode.object}` };
}
