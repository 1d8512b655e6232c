import { createHash, randomBytes, verify } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isLowS, loadPublicKey, type KeySpec } from "../../../crypto/key-algorithms.js";
import { openBaoForTests, startOpenBaoDev, type OpenBaoDev } from "../../../test-support/openbao.js";
import type { KeyProviderDriver } from "../provider.js";
import { createVaultDriver } from "./vault-transit-driver.js";

const bao = openBaoForTests();
if ("skip" in bao) console.warn(`skipping Vault driver tests: ${bao.skip}`);

describe.skipIf("skip" in bao)("Vault transit driver against a real OpenBao", () => {
  let dev: OpenBaoDev;
  let driver: KeyProviderDriver;
  const masterKey = randomBytes(32);
  beforeAll(async () => {
    dev = await startOpenBaoDev();
    await dev.call("POST", "/v1/sys/mounts/transit", { type: "transit" });
    driver = createVaultDriver({
      masterKey: () => masterKey,
      target: async () => ({
        providerId: 7,
        providerName: "dev",
        endpoint: { address: dev.address, token: dev.rootToken },
        transitMount: "transit",
        kvMount: "secret",
        pkiMount: "pki",
      }),
    });
  }, 60_000);
  afterAll(async () => dev?.stop());

  it.each([
    [{ algorithm: "EC", curve: "P-256" }, "sha256"],
    [{ algorithm: "EC", curve: "P-384" }, "sha384"],
    [{ algorithm: "EC", curve: "P-521" }, "sha512"],
    [{ algorithm: "EC", curve: "secp256k1" }, "sha256"],
  ] as [KeySpec, string][])("%j: low-S DER and P1363 signatures, of messages and of digests", async (spec, hash) => {
    const key = await driver.generate(spec);
    expect(key.privateKeyEncrypted).toBeNull();
    const pub = loadPublicKey(key.publicKeyPem);
    const curve = spec.algorithm === "EC" ? spec.curve : "P-256";
    // Transit's signatures are high-S about half the time: a dozen shows the normalisation.
    for (let i = 0; i < 12; i++) {
      const msg = randomBytes(40);
      const der = await driver.sign(key, msg);
      expect(isLowS(curve, der)).toBe(true);
      expect(verify(hash, msg, pub, der)).toBe(true);
    }
    const msg = Buffer.from("hello");
    const raw = await driver.sign(key, msg, { encoding: "p1363" });
    expect(isLowS(curve, raw, "p1363")).toBe(true);
    expect(verify(hash, msg, { key: pub, dsaEncoding: "ieee-p1363" }, raw)).toBe(true);
    const digest = createHash("sha256").update(msg).digest();
    const pre = await driver.sign(key, digest, { prehashed: true });
    expect(verify("sha256", msg, pub, pre)).toBe(true);
    const signer = await driver.signer(key);
    const cert = await signer.sign(msg);
    expect(verify(hash, msg, { key: pub, dsaEncoding: "ieee-p1363" }, cert)).toBe(true);
    await driver.delete(key);
  });

  it("signs with Ed25519 (the message itself) and RSA PKCS#1 v1.5 SHA-256", async () => {
    const ed = await driver.generate({ algorithm: "ED25519" });
    const msg = Buffer.from("a message");
    expect(verify(null, msg, loadPublicKey(ed.publicKeyPem), await driver.sign(ed, msg))).toBe(true);
    const rsa = await driver.generate({ algorithm: "RSA", keySize: 2048 });
    expect(verify("sha256", msg, loadPublicKey(rsa.publicKeyPem), await driver.sign(rsa, msg))).toBe(true);
    await driver.delete(ed);
    await driver.delete(rsa);
    expect((await dev.call("GET", `/v1/transit/keys/${rsa.providerKeyRef}`)).status).toBe(404);
  });

  it("a secp256k1 envelope is bound to its provider and key: moved under another name it does not open", async () => {
    const key = await driver.generate({ algorithm: "EC", curve: "secp256k1" });
    const stored = await dev.call("GET", `/v1/secret/data/chainlaunch/keys/${key.providerKeyRef}`);
    const data = (stored.body.data as { data: Record<string, string> }).data;
    await dev.call("POST", "/v1/secret/data/chainlaunch/keys/moved", { data });
    await expect(driver.sign({ ...key, providerKeyRef: "moved" }, Buffer.from("x"))).rejects.toThrow(/envelope/);
    await driver.delete(key);
    expect((await dev.call("GET", `/v1/secret/data/chainlaunch/keys/${key.providerKeyRef}`)).status).toBe(404);
  });

  it("names the provider when the token is refused", async () => {
    const bad = createVaultDriver({
      masterKey: () => masterKey,
      target: async () => ({
        providerId: 8,
        providerName: "wrong-token",
        endpoint: { address: dev.address, token: "nope" },
        transitMount: "transit",
        kvMount: "secret",
        pkiMount: "pki",
      }),
    });
    await expect(bad.generate({ algorithm: "EC", curve: "P-256" })).rejects.toThrow(
      /^Vault provider "wrong-token": creating a ecdsa-p256 key failed: permission denied/,
    );
  });
});
