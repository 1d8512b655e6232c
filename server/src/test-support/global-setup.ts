import type { TestProject } from "vitest/node";
import { startTestDocker, type TestDocker } from "./docker.js";
import { sweepStalePortLocks } from "./ports.js";
import { startThrowawayPostgres, type ThrowawayPostgres } from "./postgres.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Admin URL of the throwaway PostgreSQL, or "" when it could not start. */
    pgAdminUrl: string;
    /** Why PostgreSQL tests skip, when they do. */
    pgSkipReason: string;
    /** DOCKER_HOST of the run's own dockerd, or "" when there is none. */
    dockerHost: string;
    /** Why Docker tests skip, when they do. */
    dockerSkipReason: string;
  }
}

let pg: ThrowawayPostgres | undefined;
let docker: TestDocker | undefined;

/**
 * Sweeps the port locks of processes that are gone (a test worker ended by a signal leaves its
 * own), then starts one PostgreSQL for the whole run; each test app creates its own database in it.
 */
export async function setup(project: TestProject): Promise<void> {
  sweepStalePortLocks();
  try {
    pg = await startThrowawayPostgres();
    project.provide("pgAdminUrl", pg.url);
    project.provide("pgSkipReason", "");
  } catch (err) {
    const reason = `PostgreSQL unavailable: ${err instanceof Error ? err.message : String(err)}`;
    if (process.env.CHAINLAUNCH_REQUIRE_POSTGRES === "1") throw new Error(reason);
    console.warn(`[postgres] ${reason}; PostgreSQL variants will be skipped`);
    project.provide("pgAdminUrl", "");
    project.provide("pgSkipReason", reason);
  }
  // A dockerd of the run's own (mode "docker" tests), when this machine has one to start.
  if (process.env.CHAINLAUNCH_TEST_DOCKER === "0") {
    project.provide("dockerHost", "");
    project.provide("dockerSkipReason", "CHAINLAUNCH_TEST_DOCKER=0");
  } else {
    try {
      docker = await startTestDocker();
      project.provide("dockerHost", docker.host);
      project.provide("dockerSkipReason", "");
    } catch (err) {
      const reason = `no Docker engine: ${err instanceof Error ? err.message : String(err)} (make test installs docker.io)`;
      if (process.env.CHAINLAUNCH_REQUIRE_DOCKER === "1") throw new Error(reason);
      project.provide("dockerHost", "");
      project.provide("dockerSkipReason", reason);
    }
  }
}

export async function teardown(): Promise<void> {
  pg?.stop();
  docker?.stop();
}
