import { describe, expect, it } from "vitest";
import { lineLevel, lineTimestamp, logHead } from "./node-log-format.js";

const read = (line: string) => {
  const head = logHead(line);
  return { level: lineLevel(head), ts: lineTimestamp(head) };
};

describe("log line levels and timestamps", () => {
  it("reads Fabric's lines, with and without colour codes and the sequence number", () => {
    expect(read("2025-06-01 10:20:30.123 UTC INFO [nodeCmd] serve -> Starting peer:")).toEqual({
      level: "INFO",
      ts: "2025-06-01 10:20:30.123 UTC",
    });
    expect(read("\x1b[31m2025-06-01 10:20:30.123 UTC 0042 ERRO\x1b[0m [gossip] x -> failed")).toEqual({
      level: "ERROR",
      ts: "2025-06-01 10:20:30.123 UTC",
    });
    expect(read("2025-06-01 10:20:30.123 UTC 0001 WARN [peer] ...").level).toBe("WARN");
    expect(read("2025-06-01 10:20:30.123 UTC 0001 DEBU [peer] ...").level).toBe("DEBUG");
    expect(read("2025-06-01 10:20:30.123 UTC 0001 PANI [peer] ...").level).toBe("PANIC");
  });

  it("reads Besu's and logfmt lines", () => {
    expect(read("2025-06-01 10:20:30.123+00:00 | main | INFO  | Besu | Starting Besu")).toEqual({
      level: "INFO",
      ts: "2025-06-01 10:20:30.123+00:00",
    });
    expect(read("2025-06-01T10:20:30Z | vert.x | WARNING | x").level).toBe("WARN");
    expect(read('time=2025-06-01T10:20:30Z level=error msg="boom"')).toEqual({ level: "ERROR", ts: undefined });
  });

  it("finds nothing in continuation lines or words that merely contain a level", () => {
    expect(read(" Version: 3.1.0")).toEqual({ level: undefined, ts: undefined });
    expect(read("INFORMATION about ERRORS")).toEqual({ level: undefined, ts: undefined });
    expect(read(`${"x".repeat(300)} ERROR`).level).toBeUndefined();
  });
});
