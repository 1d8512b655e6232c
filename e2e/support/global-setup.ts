import { execFileSync } from "node:child_process";
import type { TestProject } from "vitest/node";
import { apiCall } from "./api.js";
import { REPO_ROOT, reservePorts, startServer, sweepStalePortLocks, type RunningServer } from "./server.js";
import { USERS } from "./users.js";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    adminPassword: string;
  }
}

let server: RunningServer | undefined;

/** Ports the shared server proposes to the nodes and chaincode servers the specs create. */
const NODE_PORTS = 400;

/**
 * Builds the server and the web console (unless E2E_SKIP_BUILD=1), starts the real server once,
 * gives it a reserved block of ports as its node port range (settings), and creates the manager
 * and viewer users through the API with Basic auth.
 */
export async function setup(project: TestProject): Promise<void> {
  if (process.env.E2E_SKIP_BUILD !== "1") {
    execFileSync("npm", ["run", "build", "-w", "server"], { cwd: REPO_ROOT, stdio: "inherit" });
    execFileSync("npm", ["run", "build", "-w", "web"], { cwd: REPO_ROOT, stdio: "inherit" });
  }
  sweepStalePortLocks(); // locks of test processes that are gone
  server = await startServer();
  const admin = { username: "admin", password: server.adminPassword };
  const first = await reservePorts(NODE_PORTS);
  const current = await apiCall<{ config: Record<string, unknown> }>(server.url, admin, "GET", "/settings");
  const set = await apiCall(server.url, admin, "POST", "/settings", {
    config: { ...current.data.config, portRangeStart: first, portRangeEnd: first + NODE_PORTS - 1 },
  });
  if (set.status >= 300) throw new Error(`setting the node port range: ${set.status} ${JSON.stringify(set.data)}`);
  for (const u of [USERS.manager, USERS.viewer]) {
    const r = await apiCall(server.url, admin, "POST", "/users", u);
    if (r.status !== 201) throw new Error(`creating ${u.username}: ${r.status} ${JSON.stringify(r.data)}`);
  }
  project.provide("baseUrl", server.url);
  project.provide("adminPassword", server.adminPassword);
}

export async function teardown(): Promise<void> {
  if (process.env.E2E_DUMP_LOGS) console.log("SERVER LOGS\n" + server?.logs());
  await server?.stop();
}
