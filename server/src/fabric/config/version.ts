/**
 * Which set of config rules a Fabric version follows. The differences that matter for our
 * templates (checked against sampleconfig and the config structs at v2.5.16 and v3.1.5):
 * - 2.5: the orderer defaults to `BootstrapMethod: file` and channel participation off, so both
 *   must be written; an empty env var can't blank a peer key (no AllowEmptyEnv), so everything
 *   goes in the file; the peer has no TimeWindowCheck auth filter.
 * - 3.x: no system channel (BootstrapMethod is deprecated), channel participation is always on,
 *   the orderer config has Backoff/Throttling and Cluster.ReplicationPolicy, and the peer adds
 *   the TimeWindowCheck filter.
 */
export type FabricConfigFlavour = "2.5" | "3.x";

export class FabricConfigError extends Error {
  constructor(
    public readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = "FabricConfigError";
  }
}

/** Maps "2.5.16" → "2.5" and "3.1.5" → "3.x". Only 2.5 and 3.x are supported (2.5.5+ builds without replace). */
export function fabricConfigFlavour(version: string): FabricConfigFlavour {
  const m = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (!m) throw new FabricConfigError("version", `"${version}" is not a Fabric version (expected e.g. 3.1.5)`);
  const [major, minor] = [Number(m[1]), Number(m[2])];
  if (major === 3) return "3.x";
  if (major === 2 && minor === 5) return "2.5";
  throw new FabricConfigError("version", `Fabric ${version} is not supported; use 2.5.x or 3.x`);
}

/** Splits "host:port" (or "[v6]:port") into its parts. */
export function splitHostPort(address: string, field = "address"): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(address);
  const port = m ? Number(m[3]) : NaN;
  if (!m || port < 1 || port > 65535) throw new FabricConfigError(field, `${field} "${address}" is not host:port`);
  return { host: (m[1] ?? m[2]) as string, port };
}
