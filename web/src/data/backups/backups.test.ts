import { describe, expect, it } from "vitest";
import { sizeMB } from "@/data/backups/backups";

describe("sizeMB", () => {
  it("shows bytes in MB with two decimals, and a dash when unknown", () => {
    expect(sizeMB(128_970_000)).toBe("128.97 MB");
    expect(sizeMB(0)).toBe("0.00 MB");
    expect(sizeMB(null)).toBe("—");
  });
});
