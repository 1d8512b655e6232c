import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ToolMissingError } from "../http/errors.js";
import { resolveRestic } from "../modules/backups/restic.js";
import { resolvePrometheus } from "../modules/metrics/prometheus-binary.js";
import { findExecutable } from "./tools.js";

const dir = mkdtempSync(join(tmpdir(), "tools-"));
const tool = join(dir, "mytool");
writeFileSync(tool, "#!/bin/sh\n");
chmodSync(tool, 0o755);
const plain = join(dir, "notexec");
writeFileSync(plain, "");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("findExecutable", () => {
  const none = { envVar: "X_BIN", value: undefined };
  it("finds a tool on PATH, skipping folders without it", () => {
    expect(findExecutable("mytool", none, `/nonexistent:${dir}`)).toEqual({ path: tool });
  });
  it("uses only the configured path when one is set", () => {
    expect(findExecutable("mytool", { envVar: "X_BIN", value: tool }, "")).toEqual({ path: tool });
    expect(findExecutable("mytool", { envVar: "X_BIN", value: plain }, dir)).toEqual({
      problem: `X_BIN=${plain} is not executable`,
    });
  });
  it("says when it is not on PATH", () => {
    expect(findExecutable("mytool", none, "/nonexistent")).toEqual({ problem: "not on PATH" });
  });
});

describe("the tools features run", () => {
  it.each([
    ["restic", () => resolveRestic({ PATH: "/nonexistent" }), "RESTIC_MISSING", "CHAINLAUNCH_RESTIC_BIN"],
    [
      "prometheus",
      () => resolvePrometheus({ PATH: "/nonexistent" }),
      "PROMETHEUS_MISSING",
      "CHAINLAUNCH_PROMETHEUS_BIN",
    ],
  ])("%s: a 503 naming how to install it", (name, resolve, code, envVar) => {
    try {
      resolve();
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ToolMissingError);
      expect(err).toMatchObject({ status: 503, code });
      expect((err as Error).message).toBe(
        `${name} was not found (not on PATH); install it (Debian: apt-get install ${name}) or set ${envVar}`,
      );
    }
  });
});
