import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createSupervisor } from "./supervisor.js";

const root = mkdtempSync(join(tmpdir(), "cl-sup-backoff-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("probes a starting process soon after spawn and backs off, instead of a fixed interval", async () => {
  // probeIntervalMs is the cap: with a fixed 1 s interval, three probes took over 2 s.
  const sup = createSupervisor({ stateDir: root, probeIntervalMs: 1000, stopTimeoutMs: 3000 });
  const probedAt: number[] = [];
  const t0 = Date.now();
  try {
    const state = await sup.start({
      id: "backoff-node",
      command: process.execPath,
      args: ["-e", "process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1000);"],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      cwd: root,
      // Ready on the third probe, like a node whose port opens a little after spawn.
      probe: async () => probedAt.push(Date.now() - t0) >= 3,
      startTimeoutMs: 10_000,
    });
    expect(state.status).toBe("RUNNING");
    expect(probedAt).toHaveLength(3);
    // Delays of 25 then 50 ms (plus spawn and scheduling): well under one 1 s interval.
    expect(probedAt[2]! - probedAt[0]!).toBeLessThan(500);
  } finally {
    await sup.stop("backoff-node").catch(() => undefined);
    sup.close();
  }
});
