import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";

const OPENSSL = "/usr/bin/openssl";
const tmp = mkdtempSync(join(tmpdir(), "cl-keys-api-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.each(dialects())("keys and key providers on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const api = (method: "GET" | "POST" | "DELETE", url: string, payload?: object, headers = t.admin) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

  it("has the built-in DATABASE provider as the default from the first boot", async () => {
    const res = await api("GET", "/key-providers");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([expect.objectContaining({ id: 1, type: "DATABASE", isDefault: 1, name: "Database" })]);
  });

  it.each([
    [
      { algorithm: "EC", curve: "P-256" },
      { algorithm: "EC", curve: "P-256", keySize: null },
    ],
    [
      { algorithm: "EC", curve: "P-384" },
      { algorithm: "EC", curve: "P-384" },
    ],
    [
      { algorithm: "EC", curve: "P-521" },
      { algorithm: "EC", curve: "P-521" },
    ],
    [
      { algorithm: "EC", curve: "secp256k1" },
      { algorithm: "EC", curve: "secp256k1" },
    ],
    [{ algorithm: "ED25519" }, { algorithm: "ED25519", curve: null }],
    [
      { algorithm: "RSA", keySize: 2048 },
      { algorithm: "RSA", keySize: 2048 },
    ],
  ])("generates %j and returns public material only", async (input, expected) => {
    const res = await api("POST", "/keys", { name: `k-${JSON.stringify(input)}`, ...input });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      ...expected,
      format: "PEM",
      status: "active",
      provider: { id: 1, type: "DATABASE" },
      certificate: null,
    });
    expect(body.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(body.sha256Fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(body.sha1Fingerprint).toMatch(/^[0-9a-f]{40}$/);
    expect(res.body).not.toMatch(/PRIVATE KEY/);
    if ("curve" in input && input.curve === "secp256k1") expect(body.ethereumAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    else expect(body.ethereumAddress).toBeNull();
  });

  it("creates a self-signed CA and signs another key's certificate with it (openssl verifies)", async () => {
    const ca = (
      await api("POST", "/keys", {
        name: "root",
        algorithm: "EC",
        certificate: { commonName: "Root CA", organization: ["Acme"], isCA: true, validFor: "87600h" },
      })
    ).json();
    expect(ca.certificate).toMatch(/BEGIN CERTIFICATE/);
    expect(ca.expiresAt).toBeTruthy();
    const leaf = (await api("POST", "/keys", { name: "leaf", algorithm: "EC", curve: "P-256" })).json();
    const signed = await api("POST", `/keys/${leaf.id}/sign`, {
      caKeyId: ca.id,
      certificate: {
        commonName: "leaf.acme",
        organizationalUnit: ["client"],
        dnsNames: ["leaf.acme"],
        validFor: "720h",
      },
    });
    expect(signed.statusCode).toBe(200);
    expect(signed.json().signingKeyID).toBe(ca.id);
    const caFile = join(tmp, `${dialect}-ca.pem`);
    const leafFile = join(tmp, `${dialect}-leaf.pem`);
    writeFileSync(caFile, ca.certificate);
    writeFileSync(leafFile, signed.json().certificate);
    expect(execFileSync(OPENSSL, ["verify", "-CAfile", caFile, leafFile], { encoding: "utf8" })).toMatch(/: OK/);
    const text = execFileSync(OPENSSL, ["x509", "-in", caFile, "-noout", "-text"], { encoding: "utf8" });
    expect(text).toMatch(/CA:TRUE/);
    expect(text).toMatch(/Subject Key Identifier/);

    // A key whose certificate is not a CA can't sign: named 400.
    const notCa = await api("POST", `/keys/${ca.id}/sign`, { caKeyId: leaf.id, certificate: { commonName: "x" } });
    expect(notCa.statusCode).toBe(400);
    expect(notCa.json().message).toMatch(/^caKeyId: .*is not a CA/);
  });

  it.each([
    ["an unknown algorithm", { name: "x", algorithm: "DSA" }, /^algorithm: unknown key algorithm/],
    ["an unknown curve", { name: "x", algorithm: "EC", curve: "brainpoolP256r1" }, /^curve: /],
    ["an unsupported RSA size", { name: "x", algorithm: "RSA", keySize: 1024 }, /^keySize: /],
    [
      "an invalid validity",
      { name: "x", algorithm: "EC", certificate: { commonName: "x", validFor: "0h" } },
      /^certificate\.validFor: /,
    ],
    ["an unknown field", { name: "x", algorithm: "EC", secret: 1 }, /^body/],
  ])("rejects %s with a named 400", async (_label, payload, message) => {
    const res = await api("POST", "/keys?fieldValidation=Strict", payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("INVALID_INPUT");
    expect(res.json().message).toMatch(message);
  });

  it("pages and filters", async () => {
    const page = (await api("GET", "/keys?page=1&pageSize=2")).json();
    expect(page.items).toHaveLength(2);
    expect(page.totalItems).toBeGreaterThanOrEqual(7);
    expect(page).toMatchObject({ page: 1, pageSize: 2 });
    const k1 = (await api("GET", "/keys/filter?algorithm=EC&curve=secp256k1")).json();
    expect(k1.items.length).toBe(1);
    expect(k1.items[0].curve).toBe("secp256k1");
    expect((await api("GET", "/keys?provider_id=999")).json().totalItems).toBe(0);
  });

  it("manages providers: 400 for not-yet-supported types, 409 while holding keys or default", async () => {
    expect((await api("POST", "/key-providers", { name: "vault", type: "VAULT" })).statusCode).toBe(400);
    const created = await api("POST", "/key-providers", { name: "second", type: "DATABASE" });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    expect((await api("POST", "/key-providers", { name: "second", type: "DATABASE" })).statusCode).toBe(409);
    const key = (await api("POST", "/keys", { name: "on-second", algorithm: "EC", providerId: id })).json();
    expect(key.provider.id).toBe(id);
    const busy = await api("DELETE", `/key-providers/${id}`);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toMatch(/holds 1 key/);
    expect((await api("DELETE", "/key-providers/1")).statusCode).toBe(409);
    expect((await api("DELETE", `/keys/${key.id}`)).statusCode).toBe(204);
    expect((await api("GET", `/keys/${key.id}`)).statusCode).toBe(404);
    expect((await api("DELETE", `/key-providers/${id}`)).statusCode).toBe(204);
    expect((await api("GET", `/key-providers/${id}`)).statusCode).toBe(404);
  });

  it("lets viewers read keys but not create them; providers are for operators", async () => {
    const viewer = await createUser(t, `viewer-${dialect}`, "viewer");
    expect((await api("GET", "/keys", undefined, viewer)).statusCode).toBe(200);
    expect((await api("POST", "/keys", { name: "v", algorithm: "EC" }, viewer)).statusCode).toBe(403);
    expect((await api("GET", "/key-providers", undefined, viewer)).statusCode).toBe(403);
  });
});
