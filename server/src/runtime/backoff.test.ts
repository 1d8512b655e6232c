import { describe, expect, it } from "vitest";
import { backoffSchedule } from "./backoff.js";

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
