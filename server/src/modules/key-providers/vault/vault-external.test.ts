import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBaoForTests, startOpenBaoDev, type OpenBaoDev } from "../../../test-support/openbao.js";
import { freePort } from "../../../test-support/ports.js";
import { createTestApp, dialects, type TestApp } from "../../../test-support/test-app.js";

const bao = openBaoForTests();
if ("skip" in bao) console.warn(`skipping external Vault tests: ${bao.skip}`);
const tmp = mkdtempSync(join(tmpdir(), "cl-vault-ext-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.skipIf("skip" in bao).each(dialects())("external Vault provider on %s", (dialect) => {
  let t: TestApp;
  let dev: OpenBaoDev;
  let providerId: number;
  beforeAll(async () => {
    [t, dev] = await Promise.all([createTestApp(dialect), startOpenBaoDev(`root-${dialect}-token-4c1d`)]);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await dev?.stop();
  });

  const api = (method: "GET" | "POST" | "DELETE", url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: t.admin, ...(payload ? { payload } : {}) });
  const vaultProvider = (name: string, vault: object) =>
    api("POST", "/key-providers", { name, type: "VAULT", config: { vault } });

  it("links a running Vault by token; the token is kept encrypted and never returned", async () => {
    const res = await vaultProvider("ext", { address: dev.address, token: dev.rootToken });
    expect(res.statusCode).toBe(201);
    providerId = res.json().id;
    expect(res.json().config.vault).toMatchObject({ mode: "external", address: dev.address, transitMount: "transit" });
    const list = await api("GET", "/key-providers");
    expect(list.body).not.toContain(dev.rootToken);
    const row = await t.database.db
      .selectFrom("key_providers")
      .selectAll()
      .where("id", "=", providerId)
      .executeTakeFirstOrThrow();
    expect(row.config).not.toContain(dev.rootToken);
    expect(row.secrets_encrypted).toMatch(/^v1\./);
    expect(row.secrets_encrypted).not.toContain(dev.rootToken);
    const audit = await t.database.db.selectFrom("audit_logs").selectAll().execute();
    expect(audit.length).toBeGreaterThan(0);
    expect(JSON.stringify(audit)).not.toContain(dev.rootToken);
    const status = (await api("GET", `/key-providers/${providerId}/vault/status`)).json();
    expect(status).toMatchObject({ mode: "external", vault_reachable: true, sealed: false, vault_status: "active" });
    expect(status.vault_version).toMatch(/^2\./);
  });

  it.each([
    [{ algorithm: "EC", curve: "P-256" }, "ecdsa-p256"],
    [{ algorithm: "EC", curve: "P-384" }, "ecdsa-p384"],
    [{ algorithm: "ED25519" }, "ed25519"],
    [{ algorithm: "RSA", keySize: 2048 }, "rsa-2048"],
    [{ algorithm: "EC", curve: "secp256k1" }, "kv"],
  ])("creates %j inside Vault and signs a certificate with it", async (spec, where) => {
    const res = await api("POST", "/keys", {
      name: `k-${where}`,
      providerId,
      ...spec,
      certificate: { commonName: `ca-${where}`, isCA: true, validFor: "8760h" },
    });
    expect(res.statusCode).toBe(201);
    const key = res.json();
    expect(key.provider).toMatchObject({ id: providerId, type: "VAULT" });
    expect(res.body).not.toMatch(/PRIVATE KEY/);
    const cert = new X509Certificate(key.certificate);
    expect(cert.verify(cert.publicKey)).toBe(true);
    const ref = key.kmsKeyId as string;
    expect(ref).toMatch(/^cl-/);
    if (where === "kv") {
      const stored = await dev.call("GET", `/v1/secret/data/chainlaunch/keys/${ref}`);
      const data = (stored.body.data as { data: Record<string, string> }).data;
      expect(data.envelope).toMatch(/^v1\./);
      expect(JSON.stringify(stored.body)).not.toMatch(/PRIVATE KEY/);
      expect(key.ethereumAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    } else {
      const stored = await dev.call("GET", `/v1/transit/keys/${ref}`);
      expect(stored.body.data).toMatchObject({ type: where, exportable: false });
    }
  });

  it("a Vault CA key issues a certificate for a local key; openssl verifies the chain", async () => {
    const ca = (
      await api("POST", "/keys", {
        name: "vault-root",
        providerId,
        algorithm: "EC",
        curve: "P-256",
        certificate: { commonName: "Vault Root", organization: ["Acme"], isCA: true, validFor: "8760h" },
      })
    ).json();
    const leaf = (await api("POST", "/keys", { name: "local-leaf", algorithm: "EC", curve: "P-256" })).json();
    const signed = await api("POST", `/keys/${leaf.id}/sign`, {
      caKeyId: ca.id,
      certificate: { commonName: "peer0.acme", dnsNames: ["peer0.acme"], validFor: "720h" },
    });
    expect(signed.statusCode).toBe(200);
    const caFile = join(tmp, `${dialect}-ca.pem`);
    const leafFile = join(tmp, `${dialect}-leaf.pem`);
    writeFileSync(caFile, ca.certificate);
    writeFileSync(leafFile, signed.json().certificate);
    expect(execFileSync("openssl", ["verify", "-CAfile", caFile, leafFile], { encoding: "utf8" })).toMatch(/: OK/);
  });

  it("an organization on Vault keeps its CA keys in transit; its identities, on disk-able keys, are CA-signed", async () => {
    const res = await api("POST", "/organizations", { mspId: "VaultOrgMSP", name: "VaultOrg", providerId });
    expect(res.statusCode, res.body).toBe(201);
    const org = res.json();
    const listed = (await api("GET", `/organizations/${org.id}/keys`)).json().keys as Record<string, { id: number }>;
    const all = await Promise.all(Object.values(listed).map(async (k) => (await api("GET", `/keys/${k.id}`)).json()));
    const inVault = all.filter((k) => k.provider.id === providerId);
    expect(inVault.map((k) => k.name).sort()).toEqual(["VaultOrgMSP-sign-ca", "VaultOrgMSP-tls-ca"]);
    for (const k of inVault) expect((await dev.call("GET", `/v1/transit/keys/${k.kmsKeyId}`)).status).toBe(200);
    const admin = all.find((k) => k.id === org.adminSignKeyId);
    expect(admin?.provider.id).toBe(1);
    const caFile = join(tmp, `${dialect}-org-ca.pem`);
    const adminFile = join(tmp, `${dialect}-org-admin.pem`);
    writeFileSync(caFile, org.signCertificate);
    writeFileSync(adminFile, admin?.certificate ?? "");
    expect(execFileSync("openssl", ["verify", "-CAfile", caFile, adminFile], { encoding: "utf8" })).toMatch(/: OK/);
    expect((await api("DELETE", `/organizations/${org.id}`)).statusCode).toBe(204);
  });

  it("deleting a key removes it from transit (and secp256k1 from KV); a provider with keys can't go", async () => {
    const busy = await api("DELETE", `/key-providers/${providerId}`);
    expect(busy.statusCode).toBe(409);
    const keys = (await api("GET", `/keys?provider_id=${providerId}&pageSize=50`)).json().items as {
      id: number;
      kmsKeyId: string;
      curve: string | null;
    }[];
    expect(keys.length).toBeGreaterThanOrEqual(6);
    for (const k of keys) {
      expect((await api("DELETE", `/keys/${k.id}`)).statusCode).toBe(204);
      const path =
        k.curve === "secp256k1" ? `/v1/secret/data/chainlaunch/keys/${k.kmsKeyId}` : `/v1/transit/keys/${k.kmsKeyId}`;
      expect((await dev.call("GET", path)).status).toBe(404);
    }
    expect((await api("DELETE", `/key-providers/${providerId}`)).statusCode).toBe(204);
  });

  it("refuses a wrong token (400), a bad address (400) and an unreachable one (502)", async () => {
    const bad = await vaultProvider("bad-token", { address: dev.address, token: "not-the-token" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^config\.vault\.token: .*refused the token/);
    expect(bad.body).not.toContain("not-the-token");
    const noToken = await vaultProvider("no-token", { address: dev.address });
    expect(noToken.json().message).toMatch(/^config\.vault\.token: /);
    const url = await vaultProvider("bad-url", { address: "ftp://x", token: "t" });
    expect(url.statusCode).toBe(400);
    expect(url.json().message).toMatch(/^config\.vault\.address: /);
    const port = await freePort();
    const down = await vaultProvider("down", { address: `http://127.0.0.1:${port}`, token: "t" });
    expect(down.statusCode).toBe(502);
    expect(down.json().message).toContain(`127.0.0.1:${port}`);
    expect((await api("GET", "/key-providers")).json().map((p: { name: string }) => p.name)).toEqual(["Database"]);
  });

  it("refuses a sealed Vault (502), and keys of a provider whose Vault got sealed fail with 502", async () => {
    const created = await vaultProvider("to-seal", { address: dev.address, token: dev.rootToken });
    const id = created.json().id;
    expect((await api("POST", "/keys", { name: "before-seal", providerId: id, algorithm: "EC" })).statusCode).toBe(201);
    expect((await dev.call("PUT", "/v1/sys/seal")).status).toBe(204);
    const sealed = await vaultProvider("sealed", { address: dev.address, token: dev.rootToken });
    expect(sealed.statusCode).toBe(502);
    expect(sealed.json().message).toMatch(/is sealed; unseal it/);
    const fresh = await api("POST", "/keys", {
      name: "after-seal",
      providerId: id,
      algorithm: "EC",
      certificate: { commonName: "x", isCA: true },
    });
    expect(fresh.statusCode).toBe(502);
    expect(fresh.json().message).toMatch(/^Vault provider "to-seal": .*sealed/);
  });
});
