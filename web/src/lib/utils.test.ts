import { describe, expect, it } from "vitest";
import { formatDateTime, isZeroTime } from "./utils";

describe("formatDateTime", () => {
  it("shows a dash for no time and for Go's zero time (never), and a date otherwise", () => {
    expect(formatDateTime(null)).toBe("—");
    expect(formatDateTime("0001-01-01T00:00:00Z")).toBe("—");
    expect(isZeroTime("0001-01-01T00:00:00Z")).toBe(true);
    expect(isZeroTime("2026-11-27T10:00:00Z")).toBe(false);
    expect(formatDateTime("2026-11-27T10:00:00Z")).toMatch(/2026/);
    expect(formatDateTime("not a date")).toBe("Invalid date");
  });
});
