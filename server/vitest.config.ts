import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import LongestFirst from "./vitest.sequencer.js";

/**
 * Workers: vitest's default is one fewer than the cores, which on CI's 2-core machines is a single
 * worker, and most files spend their time waiting on Fabric nodes, PostgreSQL, restic or timers.
 * Cores + 1 keeps both cores busy (docs/testing.md has the measured table); CHAINLAUNCH_TEST_WORKERS
 * overrides it.
 */
const workers = Number(process.env.CHAINLAUNCH_TEST_WORKERS) || availableParallelism() + 1;

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    globalSetup: ["src/test-support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: workers,
    sequence: { sequencer: LongestFirst },
  },
});
