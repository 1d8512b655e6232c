import { describe, expect, it } from "vitest";
import { invalidRegistry, parseRegistries } from "@/pages/settings/plugin-registries";

describe("plugin registries field", () => {
  it("keeps one URL per non-blank line", () => {
    expect(parseRegistries(" https://a.example/index.json \n\nhttp://b/x.json\n")).toEqual([
      "https://a.example/index.json",
      "http://b/x.json",
    ]);
  });
  it("names the first line that is not an http(s) URL", () => {
    expect(invalidRegistry(["https://a/i.json", "ftp://b", "c"])).toBe("ftp://b");
    expect(invalidRegistry(["https://a/i.json"])).toBeNull();
  });
});
