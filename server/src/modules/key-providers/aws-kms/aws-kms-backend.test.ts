import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { DescribeKeyCommand, KMSClient, ListAliasesCommand } from "@aws-sdk/client-kms";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findMotoServer, startMoto, type Moto } from "../../../test-support/moto.js";
import { freePort } from "../../../test-support/ports.js";
import { createTestApp, dialects, type TestApp } from "../../../test-support/test-app.js";

/**
 * AWS_KMS providers against a real moto_server (KMS and STS), on both databases: settings checked at
 * creation, CA keys created in KMS that sign certificates openssl verifies, secp256k1 keys with an
 * Ethereum address, refusals named by field, and keys scheduled for deletion in KMS.
 */
const run = promisify(execFile);
const moto = findMotoServer();
if (!moto) console.warn("skipping AWS KMS provider tests: moto_server not found (scripts/system-deps.sh test)");

const SECRET = "kms-test-secret-7Qx9mZpL2vRt4sWy8uBn";
// The key upstream's examples (and LocalStack's docs) use with a local KMS.
const ACCESS_KEY_ID = "test";

describe.skipIf(!moto)("AWS_KMS key provider (moto)", () => {
  let kms: Moto;
  let strict: Moto;
  let buggy: Moto;
  const dir = mkdtempSync(join(tmpdir(), "kms-test-"));
  beforeAll(async () => {
    [kms, strict, buggy] = await Promise.all([
      startMoto({ kmsDigest: true }),
      startMoto({ enforceAuth: true, freeActions: 0 }),
      // moto as installed: it hashes a DIGEST again, so its signatures don't verify.
      startMoto(),
    ]);
  }, 60_000);
  afterAll(() => {
    kms?.stop();
    strict?.stop();
    buggy?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const awsKms = (over: Record<string, unknown> = {}) => ({
    awsRegion: "us-east-1",
    endpointUrl: kms.endpoint,
    awsAccessKeyId: ACCESS_KEY_ID,
    awsSecretAccessKey: SECRET,
    kmsKeyAliasPrefix: "chainlaunch-test/",
    ...over,
  });
  const sdk = () =>
    new KMSClient({
      region: "us-east-1",
      endpoint: kms.endpoint,
      credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET },
    });

  describe.each(dialects())("on %s", (dialect) => {
    let t: TestApp;
    let providerId: number;
    let caId: number;
    beforeAll(async () => {
      t = await createTestApp(dialect);
    }, 60_000);
    afterAll(async () => t?.close());
    const api = (method: "GET" | "POST" | "DELETE", url: string, payload?: object) =>
      t.app.inject({ method, url: `/api/v1${url}`, headers: t.admin, ...(payload ? { payload } : {}) });

    it("creates the provider after KMS answers; the secret is encrypted and never returned", async () => {
      const res = await api("POST", "/key-providers", {
        name: `kms-${dialect}`,
        type: "AWS_KMS",
        config: { awsKms: awsKms() },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.body).not.toContain(SECRET);
      expect(res.json().config).toEqual({
        awsKms: expect.objectContaining({ awsRegion: "us-east-1", endpointUrl: kms.endpoint }),
      });
      providerId = res.json().id;
      const row = await t.database.db
        .selectFrom("key_providers")
        .selectAll()
        .where("id", "=", providerId)
        .executeTakeFirstOrThrow();
      expect(row.config).not.toContain(SECRET);
      expect(row.secrets_encrypted).toBeTruthy();
      expect(row.secrets_encrypted).not.toContain(SECRET);
      const list = await api("GET", "/key-providers");
      expect(list.body).not.toContain(SECRET);
    });

    it("names bad settings: a missing region (400), an unreachable endpoint (502), refused credentials (400)", async () => {
      const noRegion = await api("POST", "/key-providers", {
        name: "no-region",
        type: "AWS_KMS",
        config: { awsKms: awsKms({ awsRegion: undefined }) },
      });
      expect(noRegion.statusCode).toBe(400);
      expect(noRegion.json().message).toMatch(/^config\.awsKms\.awsRegion: /);
      const badUrl = await api("POST", "/key-providers", {
        name: "bad-url",
        type: "AWS_KMS",
        config: { awsKms: awsKms({ endpointUrl: "ftp://x" }) },
      });
      expect(badUrl.json().message).toMatch(/^config\.awsKms\.endpointUrl: /);
      const nowhere = `http://127.0.0.1:${await freePort()}`;
      const unreachable = await api("POST", "/key-providers", {
        name: "unreachable",
        type: "AWS_KMS",
        config: { awsKms: awsKms({ endpointUrl: nowhere }) },
      });
      expect(unreachable.statusCode, unreachable.body).toBe(502);
      expect(unreachable.json().message).toContain(nowhere);
      const refused = await api("POST", "/key-providers", {
        name: "refused",
        type: "AWS_KMS",
        config: { awsKms: awsKms({ endpointUrl: strict.endpoint }) },
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().message).toMatch(/^config\.awsKms\.awsAccessKeyId: AWS refused the credentials/);
      for (const res of [noRegion, badUrl, unreachable, refused]) expect(res.body).not.toContain(SECRET);
      const names = (await api("GET", "/key-providers")).json().map((p: { name: string }) => p.name);
      expect(names).not.toContain("unreachable");
      expect(names).not.toContain("refused");
    });

    it("keeps a CA key in KMS whose certificates openssl verifies", async () => {
      const ca = await api("POST", "/keys", {
        name: "kms-ca",
        algorithm: "EC",
        curve: "P-256",
        providerId,
        certificate: { commonName: "KMS CA", organization: ["Org1"], isCA: true },
      });
      expect(ca.statusCode, ca.body).toBe(201);
      expect(ca.json()).toMatchObject({ provider: { id: providerId, type: "AWS_KMS" } });
      expect(ca.json().kmsKeyId).toBeTruthy();
      expect(ca.json().canUseInNodes).toBe(false);
      caId = ca.json().id;
      const leafKey = await api("POST", "/keys", { name: "leaf", algorithm: "EC", curve: "P-256" });
      expect(leafKey.statusCode, leafKey.body).toBe(201);
      const leaf = await api("POST", `/keys/${leafKey.json().id}/sign`, {
        caKeyId: caId,
        certificate: { commonName: "peer0.org1", dnsNames: ["peer0.org1"] },
      });
      expect(leaf.statusCode, leaf.body).toBe(200);
      writeFileSync(join(dir, `ca-${dialect}.pem`), ca.json().certificate);
      writeFileSync(join(dir, `leaf-${dialect}.pem`), leaf.json().certificate);
      const ossl = (file: string) => run("openssl", ["verify", "-CAfile", `ca-${dialect}.pem`, file], { cwd: dir });
      expect((await ossl(`ca-${dialect}.pem`)).stdout).toContain(": OK");
      expect((await ossl(`leaf-${dialect}.pem`)).stdout).toContain(": OK");
      const row = await t.database.db
        .selectFrom("keys")
        .select(["private_key_encrypted", "provider_key_ref"])
        .where("id", "=", caId)
        .executeTakeFirstOrThrow();
      expect(row.private_key_encrypted).toBeNull();
      const aliases = await sdk().send(new ListAliasesCommand({ KeyId: row.provider_key_ref ?? "" }));
      expect(aliases.Aliases?.[0]?.AliasName).toMatch(/^alias\/chainlaunch-test\/p256-[0-9a-f]{12}$/);
      const listed = (await api("GET", "/keys?pageSize=100")).json();
      const items = (listed.items ?? listed.keys ?? listed) as { id: number; provider: { type: string } }[];
      expect(items.find((k) => k.id === caId)?.provider.type).toBe("AWS_KMS");
    });

    it("an organization's CA keys live in KMS and sign its admin identity; the identity's own key is local", async () => {
      const org = await api("POST", "/organizations", {
        mspId: `Kms${dialect}MSP`,
        name: `kms-org-${dialect}`,
        providerId,
      });
      expect(org.statusCode, org.body).toBe(201);
      const o = org.json();
      const admin = (await api("GET", `/keys/${o.adminSignKeyId}`)).json();
      expect(admin.provider.type).toBe("DATABASE");
      writeFileSync(join(dir, `org-ca-${dialect}.pem`), o.signCertificate);
      writeFileSync(join(dir, `org-admin-${dialect}.pem`), admin.certificate);
      const verified = await run(
        "openssl",
        ["verify", "-CAfile", `org-ca-${dialect}.pem`, `org-admin-${dialect}.pem`],
        {
          cwd: dir,
        },
      );
      expect(verified.stdout).toContain(": OK");
      const caKeys = await t.database.db
        .selectFrom("keys")
        .select(["private_key_encrypted", "provider_key_ref"])
        .where("provider_id", "=", providerId)
        .where("is_ca", "=", 1)
        .execute();
      // The organization's sign and TLS CAs, plus the CA key of the test before.
      expect(caKeys.length).toBeGreaterThanOrEqual(3);
      for (const k of caKeys) {
        expect(k.private_key_encrypted).toBeNull();
        expect(k.provider_key_ref).toBeTruthy();
      }
    });

    it("refuses an organization whose KMS signs wrongly (502), and keeps nothing of it", async () => {
      const provider = await api("POST", "/key-providers", {
        name: `kms-buggy-${dialect}`,
        type: "AWS_KMS",
        config: { awsKms: awsKms({ endpointUrl: buggy.endpoint }) },
      });
      expect(provider.statusCode, provider.body).toBe(201);
      const count = async () => ({
        orgs: (await api("GET", "/organizations?limit=1000")).json().count,
        keys: (await t.database.db.selectFrom("keys").select("id").execute()).length,
      });
      const before = await count();
      const org = await api("POST", "/organizations", {
        mspId: `KmsBuggy${dialect}MSP`,
        name: `kms-buggy-${dialect}`,
        providerId: provider.json().id,
      });
      expect(org.statusCode, org.body).toBe(502);
      expect(org.json().message).toMatch(/does not verify against the signing key's public key/);
      expect(await count()).toEqual(before);
    });

    it("makes secp256k1, P-384 and RSA keys, and refuses Ed25519 by field", async () => {
      const k1 = await api("POST", "/keys", { name: "eth", algorithm: "EC", curve: "secp256k1", providerId });
      expect(k1.statusCode, k1.body).toBe(201);
      expect(k1.json().ethereumAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
      // P-384 (ECDSA_SHA_384) and RSA (PKCS#1 v1.5 SHA-256) CA certificates, self-signed in KMS.
      for (const [name, spec] of [
        ["p384", { algorithm: "EC", curve: "P-384" }],
        ["rsa", { algorithm: "RSA", keySize: 2048 }],
      ] as const) {
        const key = await api("POST", "/keys", {
          name,
          ...spec,
          providerId,
          certificate: { commonName: `${name} CA`, isCA: true },
        });
        expect(key.statusCode, key.body).toBe(201);
        const file = `${name}-${dialect}.pem`;
        writeFileSync(join(dir, file), key.json().certificate);
        expect((await run("openssl", ["verify", "-CAfile", file, file], { cwd: dir })).stdout).toContain(": OK");
      }
      // Besu reads its node key from disk, which a KMS key never reaches: a named 400, nothing created.
      expect(k1.json().canUseInNodes).toBe(false);
      const v = (await api("POST", "/keys", { name: "validator", algorithm: "EC", curve: "secp256k1" })).json();
      const net = await api("POST", "/networks/besu", {
        name: `kms-net-${dialect}`,
        config: { chainId: 4322, initialValidatorsKeyIds: [v.id] },
      });
      expect(net.statusCode, net.body).toBe(200);
      const node = await api("POST", "/nodes?start=false", {
        name: "kms-besu",
        blockchainPlatform: "BESU",
        besuNode: {
          networkId: net.json().id,
          keyId: k1.json().id,
          externalIp: "127.0.0.1",
          internalIp: "127.0.0.1",
          p2pHost: "127.0.0.1",
          p2pPort: 30303,
          rpcHost: "127.0.0.1",
          rpcPort: 8545,
          metricsPort: 9545,
        },
      });
      expect(node.statusCode, node.body).toBe(400);
      expect(node.json().message).toMatch(/^besuNode\.keyId: key \d+ lives in key provider "[^"]+" \(AWS_KMS\)/);
      expect((await api("GET", "/nodes")).json().items).toHaveLength(0);
      const ed = await api("POST", "/keys", { name: "ed", algorithm: "ED25519", providerId });
      expect(ed.statusCode).toBe(400);
      expect(ed.json().message).toMatch(/^algorithm: /);
    });

    it("reports status, refuses to delete a provider with keys, schedules deleted keys for deletion", async () => {
      const status = await api("GET", `/key-providers/${providerId}/awskms/status`);
      expect(status.statusCode, status.body).toBe(200);
      expect(status.json()).toMatchObject({
        provider_id: providerId,
        region: "us-east-1",
        endpoint: kms.endpoint,
        access_key_id: "****",
        has_credentials: true,
        kms_reachable: true,
        kms_status: "available",
        account_id: "123456789012",
        key_count: 6,
      });
      expect(status.body).not.toContain(SECRET);
      const del = await api("DELETE", `/key-providers/${providerId}`);
      expect(del.statusCode).toBe(409);

      // A provider that assumes a role: STS AssumeRole with the stored key pair, then KMS with the role's credentials.
      const role = await api("POST", "/key-providers", {
        name: `kms-role-${dialect}`,
        type: "AWS_KMS",
        config: {
          awsKms: awsKms({ assumeRoleArn: "arn:aws:iam::123456789012:role/chainlaunch", externalId: "ext-1" }),
        },
      });
      expect(role.statusCode, role.body).toBe(201);
      const roleKey = await api("POST", "/keys", { name: "via-role", algorithm: "EC", providerId: role.json().id });
      expect(roleKey.statusCode, roleKey.body).toBe(201);
      expect((await api("GET", `/key-providers/${role.json().id}/awskms/status`)).json()).toMatchObject({
        kms_status: "available",
        key_count: 1,
      });
      expect((await api("DELETE", `/keys/${roleKey.json().id}`)).statusCode).toBe(204);
      expect((await api("DELETE", `/key-providers/${role.json().id}`)).statusCode).toBe(204);

      const doomed = await api("POST", "/keys", { name: "doomed", algorithm: "EC", curve: "P-256", providerId });
      const ref = doomed.json().kmsKeyId as string;
      expect((await api("DELETE", `/keys/${doomed.json().id}`)).statusCode).toBe(204);
      const described = await sdk().send(new DescribeKeyCommand({ KeyId: ref }));
      expect(described.KeyMetadata?.KeyState).toBe("PendingDeletion");
      expect((await sdk().send(new ListAliasesCommand({ KeyId: ref }))).Aliases ?? []).toEqual([]);
    });
  });
});
