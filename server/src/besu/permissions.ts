/**
 * Besu local permissioning file (`permissions_config.toml`): the accounts and nodes
 * allow-lists read through `--permissions-accounts-config-file` and
 * `--permissions-nodes-config-file`.
 * https://besu.hyperledger.org/private-networks/how-to/use-local-permissioning
 */
import { BesuInputError } from "./errors.js";
import { parseAddress } from "./encoding.js";
import { parseEnodeUrl } from "./keys.js";

/** Allow-lists for one node; an omitted list leaves that key out of the file. */
export interface PermissionsConfigInput {
  accountsAllowlist?: readonly string[];
  nodesAllowlist?: readonly string[];
  /**
   * The node's bootnodes. Besu refuses to start with node permissioning on unless every
   * bootnode is in the nodes allow-list, so they are checked here.
   */
  bootnodes?: readonly string[];
}

function enodeKey(url: string, field: string): string {
  const p = parseEnodeUrl(url, field);
  return `${p.enodeId}@${p.host.toLowerCase()}:${p.port}`;
}

/**
 * Renders the permissions TOML: `accounts-allowlist=[…]` with lowercase 0x addresses and
 * `nodes-allowlist=[…]` with enode URLs, as in Besu's sample file.
 */
export function renderPermissionsConfigToml(input: PermissionsConfigInput): string {
  const lines: string[] = [];
  if (input.accountsAllowlist !== undefined) {
    const accounts = input.accountsAllowlist.map((a, i) => parseAddress(a, `accountsAllowlist[${i}]`).toLowerCase());
    lines.push(`accounts-allowlist=[${accounts.map((a) => JSON.stringify(a)).join(",")}]`);
  }
  if (input.nodesAllowlist !== undefined) {
    const nodes = input.nodesAllowlist.map((url, i) => {
      enodeKey(url, `nodesAllowlist[${i}]`);
      return url.trim();
    });
    const allowed = new Set(nodes.map((url, i) => enodeKey(url, `nodesAllowlist[${i}]`)));
    (input.bootnodes ?? []).forEach((url, i) => {
      if (!allowed.has(enodeKey(url, `bootnodes[${i}]`))) {
        throw new BesuInputError(
          `bootnodes[${i}]`,
          "must also be in nodesAllowlist, or Besu will not start with node permissioning",
        );
      }
    });
    lines.push(`nodes-allowlist=[${nodes.map((n) => JSON.stringify(n)).join(",")}]`);
  }
  return lines.map((l) => `${l}\n`).join("");
}
