import { mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { buildApp, type BuiltApp } from "../app.js";
import { loadConfig, type Config } from "../config/config.js";

export type TestDialect = "sqlite" | "postgres";

export const ADMIN_PASSWORD = "admin-password-1";

/**
 * The npm and Go caches of sandboxed builds, shared by every test app (the product keeps them in
 * its data dir): a fresh Go build cache costs tens of seconds per app.
 */
export const SANDBOX_TEST_CACHE = join(homedir(), ".cache", "chainlaunch", "sandbox-test-cache");

/** The dialects to run repository and route tests on, with a printed reason when PostgreSQL is missing. */
export function dialects(): TestDialect[] {
  const reason = inject("pgSkipReason");
  if (reason) {
    console.warn(`skipping PostgreSQL variants: ${reason}`);
    return ["sqlite"];
  }
  return ["sqlite", "postgres"];
}

async function createDatabase(adminUrl: string): Promise<string> {
  const name = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return adminUrl.replace(/\/[^/]*$/, `/${name}`);
}

export interface TestApp extends BuiltApp {
  config: Config;
  basic(username: string, password: string): { authorization: string };
  admin: { authorization: string };
  /** Closes the app (node and chaincode processes keep running) and boots a new one on the same data. */
  restart(): Promise<void>;
}

/** Builds a real app on a fresh SQLite file or a fresh PostgreSQL database. */
export async function createTestApp(
  dialect: TestDialect = "sqlite",
  env: Record<string, string> = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), "chainlaunch-test-"));
  const databaseUrl = dialect === "postgres" ? await createDatabase(inject("pgAdminUrl")) : undefined;
  const config: Config = {
    // Tests never download Fabric releases: a missing version must fail at once.
    ...loadConfig({
      CHAINLAUNCH_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LOG_LEVEL: "silent",
      CHAINLAUNCH_FABRIC_DOWNLOAD: "0",
      CHAINLAUNCH_BESU_DOWNLOAD: "0",
      CHAINLAUNCH_SANDBOX_CACHE: SANDBOX_TEST_CACHE,
      ...env,
    }),
    dataDir,
    databaseUrl,
    webDist: join(dataDir, "no-web"),
  };
  let built = await buildApp(config);
  const basic = (u: string, p: string) => ({ authorization: `Basic ${Buffer.from(`${u}:${p}`).toString("base64")}` });
  const t: TestApp = {
    ...built,
    config,
    basic,
    admin: basic("admin", ADMIN_PASSWORD),
    async restart() {
      await built.close();
      built = await buildApp(config);
      Object.assign(t, {
        app: built.app,
        database: built.database,
        bus: built.bus,
        routes: built.routes,
        openapi: built.openapi,
        deferred: built.deferred,
      });
    },
    async close() {
      // A close that hangs says where, before the hook's timeout hides it.
      const watchdog = setInterval(
        () => process.stderr.write(`test app ${dataDir}: close still waiting at ${built.closeStep()}\n`),
        15_000,
      );
      try {
        await built.close();
      } finally {
        clearInterval(watchdog);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return t;
}

/** Creates a user through the API and returns its Basic auth header. */
export async function createUser(
  t: TestApp,
  username: string,
  role: string,
  password = "password-123",
): Promise<{ authorization: string }> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/v1/users",
    headers: t.admin,
    payload: { username, password, role },
  });
  if (res.statusCode !== 201) throw new Error(`creating ${username} failed: ${res.statusCode} ${res.body}`);
  return t.basic(username, password);
}

/**
 * A RUNNING node row written straight to the database (no process behind it), for tests about what
 * the console reads of its nodes: scrape targets, the federation inventory, shared bootnodes.
 */
export async function insertNodeRow(
  t: TestApp,
  row: {
    name: string;
    nodeType: "FABRIC_PEER" | "FABRIC_ORDERER" | "BESU_FULLNODE";
    deployment: object;
    organizationId?: number | null;
    networkId?: number | null;
    keyId?: number | null;
  },
): Promise<{ id: number; slug: string }> {
  const now = new Date().toISOString();
  return t.database.db
    .insertInto("nodes")
    .values({
      name: row.name,
      slug: row.name,
      platform: row.nodeType === "BESU_FULLNODE" ? "BESU" : "FABRIC",
      node_type: row.nodeType,
      status: "RUNNING",
      error_message: null,
      endpoint: null,
      organization_id: row.organizationId ?? null,
      network_id: row.networkId ?? null,
      key_id: row.keyId ?? null,
      tls_key_id: null,
      config: "{}",
      deployment: JSON.stringify(row.deployment),
      down_since: null,
      down_reason: null,
      created_at: now,
      updated_at: now,
    })
    .returning(["id", "slug"])
    .executeTakeFirstOrThrow();
}

/**
 * A network record without nodes, straight into the database: enough for tests of everything that
 * does not ask a node (chaincodes, projects, usage guards).
 */
export async function insertNetworkRow(t: TestApp, name: string, platform = "FABRIC"): Promise<{ id: number }> {
  const now = new Date().toISOString();
  return t.database.db
    .insertInto("networks")
    .values({
      name,
      platform,
      description: null,
      status: "genesis_block_created",
      chain_id: null,
      config: "{}",
      genesis: null,
      validators: "[]",
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}
