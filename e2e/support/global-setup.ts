import { execFileSync } from "node:child_process";
import type { TestProject } from "vitest/node";
import { startTestDocker, type TestDocker } from "../../server/src/test-support/docker.js";
import { apiCall } from "./api.js";
import { REPO_ROOT, startServer, sweepStalePortLocks, type RunningServer } from "./server.js";
import { USERS } from "./users.js";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    adminPassword: string;
    /** DOCKER_HOST of the run's own dockerd (the shared server's engine), or "" when there is none. */
    dockerHost: string;
    /** Why the Docker specs skip, when they do. */
    dockerSkipReason: string;
    /** The shared server's output, copied to a file (support/failure-diagnostics.ts quotes it). */
    serverLog: string;
  }
}

let server: RunningServer | undefined;
let docker: TestDocker | undefined;

/** Ports the shared server proposes to the nodes and chaincode servers the specs create. */
const NODE_PORTS = 400;

/**
 * A dockerd of the run's own (scripts/docker-daemon.sh, as the server tier starts it), the shared
 * server's engine for mode "docker". Without one the Docker specs skip and say why.
 */
async function startDocker(project: TestProject): Promise<Record<string, string>> {
  let reason = "CHAINLAUNCH_TEST_DOCKER=0";
  if (process.env.CHAINLAUNCH_TEST_DOCKER !== "0") {
    try {
      docker = await startTestDocker();
      project.provide("dockerHost", docker.host);
      project.provide("dockerSkipReason", "");
      return { CHAINLAUNCH_DOCKER_HOST: docker.host };
    } catch (err) {
      reason = `no Docker engine: ${err instanceof Error ? err.message : String(err)} (make test installs docker.io)`;
      if (process.env.CHAINLAUNCH_REQUIRE_DOCKER === "1") throw new Error(reason);
    }
  }
  project.provide("dockerHost", "");
  project.provide("dockerSkipReason", reason);
  return {};
}

/**
 * Builds the server and the web console (unless E2E_SKIP_BUILD=1), starts a dockerd when there is
 * one to start, starts the real server once (with that engine), gives it a reserved block of ports
 * as its node port range (settings), and creates the manager and viewer users through the API with
 * Basic auth.
 */
export async function setup(project: TestProject): Promise<void> {
  if (process.env.E2E_SKIP_BUILD !== "1") {
    execFileSync("npm", ["run", "build", "-w", "server"], { cwd: REPO_ROOT, stdio: "inherit" });
    execFileSync("npm", ["run", "build", "-w", "web"], { cwd: REPO_ROOT, stdio: "inherit" });
  }
  sweepStalePortLocks(); // locks of test processes that are gone
  const dockerEnv = await startDocker(project);
  try {
    server = await startServer(dockerEnv, NODE_PORTS);
  } catch (err) {
    docker?.stop(); // no teardown follows a failed setup
    throw err;
  }
  const admin = { username: "admin", password: server.adminPassword };
  for (const u of [USERS.manager, USERS.viewer]) {
    const r = await apiCall(server.url, admin, "POST", "/users", u);
    if (r.status !== 201) throw new Error(`creating ${u.username}: ${r.status} ${JSON.stringify(r.data)}`);
  }
  project.provide("baseUrl", server.url);
  project.provide("adminPassword", server.adminPassword);
  project.provide("serverLog", server.logFile);
}

export async function teardown(): Promise<void> {
  if (process.env.E2E_DUMP_LOGS) console.log("SERVER LOGS\n" + server?.logs());
  // The server leaves its containers running (a next console adopts them); stopping dockerd ends them.
  await server?.stop();
  docker?.stop();
}
