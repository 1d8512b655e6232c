import { describe, expect, it } from "vitest";
import { newNonce } from "./genesis.js";

describe("newNonce", () => {
  it("draws each nonce fresh from the pool, 24 bytes, unchanged when the pool is refilled", () => {
    const first = newNonce();
    const copy = Buffer.from(first);
    const seen = new Set<string>([copy.toString("hex")]);
    for (let i = 0; i < 1000; i++) {
      const n = newNonce();
      expect(n.length).toBe(24);
      seen.add(Buffer.from(n).toString("hex"));
    }
    expect(seen.size).toBe(1001);
    expect(Buffer.from(first).equals(copy)).toBe(true);
  });
});
