import { describe, expect, it } from "vitest";
import { uptimeOf, uptimeTone, type HealthCheck } from "@/pages/analytics/uptime";

const c = (minute: number, status: HealthCheck["status"]): HealthCheck => ({
  checkedAt: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
  status,
});

describe("uptimeOf", () => {
  it("is null without checks", () => {
    expect(uptimeOf([])).toEqual({ percent: null, total: 0, healthy: 0, upSince: null, upSinceBeforeWindow: false });
  });

  it("is the healthy share of checks, rounded to one decimal", () => {
    const u = uptimeOf([c(0, "healthy"), c(1, "unhealthy"), c(2, "healthy")]);
    expect(u.percent).toBe(66.7);
    expect(u.healthy).toBe(2);
    expect(u.total).toBe(3);
  });

  it("dates the current healthy run from the first healthy check after the last failure, in any order", () => {
    const u = uptimeOf([c(4, "healthy"), c(1, "healthy"), c(3, "healthy"), c(2, "unreachable")]);
    expect(u.upSince).toBe(c(3, "healthy").checkedAt);
    expect(u.upSinceBeforeWindow).toBe(false);
  });

  it("says the run reaches past the window when every check is healthy", () => {
    const u = uptimeOf([c(1, "healthy"), c(2, "healthy")]);
    expect(u.percent).toBe(100);
    expect(u.upSince).toBe(c(1, "healthy").checkedAt);
    expect(u.upSinceBeforeWindow).toBe(true);
  });

  it("has no up-since when the latest check failed", () => {
    expect(uptimeOf([c(1, "healthy"), c(2, "unhealthy")]).upSince).toBeNull();
  });
});

describe("uptimeTone", () => {
  it("goes green, amber, red", () => {
    expect(uptimeTone(100)).toContain("green");
    expect(uptimeTone(95)).toContain("amber");
    expect(uptimeTone(50)).toContain("red");
    expect(uptimeTone(null)).toContain("muted");
  });
});
