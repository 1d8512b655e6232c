import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./ports.js";
import { ADMIN_PASSWORD } from "./test-app.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Every file under a directory, as text (binary files as latin1, so a string inside one still shows). */
export function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });
    if (st?.isDirectory()) return filesUnder(p);
    return st?.isFile() ? [{ path: p, text: readFileSync(p).toString("latin1") }] : [];
  });
}

const SERVER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * The console as an operator runs it: `chainlaunch serve` in its own process (through tsx, from the
 * sources), with a data dir that survives `restart()`, and everything it logs kept for the test to read.
 * For tests about what a real restart does, and what reaches the log.
 */
export async function startConsoleProcess(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "chainlaunch-proc-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const auth = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString("base64")}`;
  let output = "";
  /** Every response body this test read, for checks of what the API gave away. */
  const responses: string[] = [];
  let proc: ChildProcess | undefined;

  async function boot(): Promise<void> {
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts", "serve"], {
      cwd: SERVER_DIR,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        CHAINLAUNCH_DATA: dataDir,
        CHAINLAUNCH_ADMIN_PASSWORD: ADMIN_PASSWORD,
        CHAINLAUNCH_WEB_DIST: join(dataDir, "no-web"),
        CHAINLAUNCH_FABRIC_DOWNLOAD: "0",
        CHAINLAUNCH_BESU_DOWNLOAD: "0",
        LOG_LEVEL: "debug",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
    proc = child;
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`console exited with ${child.exitCode}\n${output.slice(-4000)}`);
      try {
        if ((await fetch(`${url}/healthz`)).ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`console did not answer within 90 s\n${output.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  async function shutdown(): Promise<void> {
    const child = proc;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    await exited;
    clearTimeout(timer);
  }

  async function call(method: string, path: string, body?: object): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { authorization: auth, ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    responses.push(text);
    return { status: res.status, body: text ? (JSON.parse(text) as Json) : undefined };
  }

  await boot();
  return {
    url,
    dataDir,
    call,
    async ok(method: string, path: string, body?: object): Promise<Json> {
      const r = await call(method, path, body);
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    },
    logs: () => output,
    responses: () => responses,
    /** Stops the process (SIGTERM, as a service manager would) and starts it again on the same data. */
    async restart(): Promise<void> {
      await shutdown();
      await boot();
    },
    stop: shutdown,
    async close(): Promise<void> {
      await shutdown();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type ConsoleProcess = Awaited<ReturnType<typeof startConsoleProcess>>;
