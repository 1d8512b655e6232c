import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort, releasePorts, reservePorts, sweepStalePortLocks } from "../../server/src/test-support/ports.js";
import { apiCall } from "./api.js";

export const REPO_ROOT = resolve(import.meta.dirname, "..", "..");

export interface RunningServer {
  url: string;
  /** CHAINLAUNCH_DATA of this server (its SQLite file is chainlaunch.db in it). */
  dataDir: string;
  adminPassword: string;
  stop: () => Promise<void>;
  logs: () => string;
  /** The file the server's output is copied to (failure diagnostics quote it). */
  logFile: string;
}

/**
 * The server tests' one port allocator (10000-32767, below the ephemeral range; a lock file per
 * port, so the e2e tier and server test runs on one machine never get the same port).
 */
export { freePort, reservePorts, sweepStalePortLocks };

async function waitForHealth(url: string, proc: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited with code ${proc.exitCode}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server at ${url} did not become healthy within ${timeoutMs} ms`);
}

/** Stops a spawned server: SIGTERM, then SIGKILL after 5 s. */
export async function stopProcess(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((r) => proc.once("exit", () => r()));
  proc.kill("SIGTERM");
  const timer = setTimeout(() => proc.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

/**
 * Spawns the real server as `make start` runs it (`node server/bundle/main.js serve`) on `port` with
 * `dataDir`, without waiting for it; its output goes to `onOutput`.
 */
export function spawnBundle(
  port: number,
  dataDir: string,
  adminPassword: string,
  extraEnv: Record<string, string>,
  onOutput: (d: Buffer) => void,
): ChildProcess {
  const proc = spawn(process.execPath, [join(REPO_ROOT, "server/bundle/main.js"), "serve"], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      CHAINLAUNCH_DATA: dataDir,
      CHAINLAUNCH_ADMIN_PASSWORD: adminPassword,
      CHAINLAUNCH_WEB_DIST: join(REPO_ROOT, "web/dist"),
      LOG_LEVEL: "warn",
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stdout?.on("data", onOutput);
  proc.stderr?.on("data", onOutput);
  return proc;
}

/**
 * Starts the real server as `make start` runs it (`node server/bundle/main.js serve`) on a free port
 * with a throwaway data dir, its node port range (settings) set to `nodePorts` ports of the tests'
 * allocator: the console's default range (7050 up, operations at 8443/9443) is every console's, and
 * two tiers running at once proposed the same ports to their nodes (CI: "port 9443 is in use").
 */
export async function startServer(extraEnv: Record<string, string> = {}, nodePorts = 100): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), "chainlaunch-e2e-"));
  const adminPassword = "e2e-admin-password";
  let output = "";
  // The output also goes to a file, so a failing spec (another process) can quote its last lines.
  const logFile = join(tmpdir(), `chainlaunch-e2e-server-${port}.log`);
  const log = createWriteStream(logFile);
  const proc = spawnBundle(
    port,
    dataDir,
    adminPassword,
    { CHAINLAUNCH_LOGIN_MAX_ATTEMPTS: "1000", ...extraEnv },
    (d) => {
      output += d.toString();
      log.write(d);
    },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, proc, 90_000);
  } catch (e) {
    proc.kill("SIGKILL");
    throw new Error(`${(e as Error).message}\n--- server output ---\n${output}`);
  }
  const admin = { username: "admin", password: adminPassword };
  const first = await reservePorts(nodePorts);
  try {
    const current = await apiCall<{ config: Record<string, unknown> }>(url, admin, "GET", "/settings");
    const set = await apiCall(url, admin, "POST", "/settings", {
      config: { ...current.data.config, portRangeStart: first, portRangeEnd: first + nodePorts - 1 },
    });
    if (set.status >= 300) throw new Error(`setting the node port range: ${set.status} ${JSON.stringify(set.data)}`);
  } catch (e) {
    proc.kill("SIGKILL");
    releasePorts(first, nodePorts);
    throw e;
  }
  return {
    url,
    dataDir,
    adminPassword,
    logs: () => output,
    logFile,
    stop: async () => {
      await stopProcess(proc);
      releasePorts(first, nodePorts);
      await rm(dataDir, { recursive: true, force: true });
      log.end();
      await rm(logFile, { force: true });
    },
  };
}
