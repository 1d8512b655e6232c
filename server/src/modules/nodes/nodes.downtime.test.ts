import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createEventBus, type BusEvent } from "../../events/bus.js";
import { idleProcessSpec } from "../../test-support/processes.js";
import { createNodeRuntime } from "./nodes.runtime.js";

/**
 * Downtime alerts (issue 10, item 11) against a real supervised process: the console's own stops and
 * restarts are not downtime; a kill -9 is, with the real minutes it lasted and the reason.
 */
const root = mkdtempSync(join(tmpdir(), "cl-downtime-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const waitFor = async <T>(what: string, fn: () => T | undefined, ms = 15_000): Promise<T> => {
  const until = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

it("reports a kill -9 as downtime with real minutes and its reason, and planned stops and restarts not at all", async () => {
  const bus = createEventBus(() => undefined);
  const events: BusEvent[] = [];
  bus.subscribe((e) => void (e.type.startsWith("node.") && e.type !== "node.status" && events.push(e)));
  const runtime = createNodeRuntime({
    repo: { update: async () => undefined, insertEvent: async () => undefined },
    bus,
    log: { warn: () => undefined },
    stateDir: join(root, "state"),
    downtimeGraceMs: 150,
    supervisor: { probeIntervalMs: 100, restart: { baseDelayMs: 600, maxDelayMs: 600, maxAttempts: 5 } },
  });
  const spec = idleProcessSpec("peer-x", root);
  runtime.track("peer-x", { id: 7, name: "peer-x" });
  const sup = runtime.supervisor;
  try {
    expect((await sup.start(spec)).status).toBe("RUNNING");

    // Planned: a stop, a start, a restart. Wait past the grace period: nothing to report.
    runtime.plan("peer-x", "stop");
    await sup.stop("peer-x");
    expect((await sup.start(spec)).status).toBe("RUNNING");
    runtime.plan("peer-x", "restart");
    expect((await sup.restart(spec)).status).toBe("RUNNING");
    await new Promise((r) => setTimeout(r, 400));
    expect(events).toEqual([]);

    // Unplanned: kill -9. The supervisor restarts it after 600 ms, past the 150 ms grace.
    const pid = sup.get("peer-x")?.pid as number;
    process.kill(pid, "SIGKILL");
    const downEv = await waitFor("node.downtime", () => events.find((e) => e.type === "node.downtime"));
    expect(downEv.data).toMatchObject({ node_id: 7, node_name: "peer-x" });
    expect(downEv.data.reason).toMatch(/SIGKILL/);
    expect(downEv.data.downtime_mins as number).toBeGreaterThan(0);
    const upEv = await waitFor("node.recovery", () => events.find((e) => e.type === "node.recovery"));
    expect(upEv.data.downtime_mins as number).toBeGreaterThanOrEqual(downEv.data.downtime_mins as number);
    expect((upEv.data.downtime_mins as number) * 60_000).toBeGreaterThan(400);
  } finally {
    await sup.stop("peer-x").catch(() => undefined);
    runtime.close();
  }
});

it("keeps the outage on the node's row, and a restored one ends with a recovery counting from its start", async () => {
  const bus = createEventBus(() => undefined);
  const events: BusEvent[] = [];
  bus.subscribe((e) => void (e.type.startsWith("node.") && e.type !== "node.status" && events.push(e)));
  const writes: Array<Record<string, unknown>> = [];
  const runtime = createNodeRuntime({
    repo: { update: async (_id, patch) => void writes.push({ ...patch }), insertEvent: async () => undefined },
    bus,
    log: { warn: () => undefined },
    stateDir: join(root, "state2"),
    downtimeGraceMs: 150,
    supervisor: { probeIntervalMs: 100, restart: { baseDelayMs: 600, maxDelayMs: 600, maxAttempts: 5 } },
  });
  const spec = idleProcessSpec("peer-y", root);
  runtime.track("peer-y", { id: 8, name: "peer-y" });
  const sup = runtime.supervisor;
  try {
    // An outage the previous console saw begin 2 minutes ago and already reported.
    const began = new Date(Date.now() - 120_000).toISOString();
    runtime.restoreDown({ id: 8, name: "peer-y" }, { since: began, reason: "signal SIGKILL", alerted: true });
    expect((await sup.start(spec)).status).toBe("RUNNING");
    const upEv = await waitFor("node.recovery", () => events.find((e) => e.type === "node.recovery"));
    expect(upEv.data).toMatchObject({ node_id: 8, reason: "signal SIGKILL" });
    expect(upEv.data.downtime_mins as number).toBeGreaterThanOrEqual(2);
    expect(events.filter((e) => e.type === "node.downtime")).toEqual([]);
    await runtime.settle(8);
    expect(writes).toContainEqual({ down_since: null, down_reason: null, down_alerted: 0 });

    // A new crash is written to the row when it begins, and again when its alert goes out.
    writes.length = 0;
    process.kill(sup.get("peer-y")?.pid as number, "SIGKILL");
    await waitFor("node.downtime", () => events.find((e) => e.type === "node.downtime"));
    await runtime.settle(8);
    const begin = writes.find((w) => typeof w.down_since === "string");
    expect(begin).toMatchObject({ down_reason: expect.stringMatching(/SIGKILL/), down_alerted: 0 });
    expect(writes).toContainEqual({ down_alerted: 1 });
  } finally {
    await sup.stop("peer-y").catch(() => undefined);
    runtime.close();
  }
});
