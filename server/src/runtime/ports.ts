import { createServer } from "node:net";
import { RuntimeError } from "./errors.js";

/**
 * Hosts a port must be bindable on to count as free. A node may listen on 127.0.0.1 or on
 * 0.0.0.0, and on Linux either one blocks the other, so both are tried.
 */
export const DEFAULT_BIND_HOSTS = ["127.0.0.1", "0.0.0.0"] as const;

/** Why a port can't be used. */
export type PortConflictReason = "reserved" | "in-use";

export interface PortConflict {
  port: number;
  reason: PortConflictReason;
  /** For "in-use": the host the bind test failed on and the OS error code (EADDRINUSE, EACCES…). */
  host?: string;
  errorCode?: string;
}

export interface PortCheckOptions {
  /** Ports taken by other nodes (running or not): they are never free. */
  reserved?: Iterable<number>;
  /** Hosts to bind-test; defaults to {@link DEFAULT_BIND_HOSTS}. */
  hosts?: readonly string[];
}

export function isValidPort(port: number): boolean {
  return Number.isInteger(port) && port >= 1 && port <= 65535;
}

/** Tries to listen on host:port and closes again. Resolves the OS error code, or null when it bound. */
export function bindTest(port: number, host: string): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? "EUNKNOWN"));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

/** Checks one port against the reserved set and the OS. Null means free. */
export async function checkPort(port: number, opts: PortCheckOptions = {}): Promise<PortConflict | null> {
  if (!isValidPort(port)) throw new RuntimeError("PORT_INVALID", `${port} is not a TCP port (1-65535)`, { port });
  const reserved = new Set(opts.reserved ?? []);
  if (reserved.has(port)) return { port, reason: "reserved" };
  for (const host of opts.hosts ?? DEFAULT_BIND_HOSTS) {
    const code = await bindTest(port, host);
    if (code) return { port, reason: "in-use", host, errorCode: code };
  }
  return null;
}

/**
 * Checks every requested port; also reports a port asked for twice in the same request as
 * "reserved". Returns the conflicts (empty when all are usable).
 */
export async function checkPorts(ports: readonly number[], opts: PortCheckOptions = {}): Promise<PortConflict[]> {
  const reserved = new Set(opts.reserved ?? []);
  const seen = new Set<number>();
  const conflicts: PortConflict[] = [];
  for (const port of ports) {
    if (seen.has(port)) {
      conflicts.push({ port, reason: "reserved" });
      continue;
    }
    seen.add(port);
    const conflict = await checkPort(port, { ...opts, reserved });
    if (conflict) conflicts.push(conflict);
  }
  return conflicts;
}

export interface ProposePortsOptions extends PortCheckOptions {
  /** First port to try (inclusive). */
  from: number;
  /** Last port to try (inclusive). */
  to: number;
}

/**
 * Proposes `count` distinct free ports from [from, to], in ascending order, skipping reserved
 * ports and ports the OS reports busy. A proposal is advice: the caller still checks at create.
 * @throws RuntimeError PORT_RANGE_EXHAUSTED when the range has fewer free ports.
 */
export async function proposeFreePorts(count: number, opts: ProposePortsOptions): Promise<number[]> {
  if (!isValidPort(opts.from) || !isValidPort(opts.to) || opts.from > opts.to) {
    throw new RuntimeError("PORT_INVALID", `invalid port range ${opts.from}-${opts.to}`, {
      from: opts.from,
      to: opts.to,
    });
  }
  const reserved = new Set(opts.reserved ?? []);
  const found: number[] = [];
  for (let port = opts.from; port <= opts.to && found.length < count; port++) {
    if (reserved.has(port)) continue;
    if ((await checkPort(port, { reserved, hosts: opts.hosts })) === null) found.push(port);
  }
  if (found.length < count) {
    throw new RuntimeError(
      "PORT_RANGE_EXHAUSTED",
      `only ${found.length} of ${count} free ports in ${opts.from}-${opts.to}`,
      { from: opts.from, to: opts.to, count, found },
    );
  }
  return found;
}

/** The ports one Fabric node listens on. */
export interface FabricNodePorts {
  /** gRPC: peer.listenAddress / General.ListenPort. */
  listen: number;
  /** Peer only: chaincode listener (upstream default 7052 clashes between peers on one host). */
  chaincode?: number;
  /** Orderer only: channel participation admin API. */
  admin?: number;
  /** Operations (/healthz, /metrics). */
  operations: number;
}

/**
 * Proposes free ports for a new node: peers from 7051 up (listen, chaincode) and operations from
 * 9443 up; orderers from 7050 up (listen, admin) and operations from 8443 up. Ports reserved by
 * other nodes and busy ones are skipped, so repeated calls with the growing reserved set give
 * each node its own ports.
 */
/** An inclusive range of ports that proposals must stay in (the settings' portRangeStart/End). */
export interface PortRange {
  from: number;
  to: number;
}

/**
 * Where to search for a port that would conventionally be `preferred`: from there when it lies in
 * the range (or no range is set), otherwise from the start of the range.
 */
export function searchRange(preferred: number, range?: PortRange): { from: number; to: number } {
  if (!range) return { from: preferred, to: 65535 };
  return { from: preferred >= range.from && preferred <= range.to ? preferred : range.from, to: range.to };
}

export async function proposeFabricNodePorts(
  kind: "peer" | "orderer",
  opts: PortCheckOptions & { range?: PortRange } = {},
): Promise<FabricNodePorts> {
  const reserved = new Set(opts.reserved ?? []);
  const grpcFrom = kind === "peer" ? 7051 : 7050;
  const [listen, second] = (await proposeFreePorts(2, { ...opts, reserved, ...searchRange(grpcFrom, opts.range) })) as [
    number,
    number,
  ];
  reserved.add(listen).add(second);
  const [operations] = (await proposeFreePorts(1, {
    ...opts,
    reserved,
    ...searchRange(kind === "peer" ? 9443 : 8443, opts.range),
  })) as [number];
  return kind === "peer" ? { listen, chaincode: second, operations } : { listen, admin: second, operations };
}
