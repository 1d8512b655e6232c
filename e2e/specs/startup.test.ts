import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseStartupTrace, STARTUP_PHASES } from "../../server/src/startup-trace.js";
import { freePort, spawnBundle, stopProcess } from "../support/server.js";

/**
 * Start-up (issue 34): the console starts fast, and its first success still means it serves. The bundle
 * as `make start` runs it, on a fresh and on an existing data directory: from spawn, /healthz and an API
 * path are asked in turn as fast as the server answers. Before the first success on either, an answer
 * may only be a refusal that says why; right after it, the first admin signs in, the API lists, the
 * OpenAPI document is whole and the web app's index is served. A server that listened before its
 * routes, its database or its first admin were ready fails here.
 */
const PASSWORD = "startup-admin-password";
const basic = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString("base64")}`;

interface Early {
  path: string;
  status: number;
  body: string;
}

async function startAndProbe(
  dataDir: string,
): Promise<{ early: Early[]; ms: number; stop: () => Promise<void>; url: string; output: () => string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  const t0 = Date.now();
  // The start-up trace is on, as bench/cold-start runs it: the line must say where the start went.
  const proc = spawnBundle(
    port,
    dataDir,
    PASSWORD,
    { CHAINLAUNCH_STARTUP_TRACE: "1" },
    (d) => (output += d.toString()),
  );
  const stop = () => stopProcess(proc);
  const early: Early[] = [];
  const deadline = Date.now() + 60_000;
  try {
    for (let i = 0; ; i++) {
      if (Date.now() > deadline) throw new Error("no success on /healthz or the API within 60 s");
      if (proc.exitCode !== null) throw new Error(`server exited with code ${proc.exitCode}`);
      // Alternate: the health check, and an API path that needs the database, a user and its route.
      const path = i % 2 === 0 ? "/healthz" : "/api/v1/organizations";
      try {
        const res = await fetch(url + path, { headers: { authorization: basic } });
        const body = await res.text();
        if (res.ok) break;
        early.push({ path, status: res.status, body });
      } catch {
        // not listening yet
      }
    }
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n--- server output ---\n${output}`);
  }
  return { early, ms: Date.now() - t0, stop, url, output: () => output };
}

async function expectServing(url: string): Promise<void> {
  const login = await fetch(`${url}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: PASSWORD }),
  });
  expect(login.status, await login.clone().text()).toBe(200);
  expect(login.headers.get("set-cookie")).toMatch(/session_id=/);
  const orgs = await fetch(`${url}/api/v1/organizations`, { headers: { authorization: basic } });
  expect(orgs.status).toBe(200);
  const doc = (await (await fetch(`${url}/api/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
  expect(Object.keys(doc.paths).length).toBeGreaterThan(100);
  const index = await fetch(`${url}/`);
  expect(index.status).toBe(200);
  expect(await index.text()).toMatch(/<div id="root">/);
}

/** The trace names every phase, in order, each ending no later than the next, all before the first success. */
function expectStartupTrace(output: string, firstSuccessMs: number): void {
  const trace = parseStartupTrace(output);
  expect(trace, `no start-up trace in the output:\n${output}`).toBeDefined();
  const ends = STARTUP_PHASES.map((p) => trace![p]);
  expect(ends.every((ms) => ms !== undefined && ms > 0)).toBe(true);
  for (let i = 1; i < ends.length; i++) expect(ends[i]!).toBeGreaterThanOrEqual(ends[i - 1]!);
  // Measured from the process's start, a little after this test's spawn began.
  expect(trace!.listening!).toBeLessThanOrEqual(firstSuccessMs);
}

/** Anything answered before the first success is a refusal (5xx with a message). */
function expectRefusals(early: Early[]): void {
  for (const e of early) {
    expect(e.status, `${e.path} answered ${e.status} before the first success: ${e.body}`).toBeGreaterThanOrEqual(500);
    expect(e.body, `${e.path} refused without saying why`).toMatch(/\w+/);
  }
}

describe("start-up", () => {
  it(
    "serves at its first answer, on a fresh data directory and on the same one again",
    { timeout: 180_000 },
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), "chainlaunch-startup-"));
      try {
        for (const kind of ["fresh", "existing"]) {
          const run = await startAndProbe(dataDir);
          try {
            console.log(`start-up (${kind} data dir): first success after ${run.ms} ms`);
            expectRefusals(run.early);
            await expectServing(run.url);
            expectStartupTrace(run.output(), run.ms);
          } finally {
            await run.stop();
          }
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});
