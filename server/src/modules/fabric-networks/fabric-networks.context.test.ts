import { createPublicKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import { issueCertificate } from "../../crypto/certificates.js";
import { createTestOrg } from "../../fabric/test-support/org-fixtures.js";
import { createFabricContext, type FabricNetworksDeps } from "./fabric-networks.context.js";

/**
 * The context keeps loaded admin identities by key version: these cases check that a renewed
 * certificate and a deleted key are seen on the next use, with in-memory rows standing in for the
 * database (what is under test is the cache, not the repositories).
 */
describe("Fabric context admin identities", () => {
  async function setup() {
    const org = await createTestOrg("CtxOrgMSP", "ctx.example.com");
    const admin = await org.identity("admin", "admin");
    const keyRow = (id: number, certificate: string, updated: string) => ({
      id,
      sha256_fingerprint: `fp${id}`,
      provider_id: 1,
      provider_key_ref: null,
      certificate,
      updated_at: updated,
    });
    const rows = new Map<number, ReturnType<typeof keyRow>>([
      [1, keyRow(1, org.ca.certificatePem, "t0")],
      [2, keyRow(2, org.tlsCa.certificatePem, "t0")],
      [3, keyRow(3, admin.certPem, "t0")],
    ]);
    let exports = 0;
    const deps = {
      repo: {},
      nodes: {},
      orgs: {
        byId: async () => ({ id: 7, msp_id: "CtxOrgMSP", sign_key_id: 1, tls_root_key_id: 2, admin_sign_key_id: 3 }),
      },
      keys: {
        row: async (id: number) => {
          const r = rows.get(id);
          if (!r) throw new Error(`key ${id} not found`);
          return r;
        },
        exportPrivateKeyPem: async () => {
          exports++;
          return admin.keyPem;
        },
      },
      pki: {},
      external: {},
    } as unknown as FabricNetworksDeps;
    return { org, admin, rows, keyRow, deps, exports: () => exports };
  }

  it("loads an admin identity once while its key row is unchanged", async () => {
    const s = await setup();
    const ctx = createFabricContext(s.deps);
    const a = await (await ctx.org(7, "organizationId")).admin();
    const b = await (await ctx.org(7, "organizationId")).admin();
    expect(b).toBe(a);
    expect(s.exports()).toBe(1);
    expect(a.certPem.trim()).toBe(s.admin.certPem.trim());
  });

  it("signs with the renewed certificate after a renewal, and fails once the key is deleted", async () => {
    const s = await setup();
    const ctx = createFabricContext(s.deps);
    await (await ctx.org(7, "organizationId")).admin();
    // A renewal: a new certificate for the same key pair (updated_at moves with it).
    const renewed = await issueCertificate({
      issuer: s.org.ca,
      publicKey: createPublicKey(s.admin.keyPem),
      subject: { commonName: "admin", organization: ["CtxOrgMSP"], organizationalUnit: ["admin"] },
      validity: { notAfter: new Date(Date.now() + 86_400_000) },
    });
    s.rows.set(3, s.keyRow(3, renewed.pem, "t1"));
    const after = await (await ctx.org(7, "organizationId")).admin();
    expect(after.certPem.trim()).toBe(renewed.pem.trim());
    expect(s.exports()).toBe(2);
    s.rows.delete(3);
    await expect((await ctx.org(7, "organizationId")).admin()).rejects.toThrow(/key 3 not found/);
  });
});
