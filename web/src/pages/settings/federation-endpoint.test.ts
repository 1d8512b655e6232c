import { describe, expect, it } from "vitest";
import { FEDERATION_ENDPOINT_PATTERN } from "@/pages/settings/federation-endpoint";

describe("federation endpoint rule", () => {
  it("takes empty or an http(s) URL", () => {
    for (const ok of ["", "https://console.example.com", "http://127.0.0.1:8100", "https://a.example/base/path"]) {
      expect(FEDERATION_ENDPOINT_PATTERN.test(ok)).toBe(true);
    }
  });
  it("refuses other schemes, missing hosts and spaces", () => {
    for (const bad of ["console.example.com", "ftp://a.example", "https://", "https://a b.example", "https:///x"]) {
      expect(FEDERATION_ENDPOINT_PATTERN.test(bad)).toBe(false);
    }
  });
});
