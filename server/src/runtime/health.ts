import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { groupMembers } from "./proc.js";

/** Decides whether a started process is ready. `signal` aborts when the supervisor gives up. */
/**
 * `container`: the node runs in a container (its own network namespace), so whether its pid owns
 * a listening socket can't be read from this namespace's /proc/net: only a connection tells, and
 * it must reach the container itself (`containerIp`): a published port's proxy accepts connections
 * before anything listens behind it.
 */
export type ReadinessProbe = (ctx: {
  pid: number;
  signal: AbortSignal;
  container?: boolean;
  containerIp?: string;
}) => Promise<boolean>;

export interface HealthzResult {
  ok: boolean;
  /** HTTP status, or 0 when there was no answer. */
  status: number;
  /** The parsed JSON body when there was one, e.g. `{status: "OK"}` or the 503 with failed_checks. */
  body?: unknown;
  error?: string;
}

/**
 * GETs a Fabric operations `/healthz` over plain HTTP (operations TLS is off on loopback).
 * 200 with `{"status":"OK"}` is healthy; 503 carries `failed_checks`.
 */
export function getHealthz(url: string, timeoutMs = 2000, signal?: AbortSignal): Promise<HealthzResult> {
  return new Promise((resolve) => {
    const req = request(url, { method: "GET", timeout: timeoutMs, signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        const status = res.statusCode ?? 0;
        const okBody = typeof body === "object" && body !== null && (body as { status?: unknown }).status === "OK";
        resolve({ ok: status === 200 && okBody, status, body });
      });
      res.on("error", (err) => resolve({ ok: false, status: res.statusCode ?? 0, error: err.message }));
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", (err) => resolve({ ok: false, status: 0, error: err.message }));
    req.end();
  });
}

/** A readiness probe that passes when `url` (an operations /healthz) answers 200 {"status":"OK"}. */
export function httpHealthProbe(url: string, timeoutMs = 2000): ReadinessProbe {
  return async ({ signal }) => (await getHealthz(url, timeoutMs, signal)).ok;
}

/** How long one read of a socket table answers the probes that ask (the nodes of a bring-up probe together). */
const SOCKET_TABLE_TTL_MS = 100;
const SOCKET_TABLES = ["/proc/net/tcp", "/proc/net/tcp6"] as const;
const socketTables = new Map<string, { at: number; byPort: Map<number, Set<string>> }>();

/**
 * The inodes of the LISTEN sockets in one of /proc/net/tcp{,6}, by port. Reading such a file costs
 * the kernel a walk of its whole socket hash (~3.5 ms of CPU, however few sockets there are), so one
 * read serves every probe within {@link SOCKET_TABLE_TTL_MS}. A table that old can only be missing
 * a listener that has just opened (that probe says "not yet" and is retried); a listener it shows
 * was there, and the supervisor checks the process is alive before it reports it ready.
 */
function listeningSockets(table: (typeof SOCKET_TABLES)[number]): Map<number, Set<string>> {
  const now = Date.now();
  const cached = socketTables.get(table);
  if (cached && now - cached.at < SOCKET_TABLE_TTL_MS) return cached.byPort;
  const byPort = new Map<number, Set<string>>();
  let text = "";
  try {
    text = readFileSync(table, "utf8");
  } catch {
    // no such table (no IPv6): nothing listens there
  }
  for (const line of text.split("\n").slice(1)) {
    const cols = line.trim().split(/\s+/);
    // sl local_address rem_address st ... inode (column 9); 0A is LISTEN.
    if (cols[3] !== "0A" || !cols[1] || !cols[9]) continue;
    const port = Number.parseInt(cols[1].slice(cols[1].lastIndexOf(":") + 1), 16);
    let inodes = byPort.get(port);
    if (!inodes) byPort.set(port, (inodes = new Set()));
    inodes.add(cols[9]);
  }
  socketTables.set(table, { at: now, byPort });
  return byPort;
}

/**
 * Whether process `pid` (or a process of its group) has a TCP socket listening on `port` (Linux: its socket fds matched
 * against /proc/net/tcp{,6} LISTEN entries). Undefined when /proc can't tell (another OS).
 *
 * The IPv4 table is read first and the IPv6 one only when that doesn't answer yes (Fabric nodes
 * listen on IPv4 addresses); the tables are shared between probes (see listeningSockets). While
 * nothing listens on the port (most probes of a starting node) no process's fds are read, and once
 * something does, the leader's fds are checked before its group is scanned. The /proc files are
 * read synchronously (see proc.ts): they are in memory, and each asynchronous read is four
 * thread-pool round trips.
 */
export async function processListensOn(pid: number, port: number): Promise<boolean | undefined> {
  let leaderFds: string[];
  try {
    leaderFds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return existsSync("/proc/net/tcp") ? false : undefined;
  }
  const socketsOf = (p: number): Set<string> => {
    const inodes = new Set<string>();
    let fds: string[];
    try {
      fds = p === pid ? leaderFds : readdirSync(`/proc/${p}/fd`);
    } catch {
      return inodes;
    }
    for (const fd of fds) {
      let target = "";
      try {
        target = readlinkSync(`/proc/${p}/fd/${fd}`);
      } catch {
        continue;
      }
      const m = /^socket:\[(\d+)\]$/.exec(target);
      if (m) inodes.add(m[1] as string);
    }
    return inodes;
  };
  // The leader's sockets, then its group's (scanned only when the leader holds none of the
  // listeners): a sandboxed server listens below its launcher (bwrap).
  let members: number[] | undefined;
  const owned = new Map<number, Set<string>>();
  const holds = (p: number, listening: Set<string>): boolean => {
    let mine = owned.get(p);
    if (!mine) owned.set(p, (mine = socketsOf(p)));
    for (const inode of mine) if (listening.has(inode)) return true;
    return false;
  };
  const ownsOne = async (listening: Set<string>): Promise<boolean> => {
    if (holds(pid, listening)) return true;
    members ??= await groupMembers(pid);
    return members.some((p) => holds(p, listening));
  };
  for (const table of SOCKET_TABLES) {
    const listening = listeningSockets(table).get(port);
    if (listening && (await ownsOne(listening))) return true;
  }
  return false;
}

/**
 * A readiness probe that passes when the started process itself listens on host:port. Where /proc
 * can't say, a TCP connection being accepted is taken as the answer. (A connection alone is not
 * enough on Linux: another process may hold the port while ours fails to bind it.)
 */
export function tcpProbe(host: string, port: number, timeoutMs = 2000): ReadinessProbe {
  return async (ctx) => {
    const own = ctx.container ? undefined : await processListensOn(ctx.pid, port);
    if (own !== undefined) return own;
    return tcpConnects(ctx.containerIp ?? host, port, timeoutMs, ctx.signal);
  };
}

/** Whether a TCP connection to host:port is accepted within the timeout. */
export function tcpConnects(host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, signal });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** A probe that passes when every probe passes, checked in order (stops at the first that fails). */
export function allProbes(...probes: ReadinessProbe[]): ReadinessProbe {
  return async (ctx) => {
    for (const probe of probes) if (!(await probe(ctx))) return false;
    return true;
  };
}
