import { defineConfig } from "vitest/config";

/** One real server for the run (global setup); spec files run one at a time on 2 cores. */
export default defineConfig({
  test: {
    include: ["specs/**/*.test.ts"],
    globalSetup: ["./support/global-setup.ts"],
    setupFiles: ["./support/failure-diagnostics.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
