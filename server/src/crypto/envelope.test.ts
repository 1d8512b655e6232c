import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  decryptEnvelope,
  decryptEnvelopeToString,
  encryptEnvelope,
  EnvelopeError,
  loadOrCreateMasterKey,
  MasterKeyError,
  parseMasterKey,
} from "./envelope.js";

const dir = mkdtempSync(join(tmpdir(), "cl-envelope-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PEM =
  "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n";

describe("envelope encryption", () => {
  const key = randomBytes(32);

  it("round-trips text and bytes with a versioned format and fresh IVs", () => {
    const a = encryptEnvelope(key, PEM);
    const b = encryptEnvelope(key, PEM);
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("PRIVATE KEY");
    expect(decryptEnvelopeToString(key, a)).toBe(PEM);
    const der = randomBytes(121);
    expect(decryptEnvelope(key, encryptEnvelope(key, der)).equals(der)).toBe(true);
  });

  it("detects tampering in every part", () => {
    const env = encryptEnvelope(key, PEM);
    const parts = env.split(".");
    for (let i = 1; i < 4; i++) {
      const bytes = Buffer.from(parts[i] as string, "base64url");
      bytes[0] = (bytes[0] as number) ^ 1;
      const tampered = [...parts];
      tampered[i] = bytes.toString("base64url");
      expect(() => decryptEnvelope(key, tampered.join("."))).toThrow(EnvelopeError);
    }
    expect(() => decryptEnvelope(key, env.replace(/^v1/, "v9"))).toThrow(/unknown envelope format/);
  });

  it("fails with a different master key or different AAD", () => {
    const env = encryptEnvelope(key, PEM, "key:1");
    expect(decryptEnvelopeToString(key, env, "key:1")).toBe(PEM);
    expect(() => decryptEnvelope(randomBytes(32), env, "key:1")).toThrow(EnvelopeError);
    expect(() => decryptEnvelope(key, env, "key:2")).toThrow(EnvelopeError);
    expect(() => decryptEnvelope(key, env)).toThrow(EnvelopeError);
  });

  it("refuses master keys that are not 32 bytes", () => {
    expect(() => encryptEnvelope(randomBytes(16), PEM)).toThrow(MasterKeyError);
  });
});

describe("master key", () => {
  it("parses hex and base64 of 32 bytes", () => {
    const raw = randomBytes(32);
    expect(parseMasterKey(raw.toString("hex")).equals(raw)).toBe(true);
    expect(parseMasterKey(raw.toString("base64")).equals(raw)).toBe(true);
    expect(parseMasterKey(raw.toString("base64url")).equals(raw)).toBe(true);
  });

  it("gives a clear error that does not echo the value", () => {
    const secret = "not-a-real-key-but-secret-looking-1234";
    try {
      parseMasterKey(secret);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(MasterKeyError);
      expect((err as Error).message).toContain("CHAINLAUNCH_MASTER_KEY must be 32 bytes");
      expect((err as Error).message).not.toContain(secret);
    }
    expect(() => parseMasterKey(randomBytes(16).toString("base64"))).toThrow(MasterKeyError);
  });

  it("prefers CHAINLAUNCH_MASTER_KEY and writes no file then", async () => {
    const d = join(dir, "env");
    const raw = randomBytes(32);
    const res = await loadOrCreateMasterKey({ envValue: raw.toString("hex"), dataDir: d });
    expect(res.source).toBe("env");
    expect(res.key.equals(raw)).toBe(true);
    expect(() => statSync(join(d, "master.key"))).toThrow();
  });

  it("creates <dataDir>/master.key with mode 0600 once and reuses it", async () => {
    const d = join(dir, "data", "nested");
    const first = await loadOrCreateMasterKey({ dataDir: d });
    expect(first.source).toBe("created");
    const st = statSync(join(d, "master.key"));
    expect(st.mode & 0o777).toBe(0o600);
    const second = await loadOrCreateMasterKey({ envValue: "", dataDir: d });
    expect(second.source).toBe("file");
    expect(second.key.equals(first.key)).toBe(true);
    expect(readFileSync(join(d, "master.key"), "utf8").trim()).toBe(first.key.toString("base64"));
  });

  it("names the key file when it is corrupt", async () => {
    const d = join(dir, "corrupt");
    await loadOrCreateMasterKey({ dataDir: d });
    writeFileSync(join(d, "master.key"), "garbage");
    await expect(loadOrCreateMasterKey({ dataDir: d })).rejects.toThrow(/master\.key must be 32 bytes/);
  });
});
