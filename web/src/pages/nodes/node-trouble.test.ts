import { describe, expect, it } from "vitest";
import { nodeTrouble } from "@/pages/nodes/node-trouble";

describe("nodeTrouble", () => {
  it("says why a node failed, without the log lines the message quotes", () => {
    const t = nodeTrouble(
      "ERROR",
      "failed: exit code 1: Error: bind: address already in use\ncrashed 6 times in a row, restarted 5 times; no more restarts\nlast log lines:\nline a\nline b",
    );
    expect(t).toEqual({
      kind: "failed",
      headline: "failed: exit code 1: Error: bind: address already in use",
      details: ["crashed 6 times in a row, restarted 5 times; no more restarts"],
    });
  });
  it("prefixes a reason the console decided itself, and has a headline without one", () => {
    expect(nodeTrouble("ERROR", "besu binary not found")?.headline).toBe("failed: besu binary not found");
    expect(nodeTrouble("ERROR", undefined)?.headline).toBe("failed");
    expect(nodeTrouble("ERROR", "failed: not ready within 60 s: panic: x; last log lines:\na")?.headline).toBe(
      "failed: not ready within 60 s: panic: x",
    );
  });
  it("tells a restart after a crash from a first start", () => {
    expect(nodeTrouble("STARTING", "restarting in 2 s (attempt 2 of 5) after exit code 1")).toEqual({
      kind: "restarting",
      headline: "restarting in 2 s (attempt 2 of 5) after exit code 1",
      details: [],
    });
    expect(nodeTrouble("STARTING", undefined)).toBeNull();
    expect(nodeTrouble("RUNNING", "stale")).toBeNull();
  });
});
