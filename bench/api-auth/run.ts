/**
 * Benchmark: per-request cost of each way to authenticate an API call (HTTP Basic first and
 * repeated, API key, session cookie), on GET /api/v1/auth/me of the real app in-process.
 *
 *   npx tsx bench/api-auth/run.ts [--requests N]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp } from "../../server/src/app.js";
import { loadConfig } from "../../server/src/config/config.js";

const n = Number(process.argv[process.argv.indexOf("--requests") + 1] || 200) || 200;
const PASSWORD = "bench-password-1";

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "cl-bench-auth-"));
  const built = await buildApp({
    ...loadConfig({ CHAINLAUNCH_ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: "silent" }),
    dataDir,
    databaseUrl: undefined,
  });
  try {
    const basic = { authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString("base64")}` };
    const me = (headers: Record<string, string>) =>
      built.app.inject({ method: "GET", url: "/api/v1/auth/me", headers });
    const time = async (label: string, headers: Record<string, string>, count: number) => {
      const t0 = performance.now();
      for (let i = 0; i < count; i++) {
        const r = await me(headers);
        if (r.statusCode !== 200) throw new Error(`${label}: ${r.statusCode} ${r.body}`);
      }
      return { method: label, requests: count, msPerRequest: Number(((performance.now() - t0) / count).toFixed(2)) };
    };
    // A fresh app verifies the first Basic request with scrypt; later ones hit the verified-credentials cache.
    const first = await time("basic (first, scrypt)", basic, 1);
    const login = await built.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { username: "admin", password: PASSWORD },
    });
    const cookie = [login.headers["set-cookie"]]
      .flat()
      .find((c) => c?.startsWith("session_id="))!
      .split(";")[0]!;
    const key = await built.app.inject({
      method: "POST",
      url: "/api/v1/api-keys",
      headers: { cookie },
      payload: { name: "bench" },
    });
    const apiKey = (key.json() as { key?: string }).key;

    const rows = [
      first,
      await time("basic (repeated)", basic, n),
      await time("session cookie", { cookie }, n),
      ...(apiKey ? [await time("api key (Bearer)", { authorization: `Bearer ${apiKey}` }, n)] : []),
    ];
    console.log(`\nGET /api/v1/auth/me, SQLite, in-process`);
    console.table(rows);
    const out = join(dirname(fileURLToPath(import.meta.url)), "results");
    mkdirSync(out, { recursive: true });
    const file = join(out, `api-auth-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, JSON.stringify({ rows }, null, 2));
    console.log(`saved ${file}`);
  } finally {
    await built.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
