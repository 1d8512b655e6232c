import { describe, expect, it } from "vitest";
import { classifyExpiry, expiryLabel } from "@/lib/certificates/expiry";

const now = new Date("2026-06-01T00:00:00Z");

describe("classifyExpiry", () => {
  it("flags expired certificates", () => {
    const info = classifyExpiry("2026-05-29T00:00:00Z", "2025-01-01T00:00:00Z", now);
    expect(info).toEqual({ status: "expired", daysLeft: -3 });
    expect(expiryLabel(info)).toBe("Expired 3 days ago");
  });

  it("warns within 30 days, inclusive", () => {
    expect(classifyExpiry("2026-07-01T00:00:00Z", null, now).status).toBe("expiring");
    expect(classifyExpiry("2026-06-13T00:00:00Z", null, now)).toEqual({ status: "expiring", daysLeft: 12 });
    expect(expiryLabel(classifyExpiry("2026-06-13T00:00:00Z", null, now))).toBe("Expires in 12 days");
    expect(classifyExpiry("2026-07-01T00:00:01Z", null, now).status).toBe("valid");
  });

  it("knows certificates that are not valid yet", () => {
    expect(classifyExpiry("2027-01-01T00:00:00Z", "2026-07-01T00:00:00Z", now).status).toBe("not-yet-valid");
  });

  it("labels long-lived certificates in years", () => {
    expect(expiryLabel(classifyExpiry("2036-06-01T00:00:00Z", null, now))).toBe("Valid for 10 years");
    expect(expiryLabel(classifyExpiry("2036-05-29T00:00:00Z", null, now))).toBe("Valid for 10 years");
    expect(expiryLabel(classifyExpiry("2026-09-01T00:00:00Z", null, now))).toBe("Valid for 92 days");
  });

  it("says today on the last day", () => {
    expect(expiryLabel(classifyExpiry("2026-06-01T05:00:00Z", null, now))).toBe("Expires today");
  });
});
