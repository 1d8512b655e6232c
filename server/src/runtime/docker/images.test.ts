import { describe, expect, it } from "vitest";
import { registryOf } from "./images.js";

describe("registryOf", () => {
  it("names the registry host of an image, none for Docker Hub's", () => {
    expect(registryOf("127.0.0.1:5000/cl-test/asset-go:1")).toBe("127.0.0.1:5000");
    expect(registryOf("registry.example.com/team/cc:2")).toBe("registry.example.com");
    expect(registryOf("localhost/cc:1")).toBe("localhost");
    expect(registryOf("hyperledger/besu:24.1")).toBeUndefined();
    expect(registryOf("busybox:1")).toBeUndefined();
  });
});
