/**
 * A console for a benchmark: the real app in-process on a fresh data directory and a real HTTP
 * listener, with an admin HTTP helper and a poller. Fails early when the Fabric binaries are missing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp, type BuiltApp } from "../../server/src/app.js";
import { loadConfig } from "../../server/src/config/config.js";
import { createFabricBinaryResolver } from "../../server/src/runtime/index.js";

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
export const FABRIC_VERSION = process.env.CHAINLAUNCH_E2E_FABRIC_VERSION ?? "3.1.0";
export const BENCH_PASSWORD = "bench-password-1";
export const ADMIN_AUTH = `Basic ${Buffer.from(`admin:${BENCH_PASSWORD}`).toString("base64")}`;

/** Polls `fn` every 50 ms until it gives a value. */
export async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Admin calls to a console at `address`; each throws with the status and body on anything but 2xx. */
export function adminClient(address: string) {
  const http = async (method: string, url: string, body?: object): Promise<Json> => {
    const res = await fetch(`${address}/api/v1${url}`, {
      method,
      headers: { authorization: ADMIN_AUTH, ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as Json) : {};
  };
  return { http, until };
}

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
    http,
    until,
    async close(): Promise<void> {
      await built.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
