import { describe, expect, it } from "vitest";
import { bytesToMB } from "@/app/notifications/event-mapping";
import { sizeMB } from "@/data/backups/backups";

describe("sizeMB", () => {
  it("shows bytes in MB with two decimals, and a dash when unknown", () => {
    expect(sizeMB(128.97 * 1024 * 1024)).toBe("128.97 MB");
    // The same bytes read the same in a backup notification.
    expect(sizeMB(208_450_000)).toBe(`${bytesToMB(208_450_000)} MB`);
    expect(sizeMB(0)).toBe("0.00 MB");
    expect(sizeMB(null)).toBe("—");
  });
});
