import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { nowIso } from "../../db/db.js";
import { buildCcaasPackage } from "../../fabric/chaincode/package.js";
import { ConflictError } from "../../http/errors.js";
import type { ChaincodeRow, DefinitionRow } from "./chaincodes.repo.js";
import type { ChaincodeShared, ChaincodesDeps } from "./chaincodes.shared.js";

/** The ccaas package of a definition and its chaincode server's TLS material. */
export function createChaincodePackaging(deps: ChaincodesDeps, s: ChaincodeShared) {
  const { repo, ctx } = deps;
  const { defDir, channelNodes } = s;

  /**
   * The chaincode server's TLS key, issued once by the TLS CA of the first org of this console
   * with a peer on the channel (server auth, the address's host as SAN).
   */
  async function tlsIdentity(cc: ChaincodeRow, d: DefinitionRow): Promise<{ keyId: number; caCert: string }> {
    let keyId = d.tls_key_id;
    if (!keyId) {
      const { peers } = await channelNodes(cc.network_id);
      const first = peers[0];
      if (!first)
        throw new ConflictError(
          `tls: channel '${cc.network_name}' has no peer of this console to issue the chaincode's TLS certificate`,
        );
      const org = await ctx.org(first.organizationId, "organizationId");
      const host = d.chaincode_address.slice(0, d.chaincode_address.lastIndexOf(":"));
      const isIp = /^[\d.]+$|:/.test(host);
      const key = await deps.keys.createKey({
        name: `chaincode-${cc.name}-${d.id}-tls`,
        description: `TLS of the chaincode server of ${cc.name} ${d.version} (definition ${d.id})`,
        spec: { algorithm: "EC", curve: "P-256" },
        providerId: org.row.provider_id,
        exportable: true,
        certificate: {
          subject: { commonName: `${cc.name}.chaincode`, organization: [org.mspId] },
          sans: {
            dnsNames: [...new Set(["localhost", ...(isIp ? [] : [host])])],
            ipAddresses: [...new Set(["127.0.0.1", ...(isIp ? [host] : [])])],
          },
          validForMs: 365 * 86_400_000,
          extKeyUsage: ["serverAuth"],
          signingKeyId: org.row.tls_root_key_id,
        },
      });
      keyId = key.id;
      await repo.updateDefinition(d.id, { tls_key_id: keyId, updated_at: nowIso() });
      d.tls_key_id = keyId;
    }
    const key = await deps.keys.row(keyId);
    const ca = key.signing_key_id ? await deps.keys.row(key.signing_key_id) : undefined;
    return { keyId, caCert: ca?.certificate ?? "" };
  }

  /** Builds (deterministically) the ccaas package of a definition and records its id (origin "package": the caller's). */
  async function packageOf(cc: ChaincodeRow, d: DefinitionRow): Promise<{ bytes: Buffer; packageId: string }> {
    // A package the caller brought (upstream's per-peer lifecycle): its id is the one approved, never rebuilt.
    if (d.origin === "package") {
      const bytes = await readFile(join(defDir(d.id), "package.tar.gz")).catch(() => Buffer.alloc(0));
      return { bytes, packageId: d.package_id ?? "" };
    }
    const label = `${cc.name}_${d.version}`.replace(/[^A-Za-z0-9_.+-]/g, "_");
    const tls = d.tls === 1 ? await tlsIdentity(cc, d) : undefined;
    const pkg = buildCcaasPackage({
      label,
      connection: {
        address: d.chaincode_address,
        dial_timeout: "10s",
        tls_required: Boolean(tls),
        ...(tls ? { client_auth_required: false, root_cert: tls.caCert } : {}),
      },
    });
    if (d.package_id !== pkg.packageId) {
      await repo.updateDefinition(d.id, { package_id: pkg.packageId, updated_at: nowIso() });
      d.package_id = pkg.packageId;
    }
    await mkdir(defDir(d.id), { recursive: true });
    await writeFile(join(defDir(d.id), "package.tar.gz"), pkg.bytes);
    return { bytes: pkg.bytes, packageId: pkg.packageId };
  }

  /** Writes the server's TLS key and certificate (0600) for the process to read. */
  async function tlsFiles(d: DefinitionRow): Promise<{ keyFile: string; certFile: string } | undefined> {
    if (d.tls !== 1 || !d.tls_key_id) return undefined;
    const dir = join(defDir(d.id), "tls");
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const key = await deps.keys.row(d.tls_key_id);
    const keyFile = join(dir, "server.key");
    const certFile = join(dir, "server.crt");
    await writeFile(keyFile, await deps.keys.exportPrivateKeyPem(d.tls_key_id), { mode: 0o600 });
    await writeFile(certFile, key.certificate ?? "", { mode: 0o644 });
    return { keyFile, certFile };
  }

  return { tlsIdentity, packageOf, tlsFiles };
}

export type ChaincodePackaging = ReturnType<typeof createChaincodePackaging>;
