import { existsSync } from "node:fs";
import { readdir, readFile, readlink } from "node:fs/promises";
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

/**
 * Whether process `pid` (or a process of its group) has a TCP socket listening on `port` (Linux: its socket fds matched
 * against /proc/net/tcp{,6} LISTEN entries). Undefined when /proc can't tell (another OS).
 */
export async function processListensOn(pid: number, port: number): Promise<boolean | undefined> {
  try {
    await readdir(`/proc/${pid}/fd`);
  } catch {
    return existsSync("/proc/net/tcp") ? false : undefined;
  }
  const inodes = new Set<string>();
  // The leader or a member of its group: a sandboxed server listens below its launcher (bwrap).
  for (const p of [pid, ...(await groupMembers(pid))]) {
    const fds = await readdir(`/proc/${p}/fd`).catch(() => [] as string[]);
    await Promise.all(
      fds.map(async (fd) => {
        const target = await readlink(`/proc/${p}/fd/${fd}`).catch(() => "");
        const m = /^socket:\[(\d+)\]$/.exec(target);
        if (m) inodes.add(m[1] as string);
      }),
    );
  }
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const text = await readFile(table, "utf8").catch(() => "");
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      // sl local_address rem_address st ... inode (column 9); 0A is LISTEN.
      if (cols[1]?.endsWith(`:${hexPort}`) && cols[3] === "0A" && inodes.has(cols[9] ?? "")) return true;
    }
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
