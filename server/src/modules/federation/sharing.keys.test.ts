import { createPrivateKey } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decryptEnvelopeToString, loadOrCreateMasterKey } from "../../crypto/envelope.js";
import { bootConsole, connect, connectionId, dumpDatabase, type Console } from "../../test-support/sharing.js";
import { dialects, type TestApp } from "../../test-support/test-app.js";

/** The private key of a database-provider key, decrypted the way its provider does (to look for it elsewhere). */
async function privatePemOf(t: TestApp, keyId: number): Promise<string> {
  const row = await t.database.db
    .selectFrom("keys")
    .select(["private_key_encrypted", "provider_id"])
    .where("id", "=", keyId)
    .executeTakeFirstOrThrow();
  const { key } = await loadOrCreateMasterKey({ dataDir: t.config.dataDir, envValue: t.config.masterKey });
  return decryptEnvelopeToString(key, row.private_key_encrypted!, `chainlaunch:key-provider:${row.provider_id}`);
}

describe.each(dialects())("sharing public keys between consoles (%s)", (dialect) => {
  let a: Console;
  let b: Console;
  let bOnA: number;
  let secp: { id: number; publicKey: string; ethereumAddress: string };
  let p256: { id: number; publicKey: string };

  const received = async (query = "") => {
    const res = await b.api("GET", `/pro/keys/shared-with-me${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { keys: Record<string, unknown>[]; total: number };
  };

  beforeAll(async () => {
    [a, b] = await Promise.all([bootConsole(dialect), bootConsole(dialect)]);
    bOnA = await connect(a, b);
    const key = async (name: string, curve: string) => {
      const res = await a.api("POST", "/keys", { name, algorithm: "EC", curve });
      expect(res.statusCode, res.body).toBe(201);
      return res.json();
    };
    secp = await key("shared-secp", "secp256k1");
    p256 = await key("shared-p256", "P-256");
  });
  afterAll(async () => {
    await Promise.all([a?.t.close(), b?.t.close()]);
  });

  it("shares public keys: B lists them with algorithm, curve, public key and Ethereum address", async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const res = await a.api("POST", "/pro/sharing/key", {
      key_id: secp.id,
      peer_id: bOnA,
      expires_at: future,
      metadata: { role: "validator" },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      key_id: String(secp.id),
      peer_id: bOnA,
      status: "sent",
      expires_at: future,
      metadata: { role: "validator" },
    });
    const past = new Date(Date.now() - 60_000).toISOString();
    expect(
      (await a.api("POST", "/pro/sharing/key", { key_id: p256.id, peer_id: bOnA, expires_at: past })).statusCode,
    ).toBe(201);

    const all = await received();
    expect(all.total).toBe(2);
    const aOnB = await connectionId(b, a);
    expect(all.keys.find((k) => k.name === "shared-secp")).toMatchObject({
      key_id: String(secp.id),
      algorithm: "EC",
      curve: "secp256k1",
      key_size: null,
      format: "PEM",
      public_key: secp.publicKey.trim(),
      ethereum_address: secp.ethereumAddress,
      shared_by: aOnB,
      shared_by_node_id: a.id.nodeId,
      expires_at: future,
      status: "active",
      metadata: { role: "validator" },
    });
    expect(all.keys.find((k) => k.name === "shared-p256")).toMatchObject({
      curve: "P-256",
      ethereum_address: null,
      status: "expired",
    });
  });

  it("filters by expiry and status and pages", async () => {
    expect((await received("?expired=true")).keys.map((k) => k.name)).toEqual(["shared-p256"]);
    expect((await received("?expired=false")).keys.map((k) => k.name)).toEqual(["shared-secp"]);
    expect((await received("?status=expired")).keys.map((k) => k.name)).toEqual(["shared-p256"]);
    expect(await received("?status=active&expired=true")).toEqual({ keys: [], total: 0 });
    const page = await received("?limit=1&offset=1");
    expect(page.total).toBe(2);
    expect(page.keys).toHaveLength(1);
    expect((await b.api("GET", "/pro/keys/shared-with-me?status=bogus")).statusCode).toBe(400);
  });

  it("never sends or stores private material: B's whole database lacks the private key", async () => {
    const pem = await privatePemOf(a.t, secp.id);
    expect(pem).toMatch(/PRIVATE KEY/);
    const body = pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");
    const d = createPrivateKey(pem).export({ format: "jwk" }).d!;
    const secrets = [
      body,
      d,
      Buffer.from(d, "base64url").toString("hex"),
      Buffer.from(d, "base64url").toString("base64"),
    ];
    const dump = await dumpDatabase(b.t);
    const listed = JSON.stringify(await received());
    for (const text of [dump, listed]) {
      expect(text).not.toMatch(/PRIVATE KEY/);
      for (const s of secrets) expect(text).not.toContain(s);
    }
    // The sender's own record of the share holds no private material either.
    const sent = JSON.stringify(await a.t.database.db.selectFrom("federation_shares").selectAll().execute());
    for (const s of secrets) expect(sent).not.toContain(s);
  });

  it("answers named errors for an unknown key or connection", async () => {
    const noKey = await a.api("POST", "/pro/sharing/key", { key_id: 9999, peer_id: bOnA });
    expect(noKey.statusCode).toBe(404);
    expect(noKey.json().message).toMatch(/^body\.key_id: /);
    const noPeer = await a.api("POST", "/pro/sharing/key", { key_id: secp.id, peer_id: 9999 });
    expect(noPeer.statusCode).toBe(400);
    expect(noPeer.json().message).toMatch(/^body\.peer_id: no connected console with id 9999/);
    const badDate = await a.api("POST", "/pro/sharing/key", { key_id: secp.id, peer_id: bOnA, expires_at: "soon" });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().message).toMatch(/expires_at/);
  });
});
