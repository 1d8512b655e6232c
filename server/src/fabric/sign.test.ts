import { generateKeyPairSync, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isLowS, type EcCurve } from "../crypto/key-algorithms.js";
import { fabricMessageSigner } from "./sign.js";

const NODE: Record<EcCurve, string> = {
  "P-256": "prime256v1",
  "P-384": "secp384r1",
  "P-521": "secp521r1",
  secp256k1: "secp256k1",
};

describe("fabricMessageSigner", () => {
  for (const curve of ["P-256", "P-384", "P-521", "secp256k1"] as const) {
    it(`signs SHA-256 of the message, low S, DER (${curve})`, () => {
      const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: NODE[curve] });
      const sign = fabricMessageSigner(privateKey);
      // Enough signatures that OpenSSL's high-S half (about one in two) is met and normalised.
      for (let i = 0; i < 40; i++) {
        const message = Buffer.from(`proposal ${i}`);
        const sig = sign(message);
        expect(isLowS(curve, sig, "der")).toBe(true);
        // What a peer checks: ECDSA over the SHA-256 digest, whatever the curve.
        expect(verify("sha256", message, publicKey, sig)).toBe(true);
      }
    });
  }

  it("refuses a key that is not EC", () => {
    const { privateKey } = generateKeyPairSync("ed25519");
    expect(() => fabricMessageSigner(privateKey)).toThrow(/EC key/);
  });
});
