import { spawnSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBaoForTests, startOpenBaoDev, type OpenBaoDev } from "../../../test-support/openbao.js";
import { vaultSerial } from "./vault-pki.js";
import { createTestApp, dialects, type TestApp } from "../../../test-support/test-app.js";

const bao = openBaoForTests();
if ("skip" in bao) console.warn(`skipping Vault PKI tests: ${bao.skip}`);
const tmp = mkdtempSync(join(tmpdir(), "cl-vault-pki-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const file = (content: string): string => {
  const p = join(tmp, `f${n++}.pem`);
  writeFileSync(p, content);
  return p;
};
const openssl = (args: string[]): { status: number | null; out: string } => {
  const r = spawnSync("/usr/bin/openssl", args, { encoding: "utf8" });
  return { status: r.status, out: r.stdout + r.stderr };
};

/**
 * A Vault provider whose CA engine is PKI, against a real OpenBao: an organization's two CAs are
 * PKI issuers made by Vault, every identity certificate is issued by Vault from a CSR (the key
 * stays here), revocation goes to Vault's own CRL, and tune-pki sets the mount's TTLs.
 */
describe.skipIf("skip" in bao).each(dialects())("Vault PKI as an organization's CA on %s", (dialect) => {
  let t: TestApp;
  let dev: OpenBaoDev;
  let providerId: number;
  let org: { id: number; mspId: string; signCertificate: string; tlsCertificate: string };
  let signCaKeyId: number;
  beforeAll(async () => {
    [t, dev] = await Promise.all([createTestApp(dialect), startOpenBaoDev(`root-${dialect}-pki-9e2a`)]);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await dev?.stop();
  });

  const api = (method: "GET" | "POST" | "DELETE", url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: t.admin, ...(payload ? { payload } : {}) });

  it("names a bad CA engine and a bad TTL, storing nothing", async () => {
    const before = (await api("GET", "/key-providers")).json().length;
    const engine = await api("POST", "/key-providers", {
      name: "bad-engine",
      type: "VAULT",
      config: { vault: { address: dev.address, token: dev.rootToken, caEngine: "hsm" } },
    });
    expect(engine.statusCode).toBe(400);
    expect(engine.json().message).toMatch(/caEngine/);
    const ttl = await api("POST", "/key-providers", {
      name: "bad-ttl",
      type: "VAULT",
      config: { vault: { address: dev.address, token: dev.rootToken, caEngine: "pki", maxCACertTTL: "ten years" } },
    });
    expect(ttl.statusCode).toBe(400);
    expect(ttl.json().message).toMatch(/^config\.vault\.maxCACertTTL: /);
    expect((await api("GET", "/key-providers")).json()).toHaveLength(before);
  });

  it("mounts and tunes the PKI engine when the provider is created", async () => {
    const res = await api("POST", "/key-providers", {
      name: "vault-pki",
      type: "VAULT",
      config: { vault: { address: dev.address, token: dev.rootToken, caEngine: "pki", pkiMount: "fabric-pki" } },
    });
    expect(res.statusCode, res.body).toBe(201);
    providerId = res.json().id;
    expect(res.json().config.vault).toMatchObject({ caEngine: "pki", pkiMount: "fabric-pki" });
    const tune = await dev.call("GET", "/v1/sys/mounts/fabric-pki/tune");
    expect(tune.body.max_lease_ttl).toBe(175200 * 3600);
  });

  it("creates an organization whose CAs are PKI issuers that Vault made and keeps", async () => {
    const res = await api("POST", "/organizations", { mspId: "PkiOrgMSP", name: "pki-org", providerId });
    expect(res.statusCode, res.body).toBe(201);
    org = res.json();
    const issuers = await dev.call("LIST", "/v1/fabric-pki/issuers");
    expect((issuers.body.data as { keys: string[] }).keys).toHaveLength(2);
    for (const pem of [org.signCertificate, org.tlsCertificate]) {
      const ca = new X509Certificate(pem);
      expect(ca.ca).toBe(true);
      expect(ca.verify(ca.publicKey)).toBe(true);
      expect(ca.subject).toContain("O=PkiOrgMSP");
    }
    const keys = (await api("GET", `/keys?provider_id=${providerId}&pageSize=100`)).json().items as {
      id: number;
      kmsKeyId: string | null;
      certificate: string;
    }[];
    const cas = keys.filter((k) => k.kmsKeyId?.startsWith("pki:"));
    expect(cas).toHaveLength(2);
    signCaKeyId = cas.find((k) => k.certificate.trim() === org.signCertificate.trim())!.id;
    // The CA keys are Vault's: no export, and the console has none of them.
    const [issuerId] = cas[0]!.kmsKeyId!.slice(4).split(":");
    const issuer = await dev.call("GET", `/v1/fabric-pki/issuer/${issuerId}`);
    expect(issuer.status).toBe(200);
    expect(JSON.stringify(issuer.body)).not.toMatch(/PRIVATE KEY/);
    const rows = await t.database.db.selectFrom("keys").selectAll().where("provider_id", "=", providerId).execute();
    expect(rows.every((r) => r.private_key_encrypted === null)).toBe(true);
  });

  it("issues a peer identity through Vault: OU, SANs and usages as asked, and openssl verifies it", async () => {
    const res = await api("POST", `/organizations/${org.id}/keys`, {
      name: "peer0.pki",
      role: "peer",
      dnsNames: ["peer0.pki", "localhost"],
      ipAddresses: ["127.0.0.1"],
    });
    expect(res.statusCode, res.body).toBe(201);
    const peer = res.json();
    const peerFile = file(peer.certificate);
    expect(openssl(["verify", "-CAfile", file(org.signCertificate), peerFile]).out).toMatch(/: OK/);
    const text = openssl(["x509", "-in", peerFile, "-noout", "-text"]).out;
    expect(text).toMatch(/O\s*=\s*PkiOrgMSP, OU\s*=\s*peer, CN\s*=\s*peer0\.pki/);
    expect(text).toContain("DNS:peer0.pki, DNS:localhost, IP Address:127.0.0.1");
    expect(text).toMatch(/Key Usage: critical\s+Digital Signature\n/);
    // Vault knows the certificate: it issued it.
    const serial = vaultSerial(new X509Certificate(peer.certificate).serialNumber);
    const known = await dev.call("GET", `/v1/fabric-pki/cert/${serial}`);
    expect(known.status).toBe(200);
  });

  it("issues TLS identities with serverAuth and clientAuth from the TLS CA", async () => {
    const keys = (await api("GET", `/organizations/${org.id}/keys`)).json().keys as Record<
      string,
      { keyPurpose: string; identityType: string; certificate: string }
    >;
    const tls = Object.values(keys).find((k) => k.identityType === "admin" && k.keyPurpose === "tls")!;
    const tlsFile = file(tls.certificate);
    expect(openssl(["verify", "-CAfile", file(org.tlsCertificate), tlsFile]).out).toMatch(/: OK/);
    expect(openssl(["x509", "-in", tlsFile, "-noout", "-ext", "extendedKeyUsage"]).out).toMatch(
      /TLS Web Server Authentication, TLS Web Client Authentication|TLS Web Client Authentication, TLS Web Server Authentication/,
    );
  });

  it("revokes in Vault: the organization's CRL is Vault's and openssl refuses the revoked certificate", async () => {
    const issued = (
      await api("POST", `/organizations/${org.id}/keys`, { name: "client.pki", role: "client" })
    ).json() as { certificate: string };
    const revoke = await api("POST", `/organizations/${org.id}/crl/revoke/pem`, { certificate: issued.certificate });
    expect(revoke.statusCode, revoke.body).toBe(200);
    expect(
      (await api("POST", `/organizations/${org.id}/crl/revoke/pem`, { certificate: issued.certificate })).statusCode,
    ).toBe(409);
    const unknown = await api("POST", `/organizations/${org.id}/crl/revoke/serial`, { serialNumber: "0A0B0C" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/^serialNumber: /);
    const crlRes = await api("GET", `/organizations/${org.id}/crl`);
    expect(crlRes.statusCode).toBe(200);
    const crl = file(crlRes.body);
    const signCa = file(org.signCertificate);
    expect(openssl(["crl", "-in", crl, "-noout", "-CAfile", signCa]).out).toContain("verify OK");
    const check = openssl(["verify", "-crl_check", "-CAfile", signCa, "-CRLfile", crl, file(issued.certificate)]);
    expect(check.status).not.toBe(0);
    expect(check.out).toContain("certificate revoked");
    const serial = new X509Certificate(issued.certificate).serialNumber;
    const back = await api("DELETE", `/organizations/${org.id}/crl/revoke/serial`, { serialNumber: serial });
    expect(back.statusCode).toBe(400);
    expect(back.json().message).toMatch(/^serialNumber: .*can't take back a revocation/);
  });

  it("refuses a secp256k1 CA on PKI, naming the curve, and issues for a transit key from a CSR transit signed", async () => {
    const k1 = await api("POST", "/keys", {
      name: "k1-ca",
      providerId,
      algorithm: "EC",
      curve: "secp256k1",
      certificate: { commonName: "k1 ca", isCA: true },
    });
    expect(k1.statusCode).toBe(400);
    expect(k1.json().message).toMatch(/^curve: /);
    // A transit key (not exportable) gets a certificate from the PKI issuer: the CSR is signed by transit.
    const leaf = await api("POST", "/keys", { name: "transit-leaf", providerId, algorithm: "EC", curve: "P-256" });
    expect(leaf.statusCode, leaf.body).toBe(201);
    expect(leaf.json().kmsKeyId).toMatch(/^cl-/);
    const signed = await api("POST", `/keys/${leaf.json().id}/sign`, {
      caKeyId: signCaKeyId,
      certificate: { commonName: "transit leaf", dnsNames: ["leaf.pki"] },
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const leafFile = file(signed.json().certificate);
    expect(openssl(["verify", "-CAfile", file(org.signCertificate), leafFile]).out).toMatch(/: OK/);
    expect(new X509Certificate(signed.json().certificate).publicKey.export({ format: "pem", type: "spki" })).toBe(
      leaf.json().publicKey,
    );
  });

  it("deletes a transit key again when its certificate is refused, so Vault keeps no orphan", async () => {
    const transitKeys = async () =>
      ((await dev.call("LIST", "/v1/transit/keys")).body.data as { keys?: string[] } | undefined)?.keys ?? [];
    const before = await transitKeys();
    const res = await api("POST", "/keys", {
      name: "bad-cert",
      providerId,
      algorithm: "EC",
      curve: "P-256",
      certificate: { commonName: "bad", dnsNames: ["not a dns name!"] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/dnsNames/);
    expect(await transitKeys()).toEqual(before);
  });

  it("tunes the PKI mount's TTLs and keeps them in the config; bad TTLs are named", async () => {
    const bad = await api("POST", `/key-providers/${providerId}/vault/tune-pki`, { defaultCertTtl: "a year" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^body\.defaultCertTtl: /);
    const ok = await api("POST", `/key-providers/${providerId}/vault/tune-pki`, {
      defaultCertTtl: "8760h",
      maxCaCertTtl: "87600h",
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().success).toBe(true);
    const tune = await dev.call("GET", "/v1/sys/mounts/fabric-pki/tune");
    expect(tune.body).toMatchObject({ default_lease_ttl: 8760 * 3600, max_lease_ttl: 87600 * 3600 });
    const cfg = (await api("GET", `/key-providers/${providerId}`)).json().config.vault;
    expect(cfg).toMatchObject({ defaultCertTTL: "8760h", maxCACertTTL: "87600h" });
    const unseal = await api("POST", `/key-providers/${providerId}/vault/unseal`);
    expect(unseal.statusCode).toBe(400);
    expect(unseal.json().message).toMatch(/^id: .*external Vault/);
  });

  it("leaves no issuer in Vault when an organization can't be created", async () => {
    const issuers = async () =>
      ((await dev.call("LIST", "/v1/fabric-pki/issuers")).body.data as { keys?: string[] } | undefined)?.keys ?? [];
    const before = await issuers();
    // The CAs fit under the mount's 87600h max TTL; the identities' 100 years don't.
    const res = await api("POST", "/organizations", {
      mspId: "TooLongMSP",
      name: "too-long",
      providerId,
      caCertValidFor: "8760h",
      certValidFor: "876000h",
    });
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect((await api("GET", "/organizations/by-mspid/TooLongMSP")).statusCode).toBe(404);
    expect(await issuers()).toEqual(before);
  });

  it("deletes the organization and its issuers leave Vault", async () => {
    const del = await api("DELETE", `/organizations/${org.id}`);
    expect(del.statusCode, del.body).toBe(204);
    const issuers = await dev.call("LIST", "/v1/fabric-pki/issuers");
    expect(issuers.status === 404 || (issuers.body.data as { keys?: string[] })?.keys?.length === 0).toBe(true);
  });
});
