import { BesuInputError } from "../../besu/index.js";
import { FabricConfigError, fabricConfigFlavour, splitHostPort } from "../../fabric/config/index.js";
import { InputError } from "../../http/errors.js";
import {
  BUILDABLE_FABRIC_VERSIONS,
  checkPorts,
  DEFAULT_FABRIC_VERSION,
  RuntimeError,
  type FabricBinary,
  type FabricBinaryResolver,
  type ResolvedFabricBinaries,
} from "../../runtime/index.js";
import { deploymentOf } from "./nodes.mapping.js";
import type { NodeRow } from "./nodes.repo.js";

/** Parses host:port for a named field, as a named 400. */
export function hostPort(value: string, field: string): { host: string; port: number } {
  try {
    return splitHostPort(value, field);
  } catch {
    throw new InputError(`${field}: "${value}" is not host:port (port 1-65535)`, { field });
  }
}

/** The besu library's option names → the request's field names. */
const BESU_FIELDS: [RegExp, string][] = [
  [/^p2p\.port/, "p2pPort"],
  [/^p2p\.host/, "externalIp"],
  [/^p2p\.interface/, "p2pHost"],
  [/^rpc\.port/, "rpcPort"],
  [/^rpc\.host/, "rpcHost"],
  [/^metrics\.port/, "metricsPort"],
  [/^metrics\.host/, "rpcHost"],
  [/^bootnodes/, "bootNodes"],
  [/^hostAllowlist/, "hostAllowList"],
  [/^accountsAllowlist/, "accountsAllowList"],
  [/^nodesAllowlist/, "nodesAllowList"],
];

/** Runs a Besu library call, turning its field errors into named 400s under `prefix`, with request field names. */
export function besuInput<T>(prefix: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof BesuInputError) {
      const rename = (f: string): string => BESU_FIELDS.reduce((acc, [re, to]) => acc.replace(re, to), f);
      const field = `${prefix}${rename(err.field)}`;
      const problem = err.message.slice(err.field.length + 2).replace(/\b(p2p|rpc|metrics)\.port\b/g, (m) => rename(m));
      throw new InputError(`${field}: ${problem}`, { field });
    }
    throw err;
  }
}

/** Ports every other node binds, with the node that holds each. */
export function portOwners(rows: NodeRow[], exceptId?: number): Map<number, string> {
  const owners = new Map<number, string>();
  for (const row of rows) {
    if (row.id === exceptId) continue;
    const d = deploymentOf(row) as { ports?: number[] };
    for (const p of d.ports ?? []) owners.set(p, row.name);
  }
  return owners;
}

/** The ports node `id` binds now (an edited node may keep them: they are busy because it runs). */
export function ownPorts(rows: NodeRow[], id: number | undefined): Set<number> {
  const row = id === undefined ? undefined : rows.find((r) => r.id === id);
  return new Set(row ? ((deploymentOf(row) as { ports?: number[] }).ports ?? []) : []);
}

/**
 * Checks the ports a node will bind against other nodes (running or not), ports claimed by
 * creations in flight, and the OS. The first clash is a named 400. `own` are the edited node's
 * current ports: held by the node itself, so not a clash (it is restarted to apply the change).
 */
export async function assertPortsFree(
  wanted: { field: string; port: number }[],
  owners: Map<number, string>,
  inFlight: Set<number>,
  own: Set<number> = new Set(),
): Promise<void> {
  const seen = new Map<number, string>();
  for (const w of wanted) {
    const other = seen.get(w.port);
    if (other) throw new InputError(`${w.field}: port ${w.port} is also given for ${other}`, { field: w.field });
    seen.set(w.port, w.field);
    const owner = owners.get(w.port);
    if (owner)
      throw new InputError(`${w.field}: port ${w.port} is already used by node '${owner}'`, { field: w.field });
    if (inFlight.has(w.port))
      throw new InputError(`${w.field}: port ${w.port} is being claimed by a node being created`, { field: w.field });
  }
  const conflicts = await checkPorts(wanted.map((w) => w.port).filter((p) => !own.has(p)));
  const first = conflicts[0];
  if (first) {
    const field = wanted.find((w) => w.port === first.port)?.field ?? "port";
    throw new InputError(
      `${field}: port ${first.port} is in use on this machine (${first.errorCode ?? "busy"} on ${first.host ?? "localhost"})`,
      { field },
    );
  }
}

/** The version to use when none is asked for: the newest one installed, else the default (downloaded). */
export async function defaultFabricVersion(bins: FabricBinaryResolver, binary: FabricBinary): Promise<string> {
  for (const v of [DEFAULT_FABRIC_VERSION, ...BUILDABLE_FABRIC_VERSIONS]) {
    if (await bins.findLocal(v, [binary])) return v;
  }
  return DEFAULT_FABRIC_VERSION;
}

/**
 * Checks the version has config templates and resolves its binary before anything is created:
 * "a version with no binary" is a named 400 that says how to install it.
 */
export async function resolveFabricBinary(
  bins: FabricBinaryResolver,
  version: string,
  binary: FabricBinary,
  field: string,
): Promise<ResolvedFabricBinaries> {
  try {
    fabricConfigFlavour(version);
    return await bins.resolve(version, [binary]);
  } catch (err) {
    if (err instanceof FabricConfigError || err instanceof RuntimeError) {
      throw new InputError(`${field}: ${err.message}`, { field });
    }
    throw err;
  }
}

/** A slug for folders and process ids: lowercase [a-z0-9-], unique among `taken`. */
export function slugify(name: string, taken: Set<string>): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "node";
  let slug = base;
  for (let i = 2; taken.has(slug); i++) slug = `${base}-${i}`;
  return slug;
}
