import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verifyMessage } from "../../crypto/key-algorithms.js";
import { migrateToLatest, openDatabase } from "../../db/db.js";
import { createDatabaseProvider } from "./database-provider.js";
import { createKeyProvidersRepo } from "./key-providers.repo.js";
import { createKeyProvidersService } from "./key-providers.service.js";

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

describe("key providers service", () => {
  it("hands out one driver per provider, so a key generated in one call is not decrypted again in the next", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cl-kp-"));
    const database = openDatabase({ dataDir: dir, databaseUrl: undefined });
    try {
      await migrateToLatest(database);
      const master = randomBytes(32);
      let reads = 0;
      const service = createKeyProvidersService({
        repo: createKeyProvidersRepo(database.db),
        masterKey: () => (reads++, master),
      });
      await service.ensureBuiltIn();
      const { row, driver } = await service.resolve(undefined);
      const stored = await driver.generate({ algorithm: "EC", curve: "P-256" });
      const afterGenerate = reads;
      // A later request looks the provider up again (as keys.service does for every signature).
      const again = await service.driverFor(row.id);
      const data = new TextEncoder().encode("org CA");
      const sig = await again.driver.sign(stored, data);
      expect(verifyMessage(stored.publicKey, data, sig)).toBe(true);
      expect(reads).toBe(afterGenerate);
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
