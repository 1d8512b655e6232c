import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { opensslIn } from "../../test-support/openssl.js";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";

const run = promisify(execFile);

interface Org {
  id: number;
  mspId: string;
  signCertificate: string;
  tlsCertificate: string;
  adminSignKeyId: number | null;
  adminTlsKeyId: number | null;
  clientSignKeyId: number | null;
}
interface Identity {
  type: string;
  signKeyId: number;
  signCertificate: string;
  tlsKeyId: number;
  tlsCertificate: string;
}

/**
 * POST /organizations/import and GET/POST /organizations/{id}/identities on both databases, with CA
 * material made by the openssl CLI and identities checked by `openssl verify`.
 */
describe.each(dialects())("organization import and identities on %s", (dialect) => {
  let t: TestApp;
  let dir: string;
  let viewer: { authorization: string };
  let manager: { authorization: string };
  const pem = (name: string) => readFileSync(join(dir, `${name}.pem`), "utf8");
  const key = (name: string) => readFileSync(join(dir, `${name}.key`), "utf8");
  beforeAll(async () => {
    t = await createTestApp(dialect);
    dir = mkdtempSync(join(tmpdir(), "org-import-"));
    const ssl = opensslIn(dir);
    await ssl.selfSignedCa("sign", "/O=ImpMSP/CN=ca.imp");
    await ssl.selfSignedCa("tls", "/O=ImpMSP/CN=tlsca.imp");
    await ssl.selfSignedCa("other", "/O=Other/CN=ca.other");
    viewer = await createUser(t, "vic", "viewer");
    manager = await createUser(t, "mia", "manager");
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const api = (method: "GET" | "POST", url: string, payload?: unknown, headers = t.admin) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { ...headers, "content-type": "application/json" },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  const body = (mspId: string, raw: Record<string, unknown>) => ({
    mspId,
    name: mspId,
    providerId: 0,
    sourceType: "raw",
    rawImport: raw,
    vaultImport: null,
    awsKmsImport: null,
    goExtra: "ignored",
  });
  const verify = async (caName: string, certPem: string) => {
    writeFileSync(join(dir, "leaf.pem"), certPem);
    const { stdout } = await run("openssl", ["verify", "-CAfile", join(dir, `${caName}.pem`), join(dir, "leaf.pem")]);
    expect(stdout).toContain("OK");
  };

  it("imports CAs with their keys, issues admin and client identities from them, and keeps keys private", async () => {
    const res = await api(
      "POST",
      "/organizations/import",
      body("ImpMSP", {
        signCaCert: pem("sign"),
        signCaPrivateKey: key("sign"),
        tlsCaCert: pem("tls"),
        tlsCaPrivateKey: key("tls"),
      }),
      manager,
    );
    expect(res.statusCode, res.body).toBe(201);
    const org = res.json() as Org;
    expect(org.mspId).toBe("ImpMSP");
    expect(org.signCertificate.trim()).toBe(pem("sign").trim());
    expect(org.adminSignKeyId && org.adminTlsKeyId && org.clientSignKeyId).toBeTruthy();
    expect(res.body).not.toMatch(/PRIVATE KEY/);
    const keys = (await api("GET", `/organizations/${org.id}/keys`)).json() as {
      keys: Record<string, { certificate: string; identityType: string; keyPurpose: string }>;
    };
    const admin = keys.keys[String(org.adminSignKeyId)]!;
    await verify("sign", admin.certificate);
    await verify("tls", keys.keys[String(org.adminTlsKeyId)]!.certificate);
    // The stored CA key signs: a new identity is issued by the imported CA.
    const created = await api("POST", `/organizations/${org.id}/identities`, { type: "peer" }, manager);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json() as Identity;
    expect(id.type).toBe("peer");
    await verify("sign", id.signCertificate);
    await verify("tls", id.tlsCertificate);
    expect(created.body).not.toMatch(/PRIVATE KEY/);
    const audit = await api("GET", "/audit/logs?event_type=organization.import&page_size=10");
    expect(audit.body).toContain("ImpMSP");
    expect(audit.body).not.toMatch(/PRIVATE KEY/);
  });

  it("refuses bad PEM, a key of another certificate, a missing certificate and other source types, naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ signCaCert: "nope", tlsCaCert: pem("tls") }, "rawImport.signCaCert"],
      [{ signCaCert: pem("sign"), tlsCaCert: pem("tls"), tlsCaPrivateKey: "-----BEGIN" }, "rawImport.tlsCaPrivateKey"],
      [
        { signCaCert: pem("sign"), signCaPrivateKey: key("other"), tlsCaCert: pem("tls") },
        "rawImport.signCaPrivateKey",
      ],
      [{ tlsCaCert: pem("tls") }, "rawImport.signCaCert"],
    ];
    for (const [raw, field] of cases) {
      const res = await api("POST", "/organizations/import", body("BadMSP", raw));
      expect(res.statusCode, res.body).toBe(400);
      expect((res.json() as { message: string }).message).toContain(field);
    }
    const vault = await api("POST", "/organizations/import", { ...body("BadMSP", {}), sourceType: "vault" });
    expect(vault.statusCode).toBe(400);
    expect(vault.json().message).toContain("sourceType");
    const list = (await api("GET", "/organizations?mspId=BadMSP")).json() as { count: number };
    expect(list.count).toBe(0);
  });

  it("makes one organization of concurrent imports of the same MSP id; certificates only leave no identities", async () => {
    const raw = { signCaCert: pem("other"), tlsCaCert: pem("tls") };
    const answers = await Promise.all([1, 2, 3].map(() => api("POST", "/organizations/import", body("RaceMSP", raw))));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([201, 409, 409]);
    const list = (await api("GET", "/organizations?mspId=RaceMSP")).json() as { count: number; items: Org[] };
    expect(list.count).toBe(1);
    expect(list.items[0]!.adminSignKeyId).toBeNull();
    // Without the CA's private key no identity can be issued; the refusal says why.
    const orgId = list.items[0]!.id;
    const refused = await api("POST", `/organizations/${orgId}/identities`, { type: "client" });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
  });

  it("lists identities grouped by type with a filter, and creates identities with Go-shaped bodies", async () => {
    const org = (await api("GET", "/organizations?mspId=ImpMSP")).json().items[0] as Org;
    const made = await api("POST", `/organizations/${org.id}/identities`, {
      type: "client",
      name: "",
      description: "",
      certValidFor: "",
      extra: null,
    });
    expect(made.statusCode, made.body).toBe(201);
    const all = await api("GET", `/organizations/${org.id}/identities`, undefined, viewer);
    expect(all.statusCode).toBe(200);
    const list = all.json() as { identityType: string; keyPurpose: string; certificate: string; keyId: number }[];
    const types = list.map((k) => k.identityType);
    expect(types).toEqual(
      [...types].sort(
        (a, b) => ["ca", "admin", "client", "peer"].indexOf(a) - ["ca", "admin", "client", "peer"].indexOf(b),
      ),
    );
    expect(list.filter((k) => k.identityType === "client")).toHaveLength(3);
    expect(all.body).not.toMatch(/PRIVATE KEY/);
    const peers = (await api("GET", `/organizations/${org.id}/identities?type=peer`, undefined, viewer)).json() as {
      identityType: string;
    }[];
    expect(peers.map((p) => p.identityType)).toEqual(["peer", "peer"]);
    const bad = await api("GET", `/organizations/${org.id}/identities?type=wizard`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("type");
    const badBody = await api("POST", `/organizations/${org.id}/identities`, { type: "orderer" });
    expect(badBody.statusCode).toBe(400);
    expect(badBody.body).toContain("type");
    const badDuration = await api("POST", `/organizations/${org.id}/identities`, {
      type: "admin",
      certValidFor: "forever",
    });
    expect(badDuration.statusCode).toBe(400);
    expect(badDuration.body).toContain("certValidFor");
    const empty = await api("POST", `/organizations/${org.id}/identities`, undefined);
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toMatch(/body|type/);
    expect((await api("GET", "/organizations/9999/identities")).statusCode).toBe(404);
  });

  it("lets viewers read but not import or create identities", async () => {
    const org = (await api("GET", "/organizations?mspId=ImpMSP")).json().items[0] as Org;
    const imp = await api("POST", "/organizations/import", body("ViewMSP", { signCaCert: pem("sign") }), viewer);
    expect(imp.statusCode).toBe(403);
    const create = await api("POST", `/organizations/${org.id}/identities`, { type: "client" }, viewer);
    expect(create.statusCode).toBe(403);
    expect((await api("GET", `/organizations/${org.id}/identities`, undefined, viewer)).statusCode).toBe(200);
  });
});
