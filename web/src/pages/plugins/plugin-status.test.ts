import { describe, expect, it } from "vitest";
import { pluginActions, pluginRuntime, pluginStatusLabel } from "@/pages/plugins/plugin-status";

describe("plugin status", () => {
  it("labels statuses", () => {
    expect(pluginStatusLabel("not-deployed")).toBe("Not deployed");
    expect(pluginStatusLabel(undefined)).toBe("Not deployed");
    expect(pluginStatusLabel("running")).toBe("Running");
    expect(pluginStatusLabel("weird")).toBe("weird");
  });

  it("offers the actions that fit the status", () => {
    expect(pluginActions("not-deployed", false)).toEqual({ deploy: true, stop: false, resume: false });
    expect(pluginActions("running", true)).toEqual({ deploy: false, stop: true, resume: false });
    expect(pluginActions("stopped", true)).toEqual({ deploy: true, stop: false, resume: true });
    expect(pluginActions("stopped", false)).toEqual({ deploy: true, stop: false, resume: false });
    expect(pluginActions("error", true)).toEqual({ deploy: true, stop: true, resume: true });
    expect(pluginActions("deploying", true)).toEqual({ deploy: false, stop: false, resume: false });
  });

  it("tells processes from compose", () => {
    expect(pluginRuntime({ spec: { parameters: {}, processes: [] } })).toBe("process");
    expect(pluginRuntime({ spec: { parameters: {}, dockerCompose: { contents: "x" } } })).toBe("compose");
  });
});
