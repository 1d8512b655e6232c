import { spawnSync } from "node:child_process";
import { createPrivateKey } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decryptEnvelopeToString, parseMasterKey } from "../../crypto/envelope.js";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";

const OPENSSL = "/usr/bin/openssl";
const tmp = mkdtempSync(join(tmpdir(), "cl-orgs-api-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
function file(content: string): string {
  const p = join(tmp, `f${n++}.pem`);
  writeFileSync(p, content);
  return p;
}
function openssl(args: string[]): { status: number | null; out: string } {
  const r = spawnSync(OPENSSL, args, { encoding: "utf8" });
  return { status: r.status, out: r.stdout + r.stderr };
}

interface OrgKey {
  id: number;
  keyId: number;
  sha1Fingerprint: string;
  identityType: string;
  keyPurpose: string;
  certificate: string;
}

describe.each(dialects())("organizations on %s", (dialect) => {
  let t: TestApp;
  let org: {
    id: number;
    mspId: string;
    signCertificate: string;
    tlsCertificate: string;
    adminSignKeyId: number;
    clientSignKeyId: number;
    adminTlsKeyId: number;
  };
  let keys: OrgKey[];
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const api = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object, headers = t.admin) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

  it("creates an organization with sign and TLS CAs, an admin and a client identity", async () => {
    const res = await api("POST", "/organizations", {
      mspId: "Org1MSP",
      name: "Org 1",
      description: "first",
      country: ["US"],
    });
    expect(res.statusCode).toBe(201);
    org = res.json();
    expect(org).toMatchObject({ mspId: "Org1MSP", description: "first", providerId: 1, providerName: "Database" });
    expect(res.body).not.toMatch(/PRIVATE KEY/);
    // The upstream shape the Terraform provider reads: {keys: {"<keyId>": key}}.
    const listed = (await api("GET", `/organizations/${org.id}/keys`)).json() as { keys: Record<string, OrgKey> };
    keys = Object.values(listed.keys);
    for (const [id, k] of Object.entries(listed.keys)) {
      expect(k).toMatchObject({ id: Number(id), keyId: Number(id), algorithm: "EC" });
      expect(k.sha1Fingerprint).toMatch(/^[0-9a-f]{40}$/);
    }
    expect(keys.map((k) => `${k.identityType}/${k.keyPurpose}`)).toEqual([
      "ca/ca",
      "ca/tlsca",
      "admin/sign",
      "admin/tls",
      "client/sign",
    ]);

    const signCa = file(org.signCertificate);
    const tlsCa = file(org.tlsCertificate);
    for (const ca of [signCa, tlsCa]) {
      const text = openssl(["x509", "-in", ca, "-noout", "-text"]).out;
      expect(text).toMatch(/CA:TRUE/);
      expect(text).toMatch(/Subject Key Identifier/);
      expect(text).toMatch(/ASN1 OID: prime256v1/);
    }
    for (const k of keys.slice(2)) {
      const ca = k.keyPurpose === "tls" ? tlsCa : signCa;
      const leaf = file(k.certificate);
      expect(openssl(["verify", "-CAfile", ca, leaf]).out).toMatch(/: OK/);
      expect(openssl(["x509", "-in", leaf, "-noout", "-subject"]).out).toContain(`OU = ${k.identityType}`);
    }
  });

  it("refuses invalid and duplicate mspIds with named errors", async () => {
    const bad = await api("POST", "/organizations", { mspId: "Org 2_MSP", name: "x" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^mspId: invalid mspId/);
    const dup = await api("POST", "/organizations", { mspId: "Org1MSP", name: "again" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toMatch(/^mspId: /);
    const validity = await api("POST", "/organizations", { mspId: "Org3MSP", name: "x", certValidFor: "never" });
    expect(validity.statusCode).toBe(400);
    expect(validity.json().message).toMatch(/^certValidFor: /);
  });

  it("lists with limit/offset and finds by mspId", async () => {
    await api("POST", "/organizations", { mspId: "Org2MSP", name: "Org 2" });
    const page = (await api("GET", "/organizations?limit=1&offset=1")).json();
    expect(page).toMatchObject({ count: 2, limit: 1, offset: 1 });
    expect(page.items[0].mspId).toBe("Org2MSP");
    expect((await api("GET", "/organizations?limit=1000")).json().items).toHaveLength(2);
    expect((await api("GET", "/organizations/by-mspid/Org1MSP")).json().id).toBe(org.id);
    const upd = await api("PUT", `/organizations/${org.id}`, { description: "changed" });
    expect(upd.json().description).toBe("changed");
  });

  it("deletes an identity issued for the organization, but not its CAs, admin or client keys", async () => {
    const issued = (await api("POST", `/organizations/${org.id}/keys`, { name: "temp-client", role: "client" })).json();
    const listed = async () =>
      Object.keys((await api("GET", `/organizations/${org.id}/keys`)).json().keys as Record<string, unknown>);
    expect(await listed()).toContain(String(issued.id));
    // Go clients send Content-Type: application/json with no body on DELETE.
    const del = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/organizations/${org.id}/keys/${issued.id}`,
      headers: { ...t.admin, "content-type": "application/json" },
    });
    expect(del.statusCode, del.body).toBe(204);
    expect(await listed()).not.toContain(String(issued.id));
    expect((await api("GET", `/keys/${issued.id}`)).statusCode).toBe(404);
    const ca = await api("DELETE", `/organizations/${org.id}/keys/${keys[0]!.keyId}`);
    expect(ca.statusCode).toBe(409);
    expect(ca.json().message).toMatch(/^keyId: key \d+ is organization 'Org1MSP's ca ca key/);
    expect((await api("DELETE", `/organizations/${org.id}/keys/999999`)).statusCode).toBe(404);
  });

  it("issues a peer identity with SANs, renews it, revokes it, and openssl sees it in the CRL", async () => {
    const issued = await api("POST", `/organizations/${org.id}/keys`, {
      name: "peer0.org1",
      role: "peer",
      dnsNames: ["peer0.org1", "localhost"],
      ipAddresses: ["127.0.0.1"],
    });
    expect(issued.statusCode).toBe(201);
    const peer = issued.json();
    const signCa = file(org.signCertificate);
    const peerFile = file(peer.certificate);
    expect(openssl(["verify", "-CAfile", signCa, peerFile]).out).toMatch(/: OK/);
    const text = openssl(["x509", "-in", peerFile, "-noout", "-text"]).out;
    expect(text).toContain("OU = peer");
    expect(text).toContain("DNS:peer0.org1, DNS:localhost, IP Address:127.0.0.1");

    const renewed = await api("POST", `/organizations/${org.id}/keys/renew`, { keyId: peer.id, validFor: "720h" });
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().certificate).not.toBe(peer.certificate);
    expect(renewed.json().lastRotatedAt).toBeTruthy();
    const renewedFile = file(renewed.json().certificate);
    expect(openssl(["verify", "-CAfile", signCa, renewedFile]).out).toMatch(/: OK/);
    expect(openssl(["x509", "-in", renewedFile, "-noout", "-ext", "subjectAltName"]).out).toContain("DNS:peer0.org1");

    const revoke = await api("POST", `/organizations/${org.id}/crl/revoke/pem`, {
      certificate: renewed.json().certificate,
      revocationReason: 1,
    });
    expect(revoke.statusCode).toBe(200);
    const serial = openssl(["x509", "-in", renewedFile, "-noout", "-serial"])
      .out.trim()
      .replace("serial=", "")
      .toLowerCase();
    const list = (await api("GET", `/organizations/${org.id}/revoked-certificates`)).json();
    expect(list).toEqual([expect.objectContaining({ serialNumber: serial, reason: 1 })]);
    expect(
      (await api("POST", `/organizations/${org.id}/crl/revoke/pem`, { certificate: renewed.json().certificate }))
        .statusCode,
    ).toBe(409);

    // A certificate from another organization's CA is refused.
    const other = (await api("GET", "/organizations/by-mspid/Org2MSP")).json();
    const foreign = await api("POST", `/organizations/${org.id}/crl/revoke/pem`, {
      certificate: other.signCertificate,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toMatch(/^certificate: /);

    await api("POST", `/organizations/${org.id}/crl/revoke/serial`, { serialNumber: "0A0B0C" });
    const crlRes = await api("GET", `/organizations/${org.id}/crl`);
    expect(crlRes.statusCode).toBe(200);
    expect(crlRes.body).toMatch(/^-----BEGIN X509 CRL-----/);
    const crl = file(crlRes.body);
    const crlText = openssl(["crl", "-in", crl, "-noout", "-text"]).out;
    expect(crlText).toContain(`Serial Number: ${serial.toUpperCase()}`);
    expect(crlText).toContain("Serial Number: 0A0B0C");
    expect(openssl(["crl", "-in", crl, "-noout", "-CAfile", signCa]).out).toContain("verify OK");
    const check = openssl(["verify", "-crl_check", "-CAfile", signCa, "-CRLfile", crl, renewedFile]);
    expect(check.status).not.toBe(0);
    expect(check.out).toContain("certificate revoked");
    const adminFile = file(keys.find((k) => k.identityType === "admin" && k.keyPurpose === "sign")!.certificate);
    expect(openssl(["verify", "-crl_check", "-CAfile", signCa, "-CRLfile", crl, adminFile]).status).toBe(0);

    // CRL numbers increase.
    const second = file((await api("GET", `/organizations/${org.id}/crl`)).body);
    const num = (f: string): number =>
      Number(/CRL Number:\s*\n\s*(\d+)/.exec(openssl(["crl", "-in", f, "-noout", "-text"]).out)?.[1]);
    expect(num(second)).toBe(num(crl) + 1);

    const unrevoke = await api("DELETE", `/organizations/${org.id}/crl/revoke/serial`, { serialNumber: "0a0b0c" });
    expect(unrevoke.statusCode).toBe(200);
    expect(
      (await api("DELETE", `/organizations/${org.id}/crl/revoke/serial`, { serialNumber: "0a0b0c" })).statusCode,
    ).toBe(404);
    const badSerial = await api("POST", `/organizations/${org.id}/crl/revoke/serial`, { serialNumber: "xyz" });
    expect(badSerial.json().message).toMatch(/^serialNumber: /);
  });

  it("won't delete a key an organization uses (409 naming it)", async () => {
    const res = await api("DELETE", `/keys/${org.adminSignKeyId}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('organization "Org1MSP"');
  });

  it("keeps private keys encrypted at rest: no PEM headers or raw key bytes in the database", async () => {
    if (dialect !== "sqlite") return;
    const masterKey = parseMasterKey(readFileSync(join(t.config.dataDir, "master.key"), "utf8"));
    const row = await t.database.db
      .selectFrom("keys")
      .selectAll()
      .where("id", "=", org.adminSignKeyId)
      .executeTakeFirstOrThrow();
    const pem = decryptEnvelopeToString(
      masterKey,
      row.private_key_encrypted!,
      `chainlaunch:key-provider:${row.provider_id}`,
    );
    const key = createPrivateKey(pem);
    const d = Buffer.from(key.export({ format: "jwk" }).d!, "base64url");
    const der = key.export({ type: "pkcs8", format: "der" });
    const body = pem.split("\n")[1]!;
    await t.database.db.selectFrom("keys").select("id").execute(); // make sure the WAL is in use
    const files = readdirSync(t.config.dataDir).filter((f) => f.startsWith("chainlaunch.db"));
    expect(files).toContain("chainlaunch.db");
    let sawCertificates = false;
    for (const f of files) {
      const bytes = readFileSync(join(t.config.dataDir, f));
      sawCertificates ||= bytes.includes("-----BEGIN CERTIFICATE-----");
      expect(bytes.includes("PRIVATE KEY"), f).toBe(false);
      expect(bytes.includes(d), f).toBe(false);
      expect(bytes.includes(der), f).toBe(false);
      expect(bytes.includes(body), f).toBe(false);
    }
    // The public material is there in the clear, so the scan reads the right bytes (main file or WAL).
    expect(sawCertificates).toBe(true);
  });

  it("enforces permissions: viewers read, managers issue, and delete cleans up keys", async () => {
    const viewer = await createUser(t, `v-${dialect}`, "viewer");
    const manager = await createUser(t, `m-${dialect}`, "manager");
    expect((await api("GET", "/organizations", undefined, viewer)).statusCode).toBe(200);
    expect((await api("POST", `/organizations/${org.id}/keys`, { name: "c", role: "client" }, viewer)).statusCode).toBe(
      403,
    );
    expect(
      (await api("POST", `/organizations/${org.id}/keys`, { name: "c", role: "client" }, manager)).statusCode,
    ).toBe(201);
    const keyIds = Object.values(
      (await api("GET", `/organizations/${org.id}/keys`)).json().keys as Record<string, OrgKey>,
    ).map((k) => k.keyId);
    expect((await api("DELETE", `/organizations/${org.id}`, undefined, manager)).statusCode).toBe(204);
    expect((await api("GET", `/organizations/${org.id}`)).statusCode).toBe(404);
    for (const id of keyIds) expect((await api("GET", `/keys/${id}`)).statusCode).toBe(404);
  });
});
