import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nowIso } from "../../db/db.js";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";

interface KeyEntry {
  id: number;
  name: string;
  algorithm: string;
  certificate: string | null;
  publicKey: string;
  sha1Fingerprint: string;
  expiresAt: string | null;
  identityType: string;
  keyPurpose: string;
}
interface Org {
  id: number;
  mspId: string;
  adminSignKeyId: number;
  adminTlsKeyId: number;
  clientSignKeyId: number;
}

/** GET, issue and delete an organization's identities the way upstream's Terraform provider does. */
describe.each(dialects())("organization keys on %s", (dialect) => {
  let t: TestApp;
  let org: Org;
  let other: Org;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    org = (await api("POST", "/organizations", { mspId: "KeysOrgMSP", name: "Keys" })).json();
    other = (await api("POST", "/organizations", { mspId: "OtherOrgMSP", name: "Other" })).json();
  });
  afterAll(async () => t.close());

  const api = (method: "GET" | "POST" | "DELETE", url: string, payload?: object, headers = t.admin) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const keysOf = async (orgId: number): Promise<Record<string, KeyEntry>> => {
    const res = await api("GET", `/organizations/${orgId}/keys`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { keys: Record<string, KeyEntry> }).keys;
  };
  const issue = async (name: string): Promise<KeyEntry> => {
    const res = await api("POST", `/organizations/${org.id}/keys`, { name, role: "client" });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };

  it("lists the keys as {keys: {<keyId>: key}}, the shape the Terraform provider reads", async () => {
    const keys = await keysOf(org.id);
    expect(Object.keys(keys)).toHaveLength(5);
    const admin = keys[String(org.adminSignKeyId)];
    expect(admin).toMatchObject({
      id: org.adminSignKeyId,
      name: "KeysOrgMSP-admin-sign",
      algorithm: "EC",
      identityType: "admin",
      keyPurpose: "sign",
      provider: { id: 1, name: "Database" },
    });
    expect(admin?.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(admin?.sha1Fingerprint).toMatch(/^[0-9a-f]{40}$/);
    expect(admin?.expiresAt).toBeTruthy();
    expect(Object.values(keys).map((k) => `${k.identityType}/${k.keyPurpose}`)).toEqual([
      "ca/ca",
      "ca/tlsca",
      "admin/sign",
      "admin/tls",
      "client/sign",
    ]);
    expect(JSON.stringify(keys)).not.toMatch(/PRIVATE KEY/);

    const issued = await issue("tf-identity");
    expect((await keysOf(org.id))[String(issued.id)]).toMatchObject({
      id: issued.id,
      certificate: issued.certificate,
      identityType: "client",
      keyPurpose: "sign",
    });
    const one = await api("GET", `/organizations/${org.id}/keys/${issued.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: issued.id, name: "tf-identity", publicKey: issued.publicKey });
    expect((await api("GET", `/organizations/${other.id}/keys/${issued.id}`)).statusCode).toBe(404);
    expect((await api("GET", "/organizations/999999/keys")).statusCode).toBe(404);
  });

  it("deletes an issued identity (204), after which it is gone from the organization and /keys", async () => {
    const issued = await issue("to-delete");
    const del = await api("DELETE", `/organizations/${org.id}/keys/${issued.id}`);
    expect(del.statusCode, del.body).toBe(204);
    expect(del.body).toBe("");
    expect((await keysOf(org.id))[String(issued.id)]).toBeUndefined();
    expect((await api("GET", `/keys/${issued.id}`)).statusCode).toBe(404);
    // Go clients send Content-Type: application/json with no body on DELETE.
    const again = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/organizations/${org.id}/keys/${issued.id}`,
      headers: { ...t.admin, "content-type": "application/json" },
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toMatch(/^keyId: key \d+ is not a key of organization 'KeysOrgMSP'/);
  });

  it("refuses the organization's own CAs and admin/client identities with a 409 naming the organization", async () => {
    const keys = await keysOf(org.id);
    const own = Object.values(keys).filter((k) => k.name.startsWith("KeysOrgMSP-"));
    expect(own).toHaveLength(5);
    for (const k of own) {
      const res = await api("DELETE", `/organizations/${org.id}/keys/${k.id}`);
      expect(res.statusCode, k.name).toBe(409);
      expect(res.json().message).toMatch(
        /^keyId: key \d+ is organization 'KeysOrgMSP's .* key; it is deleted with the organization/,
      );
    }
    expect(Object.keys(await keysOf(org.id)).sort()).toEqual(Object.keys(keys).sort());
    expect((await api("GET", `/organizations/${org.id}`)).json().adminSignKeyId).toBe(org.adminSignKeyId);
  });

  it("refuses an identity a node uses, naming the node, and leaves it in place", async () => {
    const issued = await issue("node-identity");
    const now = nowIso();
    await t.database.db
      .insertInto("nodes")
      .values({
        name: "peer-using-it",
        slug: `peer-using-it-${dialect}`,
        platform: "FABRIC",
        node_type: "FABRIC_PEER",
        status: "STOPPED",
        error_message: null,
        endpoint: null,
        organization_id: org.id,
        network_id: null,
        key_id: issued.id,
        tls_key_id: null,
        config: "{}",
        deployment: "{}",
        created_at: now,
        updated_at: now,
      })
      .execute();
    const link = () =>
      t.database.db.selectFrom("organization_keys").selectAll().where("key_id", "=", issued.id).executeTakeFirst();
    const before = await link();
    const res = await api("DELETE", `/organizations/${org.id}/keys/${issued.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain("node 'peer-using-it'");
    // Refused before anything changed: the organization's link is the same row, not a re-created one.
    expect(await link()).toEqual(before);
    expect((await keysOf(org.id))[String(issued.id)]).toBeDefined();
    expect((await api("GET", `/keys/${issued.id}`)).statusCode).toBe(200);
  });

  it("answers 404 for another organization's key or a missing one, 400 naming a bad keyId, 403 for viewers", async () => {
    const issued = await issue("not-theirs");
    const foreign = await api("DELETE", `/organizations/${other.id}/keys/${issued.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toMatch(/^keyId: key \d+ is not a key of organization 'OtherOrgMSP'/);
    expect((await api("DELETE", `/organizations/${org.id}/keys/999999`)).statusCode).toBe(404);
    expect((await api("DELETE", `/organizations/999999/keys/${issued.id}`)).statusCode).toBe(404);
    const bad = await api("DELETE", `/organizations/${org.id}/keys/4294967296`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/keyId/);
    const viewer = await createUser(t, `keys-viewer-${dialect}`, "viewer");
    expect((await api("DELETE", `/organizations/${org.id}/keys/${issued.id}`, undefined, viewer)).statusCode).toBe(403);
    expect((await api("GET", `/organizations/${org.id}/keys`, undefined, viewer)).statusCode).toBe(200);
    expect((await keysOf(org.id))[String(issued.id)]).toBeDefined();
  });
});
