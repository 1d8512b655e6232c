import { describe, expect, it } from "vitest";
import { asFailure, withReasonLine } from "./nodes.runtime.js";

describe("withReasonLine", () => {
  it("adds the last decisive log line to the message's first line", () => {
    const lines = [
      "2026-11-27 21:00:00.000 UTC 0001 INFO [nodeCmd] serve -> Starting peer:",
      "2026-11-27 21:00:00.100 UTC 0002 ERRO [comm.grpc.server] listen tcp 127.0.0.1:7051: bind: address already in use",
      "Error: failed to initialize operations subsystem: listen tcp 127.0.0.1:9443: bind: address already in use",
      "goroutine 1 [running]:",
    ];
    expect(asFailure(withReasonLine("exit code 1\ncrashed 6 times in a row\nlast log lines:\n…", lines))).toBe(
      "failed: exit code 1: Error: failed to initialize operations subsystem: listen tcp 127.0.0.1:9443: bind: address already in use\ncrashed 6 times in a row\nlast log lines:\n…",
    );
  });
  it("leaves the message as it is when no line explains it", () => {
    expect(withReasonLine("restarting in 1 s (attempt 1 of 5) after signal SIGKILL", ["INFO ok"])).toBe(
      "restarting in 1 s (attempt 1 of 5) after signal SIGKILL",
    );
  });
  it("keeps a one-line log quote after the reason", () => {
    expect(withReasonLine("not ready within 60 s; last log lines:\nx", ["panic: boom"])).toBe(
      "not ready within 60 s: panic: boom; last log lines:\nx",
    );
  });
  it("says failed once", () => {
    expect(asFailure("failed: x")).toBe("failed: x");
    expect(asFailure("besu binary not found")).toBe("failed: besu binary not found");
  });
});
