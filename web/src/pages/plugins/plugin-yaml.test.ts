import { describe, expect, it } from "vitest";
import { ApiError } from "@/api/errors";
import { describeProblem, markersOf, NEW_PLUGIN_TEMPLATE, problemsFromError } from "@/pages/plugins/plugin-yaml";

describe("plugin YAML problems", () => {
  it("reads details.errors of a rejected save", () => {
    const e = new ApiError(400, "INPUT", "spec.parameters.properties.port.type: must be one of … (line 12, column 9)", {
      details: {
        errors: [
          { path: "spec.parameters.properties.port.type", message: "must be a string", line: 12, column: 9 },
          { path: "spec", message: "needs exactly one of 'processes' and 'dockerCompose'" },
          { nope: true },
        ],
      },
    });
    expect(problemsFromError(e)).toEqual([
      { path: "spec.parameters.properties.port.type", message: "must be a string", line: 12, column: 9 },
      { path: "spec", message: "needs exactly one of 'processes' and 'dockerCompose'" },
    ]);
  });

  it("falls back to the message's parts, with their line and column", () => {
    const e = new ApiError(
      400,
      "INPUT",
      "metadata.name: must match pattern (line 4, column 9); YAML: bad indentation (line 7, column 3)",
    );
    expect(problemsFromError(e)).toEqual([
      { path: "metadata.name", message: "must match pattern", line: 4, column: 9 },
      { path: "", message: "YAML: bad indentation", line: 7, column: 3 },
    ]);
    expect(problemsFromError(new ApiError(409, "CONFLICT", "plugin gw already exists"))).toEqual([]);
    expect(problemsFromError(new Error("offline"))).toEqual([]);
  });

  it("marks the problems that have a place and lists them as line:column path message", () => {
    const problems = [
      { path: "metadata.name", message: "must match pattern", line: 4, column: 9 },
      { path: "spec", message: "needs processes" },
    ];
    expect(markersOf(problems)).toEqual([{ line: 4, column: 9, message: "metadata.name: must match pattern" }]);
    expect(problems.map(describeProblem)).toEqual(["4:9 metadata.name must match pattern", "spec needs processes"]);
  });

  it("starts new plugins from a process plugin", () => {
    expect(NEW_PLUGIN_TEMPLATE).toMatch(/^kind: Plugin$/m);
    expect(NEW_PLUGIN_TEMPLATE).toMatch(/^ {2}processes:$/m);
    expect(NEW_PLUGIN_TEMPLATE).not.toMatch(/dockerCompose/);
  });
});
