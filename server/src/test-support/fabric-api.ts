import { mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp, type BuiltApp } from "../app.js";
import { loadConfig, type Config } from "../config/config.js";
import { createFabricBinaryResolver } from "../runtime/index.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;
type Method = "GET" | "POST" | "PUT" | "DELETE";

/** The Fabric version the end-to-end tests run (the Makefile exports it). */
export const E2E_FABRIC_VERSION = process.env.CHAINLAUNCH_E2E_FABRIC_VERSION ?? "3.1.0";

/** Whether the test binaries are there; prints why a test is skipped when they are not. */
export async function haveFabricBinaries(what: string): Promise<boolean> {
  const bins = await createFabricBinaryResolver({ downloader: null }).findLocal(E2E_FABRIC_VERSION, [
    "peer",
    "orderer",
  ]);
  if (!bins) {
    console.warn(
      `${what} skipped: no Fabric ${E2E_FABRIC_VERSION} binaries; run scripts/fabric-build.sh ${E2E_FABRIC_VERSION}`,
    );
  }
  return Boolean(bins);
}

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, ms: number): Promise<T> {
  const until = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * A whole console (real app, SQLite in a temp dir) for API end-to-end tests on real Fabric
 * nodes: calls as admin, node creation through POST /nodes, and a process sweep at close.
 * `ports` is the first of 60 ports for this test's nodes (keep test files apart).
 */
export function fabricApiHarness(opts: { name: string; ports: number }) {
  const dataDir = mkdtempSync(join(tmpdir(), `cl-${opts.name}-`));
  const config: Config = {
    ...loadConfig({
      CHAINLAUNCH_ADMIN_PASSWORD: "admin-password-1",
      LOG_LEVEL: "silent",
      CHAINLAUNCH_FABRIC_DOWNLOAD: "0",
    }),
    dataDir,
    databaseUrl: undefined,
    webDist: join(dataDir, "no-web"),
  };
  const admin = { authorization: `Basic ${Buffer.from("admin:admin-password-1").toString("base64")}` };
  let built: BuiltApp | undefined;

  async function call(method: Method, url: string, payload?: object) {
    if (!built) throw new Error("call start() first");
    const res = await built.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: admin,
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: (res.body ? res.json() : undefined) as Json };
  }
  async function ok(method: Method, url: string, payload?: object): Promise<Json> {
    const r = await call(method, url, payload);
    if (r.status >= 300) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  /** Processes whose working directory is a node folder of this data dir. */
  function nodeProcesses(): number[] {
    const out: number[] = [];
    for (const p of readdirSync("/proc")) {
      if (!/^\d+$/.test(p)) continue;
      try {
        if (readlinkSync(`/proc/${p}/cwd`).startsWith(join(dataDir, "nodes"))) out.push(Number(p));
      } catch {
        // gone or not ours
      }
    }
    return out;
  }

  /** Creates peers and orderers of `org` one at a time (each sees the ports before it); waits for RUNNING. */
  async function createNodes(org: Json, peers: number, orderers: number, prefix: string): Promise<Json[]> {
    const d = await ok("GET", `/nodes/defaults/fabric?peerCount=${peers}&ordererCount=${orderers}`);
    const base = { organizationId: org.id, mspId: org.mspId, version: E2E_FABRIC_VERSION };
    const specs = [
      ...d.peers.map((p: Json, i: number) => ({
        name: `${prefix}peer${i}`,
        blockchainPlatform: "FABRIC",
        fabricPeer: {
          ...base,
          listenAddress: p.listenAddress,
          chaincodeAddress: p.chaincodeAddress,
          operationsListenAddress: p.operationsListenAddress,
          externalEndpoint: p.externalEndpoint,
        },
      })),
      ...d.orderers.map((o: Json, i: number) => ({
        name: `${prefix}orderer${i}`,
        blockchainPlatform: "FABRIC",
        fabricOrderer: {
          ...base,
          listenAddress: o.listenAddress,
          adminAddress: o.adminAddress,
          operationsListenAddress: o.operationsListenAddress,
          externalEndpoint: o.externalEndpoint,
        },
      })),
    ];
    const created: Json[] = [];
    for (const s of specs) created.push(await ok("POST", "/nodes", s));
    return Promise.all(
      created.map((n) =>
        waitFor(
          `${n.name} RUNNING`,
          async () => {
            const cur = await ok("GET", `/nodes/${n.id}`);
            if (cur.status === "ERROR") throw new Error(`${n.name}: ${cur.errorMessage}`);
            return cur.status === "RUNNING" ? cur : undefined;
          },
          90_000,
        ),
      ),
    );
  }

  return {
    dataDir,
    config,
    call,
    ok,
    nodeProcesses,
    createNodes,
    /** Builds the app and gives this test its own port range for node proposals. */
    async start(): Promise<void> {
      built = await buildApp(config);
      const current = (await ok("GET", "/settings")).config;
      await ok("POST", "/settings", {
        config: { ...current, portRangeStart: opts.ports, portRangeEnd: opts.ports + 59 },
      });
    },
    /** Stops the given nodes through the API and waits until none of this console's processes is left. */
    async stopNodes(nodes: Json[]): Promise<void> {
      for (const n of nodes) await ok("POST", `/nodes/${n.id}/stop`);
      await waitFor("no node process left", async () => (nodeProcesses().length === 0 ? true : undefined), 30_000);
    },
    /** Kills leftovers, closes the app, removes the data dir (kept with CHAINLAUNCH_E2E_KEEP). */
    async close(): Promise<void> {
      for (const pid of nodeProcesses()) process.kill(pid, "SIGKILL");
      await built?.close();
      if (process.env.CHAINLAUNCH_E2E_KEEP) console.warn(`${opts.name}: kept ${dataDir}`);
      else rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
