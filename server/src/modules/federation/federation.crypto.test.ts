import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  canonicalString,
  decodeJws,
  fromB64url,
  generateIdentity,
  nodeIdOf,
  privateKeyFromDer,
  publicKeyFromB64url,
  signJws,
  verifyEd25519,
} from "./federation.crypto.js";

describe("federation cryptography", () => {
  const g = generateIdentity();
  const priv = privateKeyFromDer(g.privateKeyDer);

  it("derives the node id from the raw public key", () => {
    const raw = fromB64url(g.publicKey)!;
    expect(raw).toHaveLength(32);
    expect(g.nodeId).toBe(`cl-${createHash("sha256").update(raw).digest("hex").slice(0, 32)}`);
    expect(nodeIdOf(raw)).toBe(g.nodeId);
  });

  it("signs a compact JWS with EdDSA that verifies with the embedded key and fails when altered", () => {
    const jwt = signJws({ iss: g.nodeId, n: 1 }, priv);
    const d = decodeJws(jwt);
    if (typeof d === "string") throw new Error(d);
    expect(d.header).toEqual({ alg: "EdDSA", typ: "JWT" });
    const key = publicKeyFromB64url(g.publicKey)!;
    expect(verifyEd25519(key, d.signingInput, d.signature)).toBe(true);
    expect(verifyEd25519(key, `${d.signingInput}x`, d.signature)).toBe(false);
    expect(verifyEd25519(publicKeyFromB64url(generateIdentity().publicKey)!, d.signingInput, d.signature)).toBe(false);
  });

  it("says why a token is malformed", () => {
    expect(decodeJws("a.b")).toMatch(/three base64url parts/);
    expect(decodeJws("e30.bm90IGpzb24.AA")).toMatch(/claims are not base64url JSON/);
    expect(decodeJws("e30.e30.A+A")).toMatch(/signature is not base64url/);
  });

  it("accepts only strict base64url and 32-byte keys", () => {
    expect(fromB64url("AA==")).toBeUndefined();
    expect(fromB64url("A+/")).toBeUndefined();
    expect(publicKeyFromB64url("AAAA")).toBeUndefined();
    expect(publicKeyFromB64url(g.publicKey)).toBeDefined();
  });

  it("puts every signed part, and the body's hash, in the canonical string", () => {
    const base = { method: "post", path: "/federation/revoke", from: "a", to: "b", timestamp: 1, nonce: "n", body: "" };
    const s = canonicalString(base);
    expect(s.split("\n")).toEqual([
      "chainlaunch-federation-v1",
      "POST",
      "/federation/revoke",
      "a",
      "b",
      "1",
      "n",
      createHash("sha256").update("").digest("hex"),
    ]);
    for (const change of [{ path: "/x" }, { to: "c" }, { timestamp: 2 }, { nonce: "m" }, { body: "{}" }]) {
      expect(canonicalString({ ...base, ...change })).not.toBe(s);
    }
  });
});
