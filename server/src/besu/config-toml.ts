/**
 * Besu TOML config rendering (`--config-file`) of the same option list the command line
 * uses. Keys are the option names without `--`; lists become TOML arrays, as in the
 * "Example configuration file" entries of Besu's options reference.
 * https://besu.hyperledger.org/public-networks/reference/cli/options
 */
import { buildBesuOptions, type BesuCommandOptions, type BesuOption } from "./command.js";

function tomlValue(value: BesuOption["value"]): string {
  if (Array.isArray(value)) {
    return `[${value.map((v) => JSON.stringify(v)).join(",")}]`;
  }
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/**
 * Renders the same options as a Besu TOML config file (`--config-file`): one
 * `name=value` line per option, lists as TOML arrays. The argv from
 * {@link buildBesuCommand} stays the source of truth; this is for operators to read.
 */
export function renderBesuConfigToml(opts: BesuCommandOptions): string {
  return buildBesuOptions(opts)
    .map((o) => `${o.name}=${tomlValue(o.value)}\n`)
    .join("");
}
