import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventBus, type BusEvent } from "../../events/bus.js";
import { createTestApp, createUser, type TestApp } from "../../test-support/test-app.js";
import { backupProgressMapper } from "./backup-progress.js";
import { operationDetail, operationPhase, tracked, withOperation } from "./operation-scope.js";
import { createOperations, OPERATION_EVENT, type OperationState } from "./operations.js";

/** A registry on a clock the test moves, and the events it published. */
function setup(opts: { keepMs?: number; maxFinished?: number } = {}) {
  let t = Date.parse("2026-01-01T00:00:00Z");
  const events: OperationState[] = [];
  const bus = createEventBus((err) => {
    throw err;
  });
  bus.subscribe((e) => {
    if (e.type === OPERATION_EVENT) events.push(e.data as unknown as OperationState);
  });
  const ops = createOperations({ bus, now: () => t, ...opts });
  return { ops, bus, events, tick: (ms: number) => (t += ms) };
}

describe("operations registry", () => {
  it("walks the phases, timing each, and publishes every change", () => {
    const { ops, events, tick } = setup();
    const op = ops.begin({ kind: "project.run", resource: "chaincode_project:3", label: "Run a", phases: ["a", "b"] });
    op.phase("a");
    tick(1500);
    op.phase("b", "npm install");
    tick(500);
    op.progress({ detail: "npm run build" });
    op.progress({ detail: "npm run build" }); // no change, no event
    tick(250);
    op.succeed();
    const [done] = ops.list({ resource: "chaincode_project:3" });
    expect(done).toMatchObject({
      status: "succeeded",
      phase: "b",
      phases: ["a", "b"],
      durations: { a: 1500, b: 750 },
      startedAt: "2026-01-01T00:00:00.000Z",
      finishedAt: "2026-01-01T00:00:02.250Z",
      error: null,
    });
    expect(events.map((e) => [e.status, e.phase, e.detail])).toEqual([
      ["running", null, null],
      ["running", "a", null],
      ["running", "b", "npm install"],
      ["running", "b", "npm run build"],
      ["succeeded", "b", null],
    ]);
    // Nothing changes after the end.
    op.phase("c");
    op.fail(new Error("late"));
    expect(events).toHaveLength(5);
  });

  it("answers a reload with the running phase and the real start", () => {
    const { ops, tick } = setup();
    const op = ops.begin({ kind: "backup", resource: "backup:7", label: "Backup", phases: ["files", "upload"] });
    op.phase("files");
    tick(40_000);
    op.phase("upload");
    op.progress({ percent: 41.6 });
    tick(2_000);
    const [now] = ops.list({ kind: "backup" });
    expect(now).toMatchObject({
      status: "running",
      phase: "upload",
      percent: 42,
      startedAt: "2026-01-01T00:00:00.000Z",
      phaseStartedAt: "2026-01-01T00:00:40.000Z",
    });
    expect(ops.running("backup:7")?.id).toBe(op.id);
    expect(ops.list({ resource: "backup:8" })).toEqual([]);
  });

  it("inserts a phase that was not planned after the current one", () => {
    const { ops } = setup();
    const op = ops.begin({
      kind: "project.run",
      resource: "chaincode_project:1",
      label: "Run",
      phases: ["run", "commit"],
    });
    op.phase("run");
    op.phase("verify");
    expect(ops.list()[0]?.phases).toEqual(["run", "verify", "commit"]);
  });

  it("records the error of a failed operation", () => {
    const { ops } = setup();
    const op = ops.begin({
      kind: "chaincode.deploy",
      resource: "chaincode_definition:5",
      label: "D",
      phases: ["build"],
    });
    op.phase("build");
    op.fail(new Error("source: src/a.ts(3,1): error TS1005"));
    expect(ops.list()[0]).toMatchObject({ status: "failed", error: "source: src/a.ts(3,1): error TS1005" });
  });

  it("keeps finished operations for a while, then drops them; running ones stay", () => {
    const { ops, tick } = setup({ keepMs: 60_000 });
    const done = ops.begin({ kind: "backup", resource: "backup:1", label: "B", phases: [] });
    done.succeed();
    const running = ops.begin({ kind: "backup", resource: "backup:2", label: "B", phases: [] });
    tick(59_000);
    expect(ops.list().map((o) => o.resource)).toEqual(["backup:2", "backup:1"]);
    tick(2_000);
    expect(ops.list().map((o) => o.id)).toEqual([running.id]);
    tick(3_600_000);
    expect(ops.list().map((o) => o.id)).toEqual([running.id]);
  });

  it("keeps at most maxFinished finished operations, dropping the oldest", () => {
    const { ops, tick } = setup({ maxFinished: 2 });
    for (let i = 1; i <= 4; i++) {
      ops.begin({ kind: "backup", resource: `backup:${i}`, label: "B", phases: [] }).succeed();
      tick(10);
    }
    expect(ops.list().map((o) => o.resource)).toEqual(["backup:4", "backup:3"]);
  });

  it("filters by kind prefix", () => {
    const { ops } = setup();
    ops.begin({ kind: "chaincode.install", resource: "chaincode_definition:1", label: "I", phases: [] });
    ops.begin({ kind: "backup", resource: "backup:1", label: "B", phases: [] });
    expect(ops.list({ kind: "chaincode." }).map((o) => o.kind)).toEqual(["chaincode.install"]);
  });
});

describe("operation scope", () => {
  it("tracks nested work: phases go to the innermost operation, details to all", async () => {
    const { ops } = setup();
    const outer = ops.begin({ kind: "project.run", resource: "chaincode_project:1", label: "Run", phases: ["build"] });
    outer.phase("build");
    await withOperation(outer, () =>
      tracked(
        ops,
        { kind: "chaincode.deploy", resource: "chaincode_definition:2", label: "Deploy", phases: ["build", "start"] },
        async () => {
          await new Promise((r) => setTimeout(r, 1));
          operationDetail("npm install");
          operationPhase("start");
        },
      ),
    );
    const inner = ops.list({ resource: "chaincode_definition:2" })[0];
    expect(inner).toMatchObject({ status: "succeeded", phase: "start", phases: ["build", "start"] });
    expect(ops.list({ resource: "chaincode_project:1" })[0]).toMatchObject({
      status: "running",
      phase: "build",
      detail: "npm install",
    });
  });

  it("keeps each running step's operation while others settle, and lets go of it when none runs", async () => {
    const { ops } = setup();
    const a = ops.begin({ kind: "project.run", resource: "chaincode_project:a", label: "A", phases: [] });
    const b = ops.begin({ kind: "project.run", resource: "chaincode_project:b", label: "B", phases: [] });
    const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));
    let straggler: Promise<void> | undefined;
    const runA = withOperation(a, async () => {
      await tick(30);
      operationPhase("a-after-b-settled");
    });
    await withOperation(b, async () => {
      operationPhase("b-step");
      // Not awaited: still running when B's step has settled.
      straggler = tick(60).then(() => operationPhase("b-straggler"));
    });
    await runA;
    await straggler;
    expect(ops.list({ resource: "chaincode_project:a" })[0]).toMatchObject({ phase: "a-after-b-settled" });
    // No step ran any more when the straggler reported: it reached no operation (B itself still runs).
    expect(ops.list({ resource: "chaincode_project:b" })[0]).toMatchObject({ status: "running", phase: "b-step" });
    // A new step has its scope again.
    await withOperation(b, async () => {
      await tick(1);
      operationPhase("b-again");
    });
    expect(ops.list({ resource: "chaincode_project:b" })[0]).toMatchObject({ phase: "b-again" });
  });

  it("settles the count when a step throws before returning a promise", async () => {
    const { ops } = setup();
    const a = ops.begin({ kind: "project.run", resource: "chaincode_project:c", label: "C", phases: [] });
    expect(() =>
      withOperation(a, () => {
        throw new Error("synchronous");
      }),
    ).toThrow("synchronous");
    await withOperation(a, async () => {
      await new Promise((r) => setTimeout(r, 1));
      operationPhase("after-throw");
    });
    expect(ops.list({ resource: "chaincode_project:c" })[0]).toMatchObject({ phase: "after-throw" });
  });

  it("fails the operation with the step's error and rethrows it", async () => {
    const { ops } = setup();
    await expect(
      tracked(
        ops,
        { kind: "chaincode.commit", resource: "chaincode_definition:3", label: "C", phases: ["commit"] },
        () => Promise.reject(new Error("not enough approvals")),
      ),
    ).rejects.toThrow("not enough approvals");
    expect(ops.list()[0]).toMatchObject({ status: "failed", phase: "commit", error: "not enough approvals" });
  });
});

describe("backup progress mapping", () => {
  const event = (data: Record<string, unknown>): BusEvent => ({
    type: "backup.progress",
    data: { backup_id: 7, target_name: "s3-main", ...data },
    timestamp: "",
  });

  it("turns backup.progress events into one backup operation with phases", () => {
    const { ops } = setup();
    const map = backupProgressMapper(ops);
    map(event({ status: "running", phase: "starting", percent: 0 }));
    map(event({ status: "running", phase: "database", percent: 0 }));
    map(event({ status: "running", phase: "node peer0", percent: 0 }));
    expect(ops.list()[0]).toMatchObject({
      kind: "backup",
      resource: "backup:7",
      label: "Backup to s3-main",
      phase: "nodes",
      detail: "peer0",
      status: "running",
    });
    map(event({ status: "running", phase: "upload", percent: 55 }));
    expect(ops.list()[0]).toMatchObject({ phase: "upload", percent: 55 });
    map(event({ status: "completed", phase: "done", percent: 100 }));
    expect(ops.list()).toHaveLength(1);
    expect(ops.list()[0]).toMatchObject({ status: "succeeded", phase: "upload" });
  });

  it("records a failed backup's reason", () => {
    const { ops } = setup();
    const map = backupProgressMapper(ops);
    map(event({ status: "running", phase: "starting" }));
    map(event({ status: "failed", phase: "failed", error: "no backup recovery key yet" }));
    expect(ops.list()[0]).toMatchObject({ status: "failed", error: "no backup recovery key yet" });
  });
});

describe("GET /operations", () => {
  let t: TestApp;
  let viewer: { authorization: string };
  beforeAll(async () => {
    t = await createTestApp("sqlite");
    viewer = await createUser(t, "ops-viewer", "viewer");
  });
  afterAll(async () => t.close());

  it("lets a viewer read a running backup's progress after a reload, with the server's clock", async () => {
    t.bus.publish("backup.progress", { backup_id: 41, target_name: "t", status: "running", phase: "starting" });
    t.bus.publish("backup.progress", { backup_id: 41, target_name: "t", status: "running", phase: "files" });
    const res = await t.app.inject({ method: "GET", url: "/api/v1/operations?resource=backup:41", headers: viewer });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ operations: OperationState[]; serverTime: string }>();
    expect(body.operations).toHaveLength(1);
    expect(body.operations[0]).toMatchObject({ kind: "backup", phase: "files", status: "running" });
    expect(body.operations[0]?.phases).toContain("upload");
    expect(Date.parse(body.serverTime)).toBeGreaterThanOrEqual(Date.parse(body.operations[0]!.startedAt));
    t.bus.publish("backup.progress", { backup_id: 41, target_name: "t", status: "completed", phase: "done" });
    const after = await t.app.inject({ method: "GET", url: "/api/v1/operations?kind=backup", headers: viewer });
    expect(after.json<{ operations: OperationState[] }>().operations[0]?.status).toBe("succeeded");
  });

  it("names the field of a bad filter and refuses anonymous callers", async () => {
    const bad = await t.app.inject({ method: "GET", url: "/api/v1/operations?resource=backup", headers: t.admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain("resource");
    const anon = await t.app.inject({ method: "GET", url: "/api/v1/operations" });
    expect(anon.statusCode).toBe(401);
  });
});
