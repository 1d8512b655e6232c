import { describe, expect, it } from "vitest";
import { fieldOf } from "@/pages/backups/BackupTargetPage";

describe("fieldOf", () => {
  it("maps the field a server message names to the form field", () => {
    expect(fieldOf("endpoint: http://127.0.0.1:1/b is unreachable")).toBe("endpoint");
    expect(fieldOf("resticPassword: the repository exists and this password does not open it")).toBe("resticPassword");
    expect(fieldOf("body.bucketName: Too small")).toBe("bucketName");
    expect(fieldOf("restic was not found")).toBeUndefined();
  });
});
