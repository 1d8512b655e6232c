import { describe, expect, it } from "vitest";
import { updateOutcomeText } from "@/data/nodes/node-status";

describe("updateOutcomeText", () => {
  it("says a running node restarts to apply the change", () => {
    expect(updateOutcomeText("peer0", "RUNNING")).toBe("peer0 is restarting to apply the new configuration.");
  });
  it("says a stopped node takes it at its next start, not that it restarts", () => {
    expect(updateOutcomeText("peer0", "STOPPED")).toBe(
      "peer0 is not running; the new configuration applies when it next starts.",
    );
  });
});
