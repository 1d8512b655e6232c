import { execFileSync } from "node:child_process";
import { createHash, createPrivateKey, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { afterAll, describe, expect, it } from "vitest";
import { CryptoInputError } from "./errors.js";
import {
  ethereumAddress,
  generateKeyPair,
  isLowS,
  keySpecOf,
  parseKeySpec,
  privateKeyToPem,
  publicKeyToDer,
  publicKeyToPem,
  sha256Fingerprint,
  signLowS,
  signMessage,
  subjectKeyIdentifier,
  verifyMessage,
  type KeySpec,
} from "./key-algorithms.js";

const OPENSSL = "/usr/bin/openssl";
const dir = mkdtempSync(join(tmpdir(), "cl-keys-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function openssl(args: string[]): string {
  return execFileSync(OPENSSL, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

const SPECS: KeySpec[] = [
  { algorithm: "EC", curve: "P-256" },
  { algorithm: "EC", curve: "P-384" },
  { algorithm: "EC", curve: "P-521" },
  { algorithm: "EC", curve: "secp256k1" },
  { algorithm: "ED25519" },
  { algorithm: "RSA", keySize: 2048 },
];

describe("key generation and fingerprints", () => {
  for (const spec of SPECS) {
    it(`generates ${JSON.stringify(spec)} whose SKI and SHA-256 match openssl`, async () => {
      const kp = await generateKeyPair(spec);
      expect(keySpecOf(kp.privateKey)).toEqual(spec);
      expect(keySpecOf(kp.publicKey)).toEqual(spec);
      expect(publicKeyToPem(kp.privateKey)).toMatch(/^-----BEGIN PUBLIC KEY-----/);

      const keyFile = join(dir, `k-${randomBytes(4).toString("hex")}.pem`);
      writeFileSync(keyFile, privateKeyToPem(kp.privateKey), { mode: 0o600 });
      // openssl parses our PKCS#8 and derives the same public key.
      const pubDer = execFileSync(OPENSSL, ["pkey", "-in", keyFile, "-pubout", "-outform", "DER"]);
      expect(Buffer.compare(pubDer, publicKeyToDer(kp.publicKey))).toBe(0);
      expect(sha256Fingerprint(kp.publicKey)).toBe(createHash("sha256").update(pubDer).digest("hex"));

      // openssl 3 computes the SKI with RFC 5280 method 1 by default: an independent check of ours.
      const certFile = `${keyFile}.crt`;
      openssl(["req", "-new", "-x509", "-key", keyFile, "-subj", "/CN=ski", "-days", "1", "-out", certFile]);
      const text = openssl(["x509", "-in", certFile, "-noout", "-ext", "subjectKeyIdentifier"]);
      const ski = /Identifier:\s*\n\s*([0-9A-F:]+)/.exec(text)?.[1]?.replace(/:/g, "").toLowerCase();
      expect(ski).toBe(subjectKeyIdentifier(kp.publicKey));
    });
  }

  it("generates RSA 4096", async () => {
    const kp = await generateKeyPair({ algorithm: "RSA", keySize: 4096 });
    expect(kp.publicKey.asymmetricKeyDetails?.modulusLength).toBe(4096);
  });
});

describe("parseKeySpec", () => {
  it("accepts upstream spellings and defaults", () => {
    expect(parseKeySpec({ algorithm: "EC" })).toEqual({ algorithm: "EC", curve: "P-256" });
    expect(parseKeySpec({ algorithm: "ec", curve: "P384" })).toEqual({ algorithm: "EC", curve: "P-384" });
    expect(parseKeySpec({ algorithm: "EC", curve: "secp256k1" })).toEqual({ algorithm: "EC", curve: "secp256k1" });
    expect(parseKeySpec({ algorithm: "RSA", keySize: 4096 })).toEqual({ algorithm: "RSA", keySize: 4096 });
    expect(parseKeySpec({ algorithm: "ED25519" })).toEqual({ algorithm: "ED25519" });
  });

  it.each([
    [{ algorithm: "DSA" }, "algorithm"],
    [{ algorithm: "" }, "algorithm"],
    [{ algorithm: "EC", curve: "P-192" }, "curve"],
    [{ algorithm: "RSA", keySize: 1024 }, "keySize"],
  ])("rejects %j naming %s", (input, field) => {
    try {
      parseKeySpec(input);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(CryptoInputError);
      expect((err as CryptoInputError).field).toBe(field);
    }
  });
});

describe("ethereumAddress", () => {
  it("matches the well-known test vector", () => {
    // web3.js docs: this private key owns 0x2c7536E3605D9C16a7a3D7b1898e529396a65c23.
    const d = Buffer.from("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318", "hex");
    const point = secp256k1.getPublicKey(d, false);
    const key = createPrivateKey({
      format: "jwk",
      key: {
        kty: "EC",
        crv: "secp256k1",
        d: d.toString("base64url"),
        x: Buffer.from(point.subarray(1, 33)).toString("base64url"),
        y: Buffer.from(point.subarray(33)).toString("base64url"),
      },
    });
    expect(ethereumAddress(key)).toBe("0x2c7536E3605D9C16a7a3D7b1898e529396a65c23");
  });

  it("refuses non-secp256k1 keys", async () => {
    const kp = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
    expect(() => ethereumAddress(kp.publicKey)).toThrow(CryptoInputError);
  });
});

describe("signLowS", () => {
  for (const curve of ["P-256", "P-384", "P-521"] as const) {
    it(`${curve}: always low-S, and openssl verifies the DER signature`, async () => {
      const kp = await generateKeyPair({ algorithm: "EC", curve });
      const pubFile = join(dir, `pub-${curve}.pem`);
      writeFileSync(pubFile, publicKeyToPem(kp.publicKey));
      const digestName = curve === "P-384" ? "-sha384" : curve === "P-521" ? "-sha512" : "-sha256";
      for (let i = 0; i < 12; i++) {
        const data = randomBytes(64);
        const sig = signLowS(kp.privateKey, data);
        expect(isLowS(curve, sig)).toBe(true);
        expect(verifyMessage(kp.publicKey, data, sig)).toBe(true);
        if (i < 3) {
          const dataFile = join(dir, `d-${i}`);
          const sigFile = `${dataFile}.sig`;
          writeFileSync(dataFile, data);
          writeFileSync(sigFile, sig);
          expect(openssl(["dgst", digestName, "-verify", pubFile, "-signature", sigFile, dataFile])).toContain(
            "Verified OK",
          );
        }
      }
    });
  }

  it("signs a precomputed digest without hashing again (Fabric signs SHA-256 digests)", async () => {
    const kp = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
    const data = randomBytes(100);
    const digest = createHash("sha256").update(data).digest();
    const sig = signLowS(kp.privateKey, digest, { prehashed: true });
    expect(verifyMessage(kp.publicKey, data, sig)).toBe(true);
    const raw = signLowS(kp.privateKey, data, { encoding: "p1363" });
    expect(raw.length).toBe(64);
    expect(verifyMessage(kp.publicKey, data, raw, { encoding: "p1363" })).toBe(true);
  });

  it("signMessage covers RSA and Ed25519", async () => {
    for (const spec of [{ algorithm: "RSA", keySize: 2048 }, { algorithm: "ED25519" }] as KeySpec[]) {
      const kp = await generateKeyPair(spec);
      const data = randomBytes(32);
      expect(verifyMessage(kp.publicKey, data, signMessage(kp.privateKey, data))).toBe(true);
    }
  });
});
