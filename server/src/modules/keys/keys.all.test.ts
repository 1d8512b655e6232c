import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";

type Key = Record<string, unknown> & { id: number };

/** GET /keys/all, upstream's getAllKeys: every key, unpaged, in the shape of the paged list. */
describe.each(dialects())("all keys on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const get = (url: string, headers: Record<string, string> = t.admin) =>
    t.app.inject({ method: "GET", url: `/api/v1${url}`, headers });

  it("answers an empty list before any key exists", async () => {
    const res = await get("/keys/all");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it("lists every key beyond one page, each as the paged list and GET /keys/{id} show it, never private material", async () => {
    const specs = [
      { algorithm: "EC", curve: "P-256" },
      { algorithm: "EC", curve: "secp256k1" },
      { algorithm: "ED25519" },
      { algorithm: "RSA", keySize: 2048 },
    ];
    for (let i = 0; i < 12; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/keys",
        headers: t.admin,
        payload: {
          name: `all-${i}`,
          ...specs[i % specs.length],
          // One with a certificate, so the certificate fields are compared too.
          ...(i === 0 ? { certificate: { commonName: "all-0", validFor: "24h" } } : {}),
        },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const res = await get("/keys/all");
    expect(res.statusCode).toBe(200);
    const all = res.json() as Key[];
    const paged = (await get("/keys?pageSize=1000")).json() as { items: Key[]; totalItems: number };
    expect(all).toHaveLength(paged.totalItems);
    expect(all).toHaveLength(12);
    // The default page holds 10: this list is not paged.
    expect((await get("/keys")).json().items).toHaveLength(10);
    expect(all.map((k) => k.id)).toEqual([...all.map((k) => k.id)].sort((a, b) => a - b));
    expect(all).toEqual(paged.items);
    for (const key of [all[0]!, all[3]!]) expect((await get(`/keys/${key.id}`)).json()).toEqual(key);
    expect(all[0]!.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(all[0]!.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----/);

    expect(res.body).not.toMatch(/PRIVATE KEY|privateKey|private_key/i);
    for (const key of all) {
      expect(
        Object.keys(key).some((k) => /private|secret|encrypted/i.test(k)),
        Object.keys(key).join(),
      ).toBe(false);
    }
  });

  it("lets viewers read it and refuses anonymous callers", async () => {
    const viewer = await createUser(t, `keys-all-viewer-${dialect}`, "viewer");
    const res = await get("/keys/all", viewer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(12);
    expect((await get("/keys/all", {})).statusCode).toBe(401);
  });
});
