import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyMessage } from "../../crypto/key-algorithms.js";
import { createDatabaseProvider } from "./database-provider.js";

/** A provider whose master key is read through a counter: each read is one envelope decryption or encryption. */
function provider(): { driver: ReturnType<typeof createDatabaseProvider>; reads: () => number } {
  const master = randomBytes(32);
  let n = 0;
  const driver = createDatabaseProvider({
    providerId: 1,
    masterKey: () => {
      n++;
      return master;
    },
  });
  return { driver, reads: () => n };
}

describe("database key provider", () => {
  it("signs with a key it just generated without decrypting and re-parsing it", async () => {
    const { driver, reads } = provider();
    const stored = await driver.generate({ algorithm: "EC", curve: "P-256" });
    const afterGenerate = reads();
    const data = new TextEncoder().encode("hello");
    const sig = await driver.sign(stored, data);
    await driver.signer(stored);
    expect(reads()).toBe(afterGenerate);
    expect(verifyMessage(stored.publicKey, data, sig)).toBe(true);
  });

  it("still refuses an envelope sealed under another master key, and exports the remembered key unchanged", async () => {
    const { driver: maker } = provider();
    const { driver, reads } = provider();
    const stored = await driver.generate({ algorithm: "EC", curve: "P-256" });
    // Not remembered, so it is decrypted, and the AES-GCM check fails under this master key.
    const foreign = await maker.generate({ algorithm: "EC", curve: "P-256" });
    await expect(driver.sign(foreign, new Uint8Array([1]))).rejects.toThrow();
    const before = reads();
    const pem1 = await driver.exportPrivateKeyPem!(stored);
    const pem2 = await driver.exportPrivateKeyPem!(stored);
    expect(pem1).toBe(pem2);
    expect(reads()).toBe(before);
  });
});
