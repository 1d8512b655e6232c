/**
 * A console for a benchmark: the real app in-process on a fresh data directory and a real HTTP
 * listener, with an admin HTTP helper and a poller. Fails early when the Fabric binaries are missing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { gunzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp, type BuiltApp } from "../../server/src/app.js";
import { loadConfig } from "../../server/src/config/config.js";
import { createFabricBinaryResolver } from "../../server/src/runtime/index.js";
import { releasePorts, reservePorts } from "../../server/src/test-support/ports.js";
import { load1, reasonOf } from "./conditions.js";

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
export const FABRIC_VERSION = process.env.CHAINLAUNCH_E2E_FABRIC_VERSION ?? "3.1.0";
export const BENCH_PASSWORD = "bench-password-1";
export const ADMIN_AUTH = `Basic ${Buffer.from(`admin:${BENCH_PASSWORD}`).toString("base64")}`;

/** Thrown by an `until` poller to stop waiting at once: the awaited thing failed and won't recover. */
export class StopWaiting extends Error {}

/**
 * Polls `fn` every 50 ms until it gives a value. Errors `fn` throws are retried (a node still starting),
 * except {@link StopWaiting}, which ends the wait with its message. On timeout the error names what it waited for, for
 * how long, the last error `fn` threw and the load, so a failed run says why.
 */
export async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  let lastError = "none";
  for (;;) {
    const v = await fn().catch((err: unknown) => {
      if (err instanceof StopWaiting) throw new Error(`${what} failed: ${err.message}`);
      lastError = reasonOf(err);
      return undefined;
    });
    if (v !== undefined) return v;
    if (Date.now() > end)
      throw new Error(
        `timed out after ${Math.round(ms / 1000)} s waiting for ${what} (last error: ${lastError}; load ${load1()})`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Gives the console's node port proposals a range from the tests' allocator (below Linux's
 * ephemeral range, never another run's) instead of a fixed one; returns the function that releases it.
 */
export async function usePortRange(
  http: (method: string, url: string, body?: object) => Promise<Json>,
  count = 100,
): Promise<() => void> {
  const from = await reservePorts(count);
  const settings = (await http("GET", "/settings")).config;
  await http("POST", "/settings", { config: { ...settings, portRangeStart: from, portRangeEnd: from + count - 1 } });
  return () => releasePorts(from, count);
}

/**
 * Admin calls to a console at `address`; each throws with the status and body on anything but 2xx.
 * node:http over keep-alive connections, accepting gzip as Go's HTTP client (the CLI, the Terraform
 * provider) does: Node 20's fetch costs the bench ~1 CPU-ms a call, which on 2 cores slowed the calls
 * it timed through the console against the direct gateway client it compares them with.
 */
export function adminClient(address: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const base = new URL(address);
  const http = (method: string, url: string, body?: object): Promise<Json> =>
    new Promise((resolve, reject) => {
      const payload = body ? JSON.stringify(body) : undefined;
      const req = request(
        {
          host: base.hostname,
          port: base.port,
          path: `/api/v1${url}`,
          method,
          agent,
          headers: {
            authorization: ADMIN_AUTH,
            "accept-encoding": "gzip",
            ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("error", reject);
          res.on("end", () => {
            try {
              const raw = Buffer.concat(chunks);
              const text = (res.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8");
              const status = res.statusCode ?? 0;
              if (status >= 300) return reject(new Error(`${method} ${url}: ${status} ${text}`));
              resolve(text ? (JSON.parse(text) as Json) : {});
            } catch (err) {
              reject(err as Error);
            }
          });
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  return { http, until };
}

/** The real app in-process on a fresh data directory, listening on 127.0.0.1; `close` stops it and removes the directory. */
export async function startBenchConsole(tag: string) {
  if (!(await createFabricBinaryResolver({ downloader: null }).findLocal(FABRIC_VERSION, ["peer", "orderer"]))) {
    console.error(`no Fabric ${FABRIC_VERSION} binaries: run scripts/fabric-build.sh ${FABRIC_VERSION}`);
    process.exit(2);
  }
  const dataDir = mkdtempSync(join(tmpdir(), `cl-bench-${tag}-`));
  const built: BuiltApp = await buildApp({
    ...loadConfig({
      CHAINLAUNCH_ADMIN_PASSWORD: BENCH_PASSWORD,
      LOG_LEVEL: "silent",
      CHAINLAUNCH_FABRIC_DOWNLOAD: "0",
    }),
    dataDir,
    databaseUrl: undefined,
  });
  const address = await built.app.listen({ port: 0, host: "127.0.0.1" });
  const { http, until } = adminClient(address);
  return {
    built,
    address,
    dataDir,
    http,
    until,
    async close(): Promise<void> {
      await built.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
