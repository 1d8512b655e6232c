import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formatElapsed, OperationStepper, phaseStates } from "@/components/OperationProgress";
import { clockSkew, matchesFilter, upsertOperation, type Operation } from "@/data/operations/operations";

const base: Operation = {
  id: "a",
  kind: "project.run",
  resource: "chaincode_project:3",
  label: "Run assets",
  phases: ["prepare", "build", "install", "run"],
  phase: "build",
  phaseStartedAt: "2026-01-01T00:00:05.000Z",
  durations: { prepare: 5000 },
  detail: "npm install",
  percent: null,
  status: "running",
  error: null,
  startedAt: "2026-01-01T00:00:00.000Z",
  finishedAt: null,
  user: "admin",
};

describe("operation progress", () => {
  it("marks the phases before the current one done and the later ones pending", () => {
    expect(phaseStates(base)).toEqual(["done", "running", "pending", "pending"]);
    expect(phaseStates({ ...base, status: "failed" })).toEqual(["done", "failed", "pending", "pending"]);
    expect(phaseStates({ ...base, phase: "run", status: "succeeded" })).toEqual(["done", "done", "done", "done"]);
  });

  it("formats elapsed time as m:ss, and h:mm:ss past an hour", () => {
    expect(formatElapsed(46_400)).toBe("0:46");
    expect(formatElapsed(94_000)).toBe("1:34");
    expect(formatElapsed(3_723_000)).toBe("1:02:03");
    expect(formatElapsed(-5)).toBe("0:00");
  });

  it("shows the phases, the current one highlighted with its step, and a finished one's total", () => {
    const running = renderToStaticMarkup(<OperationStepper operation={base} />);
    expect(running).toContain('aria-current="step"');
    expect(running).toMatch(/data-phase="build" data-state="running"/);
    expect(running).toContain("npm install");
    expect(running).toContain("Start server");
    const done = renderToStaticMarkup(
      <OperationStepper
        operation={{ ...base, phase: "run", status: "succeeded", finishedAt: "2026-01-01T00:00:46.000Z" }}
      />,
    );
    expect(done).toContain("done in 0:46");
    expect(done).not.toContain("aria-current");
    const failed = renderToStaticMarkup(
      <OperationStepper
        operation={{ ...base, status: "failed", error: "build: src/a.ts:3:1: error", finishedAt: base.phaseStartedAt }}
      />,
    );
    expect(failed).toContain("failed after 0:05");
    expect(failed).toContain("build: src/a.ts:3:1: error");
  });

  it("puts a live update into the lists it belongs to, replacing its older state", () => {
    expect(matchesFilter(base, { resource: "chaincode_project:3" })).toBe(true);
    expect(matchesFilter(base, { resource: "chaincode_project:4" })).toBe(false);
    expect(matchesFilter(base, { kind: "project." })).toBe(true);
    expect(matchesFilter(base, { kind: "backup" })).toBe(false);
    const older = { ...base, id: "old", startedAt: "2025-12-31T00:00:00.000Z" };
    const next = upsertOperation([base, older], { ...base, phase: "install" });
    expect(next.map((o) => [o.id, o.phase])).toEqual([
      ["a", "install"],
      ["old", "build"],
    ]);
  });

  it("corrects a browser clock that is seconds off, not the request's own delay", () => {
    expect(clockSkew(10_000, 9_000, 10_800)).toBe(0);
    expect(clockSkew(70_000, 9_000, 11_000)).toBe(60_000);
    expect(clockSkew(0, 9_000, 11_000)).toBe(-10_000);
  });
});
