import { describe, expect, it } from "vitest";
import { backoffSchedule, crashVerdict } from "./backoff.js";

const take = (next: () => number, n: number): number[] => Array.from({ length: n }, () => next());

describe("backoffSchedule", () => {
  it("starts at 25 ms and doubles to a 500 ms cap by default", () => {
    expect(take(backoffSchedule(), 8)).toEqual([25, 50, 100, 200, 400, 500, 500, 500]);
  });
  it("honours first, cap and factor, and never starts above the cap", () => {
    expect(take(backoffSchedule({ firstMs: 10, capMs: 100, factor: 3 }), 5)).toEqual([10, 30, 90, 100, 100]);
    expect(take(backoffSchedule({ firstMs: 200, capMs: 100 }), 2)).toEqual([100, 100]);
  });
  it("each schedule is independent", () => {
    const a = backoffSchedule();
    a();
    a();
    expect(backoffSchedule()()).toBe(25);
  });
});

describe("crashVerdict", () => {
  const policy = { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 300, resetAfterMs: 1000 };
  it("counts crashes in a row, doubles the wait to its cap and gives up after maxAttempts restarts", () => {
    const seen = [0, 1, 2, 3].map((before) => crashVerdict(policy, before, undefined));
    expect(seen).toEqual([
      { attempt: 1, willRestart: true, delayMs: 100 },
      { attempt: 2, willRestart: true, delayMs: 200 },
      { attempt: 3, willRestart: true, delayMs: 300 },
      { attempt: 4, willRestart: false, delayMs: 300 },
    ]);
  });
  it("starts a fresh count only after a run that stayed up resetAfterMs", () => {
    expect(crashVerdict(policy, 2, 1000).attempt).toBe(1);
    expect(crashVerdict(policy, 2, 999).attempt).toBe(3);
    // A run that never became RUNNING keeps the count, however long ago the node last ran.
    expect(crashVerdict(policy, 2, undefined).attempt).toBe(3);
  });
});
