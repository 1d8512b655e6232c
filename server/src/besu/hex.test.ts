import { randomBytes } from "node:crypto";
import * as viem from "viem";
import { describe, expect, it } from "vitest";
import { bytesToHex, fromRlp, getAddress, hexToBytes, toRlp, type RlpItem } from "./hex.js";

/** A random RLP tree with byte strings of the lengths that hit every length form. */
function randomItem(depth: number): RlpItem {
  if (depth > 0 && Math.random() < 0.4) {
    return Array.from({ length: Math.floor(Math.random() * 5) }, () => randomItem(depth - 1));
  }
  const lengths = [0, 1, 1, 2, 55, 56, 200, 1024];
  return bytesToHex(randomBytes(lengths[Math.floor(Math.random() * lengths.length)]!));
}

describe("besu hex helpers (checked against viem, which the server no longer loads at start-up)", () => {
  it("encodes and decodes RLP exactly as viem does", () => {
    for (let i = 0; i < 300; i++) {
      const item = randomItem(3);
      const ours = toRlp(item);
      expect(ours).toBe(viem.toRlp(item as Parameters<typeof viem.toRlp>[0]));
      expect(fromRlp(ours)).toEqual(viem.fromRlp(ours, "hex"));
    }
    // Single bytes below 0x80 are their own encoding; 0x80 and up get a prefix.
    expect(toRlp("0x7f")).toBe("0x7f");
    expect(toRlp("0x80")).toBe("0x8180");
    expect(toRlp([])).toBe("0xc0");
  });

  it("refuses malformed RLP: truncated, trailing bytes, non-canonical forms", () => {
    expect(() => fromRlp("0x83aabb")).toThrow(/past the end/);
    expect(() => fromRlp("0xc0c0")).toThrow(/trailing/);
    expect(() => fromRlp("0x817f")).toThrow(/not canonical/);
    expect(() => fromRlp("0xb801aa")).toThrow(/long form/);
    expect(() => fromRlp("0x")).toThrow(/ends early/);
    expect(() => hexToBytes("0xabc")).toThrow(/whole bytes/);
  });

  it("checksums addresses as EIP-55 (and viem) do", () => {
    // The EIP-55 reference vectors.
    for (const a of [
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
      "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
      "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ]) {
      expect(getAddress(a.toLowerCase())).toBe(a);
    }
    for (let i = 0; i < 100; i++) {
      const a = bytesToHex(randomBytes(20));
      expect(getAddress(a)).toBe(viem.getAddress(a));
    }
    expect(() => getAddress("0x1234")).toThrow(/20-byte/);
  });
});
