/**
 * Benchmark: per-request cost of each way to authenticate an API call (HTTP Basic first and
 * repeated, API key, session cookie), on GET /api/v1/auth/me of the real app in-process.
 *
 *   npx tsx bench/api-auth/run.ts [--requests N] [--wait-idle[=SECONDS]]
 *
 * Each row carries the 1-minute load and this process's CPU seconds for it (console and client: the
 * app runs in-process), flagged when the load was too high to compare (bench/support/conditions.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp } from "../../server/src/app.js";
import { loadConfig } from "../../server/src/config/config.js";
import {
  conditionColumns,
  conditions,
  reportLoad,
  runBench,
  selfCpuSeconds,
  waitIdleIfAsked,
  type Conditions,
} from "../support/conditions.js";

const n = Number(process.argv[process.argv.indexOf("--requests") + 1] || 200) || 200;
const PASSWORD = "bench-password-1";

async function main(): Promise<void> {
  await waitIdleIfAsked();
  const all: Conditions[] = [];
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
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < count; i++) {
        const r = await me(headers);
        if (r.statusCode !== 200) throw new Error(`${label}: ${r.statusCode} ${r.body}`);
      }
      const msPerRequest = Number(((performance.now() - t0) / count).toFixed(2));
      const c = conditions(selfCpuSeconds(cpu0));
      all.push(c);
      return { method: label, requests: count, msPerRequest, ...conditionColumns(c) };
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
      // A cookie-authenticated change must say it comes from the console itself (cross-site guard).
      headers: { cookie, "sec-fetch-site": "same-origin" },
      payload: { name: "bench" },
    });
    const apiKey = (key.json() as { key?: string }).key;

    const rows = [
      first,
      await time("basic (repeated)", basic, n),
      await time("session cookie", { cookie }, n),
      apiKey
        ? await time("api key (Bearer)", { authorization: `Bearer ${apiKey}` }, n)
        : { method: "api key (Bearer)", note: `not measured: POST /api-keys answered ${key.statusCode} ${key.body}` },
    ];
    console.log(`\nGET /api/v1/auth/me, SQLite, in-process`);
    console.table(rows);
    reportLoad(all);
    const out = join(dirname(fileURLToPath(import.meta.url)), "results");
    mkdirSync(out, { recursive: true });
    const file = join(out, `api-auth-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, JSON.stringify({ rows, loadTooHigh: all.some((c) => c.loadTooHigh) }, null, 2));
    console.log(`saved ${file}`);
  } finally {
    await built.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await runBench("api-auth", main);
