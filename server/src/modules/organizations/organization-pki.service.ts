import { X509Certificate } from "node:crypto";
import { decodeCertificate } from "../../crypto/certificate-decoder.js";
import { parseDuration, type SubjectName } from "../../crypto/certificates.js";
import { createCrl, normaliseSerialNumber } from "../../crypto/crl.js";
import type { KeySpec } from "../../crypto/key-algorithms.js";
import { nowIso } from "../../db/db.js";
import { ConflictError, InputError, NotFoundError } from "../../http/errors.js";
import { withNamedInput } from "../keys/crypto-errors.js";
import type { CertificateSpec, KeysService } from "../keys/keys.service.js";
import type { KeyWithProviderRow } from "../keys/keys.repo.js";
import type { OrganizationRow, OrganizationsRepo } from "./organizations.repo.js";

const P256: KeySpec = { algorithm: "EC", curve: "P-256" };
const CRL_VALIDITY_MS = 30 * 86_400_000;
export type IdentityRole = "admin" | "client" | "peer" | "orderer";
export type CaType = "sign" | "tls";

/** Parses an optional Go duration into ms, as a named 400 on bad input. */
export function parseValidFor(value: string | undefined, field: string, fallbackMs: number): number {
  if (!value) return fallbackMs;
  try {
    return parseDuration(value, field);
  } catch (err) {
    throw new InputError(`${field}: ${(err as Error).message}`, { field });
  }
}

type LocationSubject = Omit<SubjectName, "commonName" | "organization" | "organizationalUnit">;

/**
 * An organization's PKI: creating its CAs and identities, issuing and renewing certificates,
 * and revocation with a signed CRL. Keys go through the keys service, so any provider works.
 */
export function createOrganizationPki(deps: { repo: OrganizationsRepo; keys: KeysService }) {
  const { repo, keys } = deps;

  function identitySpec(
    org: { msp_id: string },
    caKeyId: number,
    caType: CaType,
    p: {
      commonName: string;
      role: IdentityRole;
      dnsNames?: string[] | undefined;
      ipAddresses?: string[] | undefined;
      validForMs: number;
      location?: LocationSubject;
    },
  ): CertificateSpec {
    return {
      subject: {
        ...(p.location ?? {}),
        commonName: p.commonName,
        organization: [org.msp_id],
        organizationalUnit: [p.role],
      },
      sans: { dnsNames: p.dnsNames, ipAddresses: p.ipAddresses },
      validForMs: p.validForMs,
      // TLS certs serve and dial (mutual TLS between Fabric nodes); signing certs need no EKU.
      extKeyUsage: caType === "tls" ? ["serverAuth", "clientAuth"] : [],
      signingKeyId: caKeyId,
    };
  }

  async function caKeyOf(org: OrganizationRow, caType: CaType): Promise<KeyWithProviderRow> {
    return keys.row(caType === "tls" ? org.tls_root_key_id : org.sign_key_id);
  }

  return {
    /** Generates the five keys of a new organization (outside any transaction). */
    async createOrganizationKeys(p: {
      mspId: string;
      providerId: number | null;
      subject: LocationSubject;
      caValidForMs: number;
      certValidForMs: number;
      onCreated: (keyId: number) => void;
    }) {
      // The providers are looked up once for the five keys: the CAs' and the identities' (which must export).
      const caProvider = await keys.provider(p.providerId, false);
      const identityProvider = await keys.provider(p.providerId, true);
      const make = async (name: string, certificate: CertificateSpec): Promise<KeyWithProviderRow> => {
        // Pending until the organization row commits (a crash in between leaves nothing at the next boot).
        // The two CA keys stay in the org's provider; identities are written to disk by the peer CLI
        // and nodes, so they go where keys can be exported (their certificates are still CA-signed).
        const row = await keys.createKey({
          name,
          spec: P256,
          providerId: p.providerId,
          certificate,
          pending: true,
          exportable: !certificate.isCA,
          provider: certificate.isCA ? caProvider : identityProvider,
        });
        p.onCreated(row.id);
        return row;
      };
      const ca = (cn: string): CertificateSpec => ({
        subject: { ...p.subject, commonName: cn, organization: [p.mspId] },
        validForMs: p.caValidForMs,
        isCA: true,
      });
      const signCa = await make(`${p.mspId}-sign-ca`, ca(`ca.${p.mspId}`));
      const tlsCa = await make(`${p.mspId}-tls-ca`, ca(`tlsca.${p.mspId}`));
      const org = { msp_id: p.mspId };
      const common = { validForMs: p.certValidForMs, location: p.subject };
      // The CA rows were just made: the identities' certificates are issued without reading them again.
      const adminSign = await make(`${p.mspId}-admin-sign`, {
        ...identitySpec(org, signCa.id, "sign", { ...common, commonName: `admin@${p.mspId}`, role: "admin" }),
        issuerRow: signCa,
        issuerProvider: caProvider,
      });
      const adminTls = await make(`${p.mspId}-admin-tls`, {
        ...identitySpec(org, tlsCa.id, "tls", {
          ...common,
          commonName: `admin@${p.mspId}`,
          role: "admin",
          dnsNames: ["localhost"],
          ipAddresses: ["127.0.0.1"],
        }),
        issuerRow: tlsCa,
        issuerProvider: caProvider,
      });
      const clientSign = await make(`${p.mspId}-client-sign`, {
        ...identitySpec(org, signCa.id, "sign", { ...common, commonName: `client@${p.mspId}`, role: "client" }),
        issuerRow: signCa,
        issuerProvider: caProvider,
      });
      return { providerId: signCa.provider_id, signCa, tlsCa, adminSign, adminTls, clientSign };
    },

    /** POST /organizations/{id}/keys: a new identity signed by the org's sign (or TLS) CA. */
    async issueIdentity(
      org: OrganizationRow,
      body: {
        name: string;
        description?: string | undefined;
        role: IdentityRole;
        caType?: CaType | undefined;
        validFor?: string | undefined;
        dnsNames?: string[] | undefined;
        ipAddresses?: string[] | undefined;
      },
    ): Promise<KeyWithProviderRow> {
      const caType = body.caType ?? "sign";
      const ca = await caKeyOf(org, caType);
      const validForMs = parseValidFor(body.validFor, "validFor", 365 * 86_400_000);
      const row = await keys.createKey({
        name: body.name,
        description: body.description ?? null,
        spec: P256,
        providerId: org.provider_id,
        exportable: true,
        certificate: identitySpec(org, ca.id, caType, {
          commonName: body.name,
          role: body.role,
          dnsNames: body.dnsNames,
          ipAddresses: body.ipAddresses,
          validForMs,
        }),
      });
      try {
        await repo.insertKey({
          organization_id: org.id,
          key_id: row.id,
          role: body.role,
          purpose: caType,
          created_at: nowIso(),
        });
      } catch (err) {
        await keys.removeOwned([row.id]).catch(() => undefined);
        throw err;
      }
      return row;
    },

    /** POST /organizations/{id}/keys/renew: reissues a certificate for the same key pair. */
    async renew(
      org: OrganizationRow,
      body: {
        keyId: number;
        caType?: CaType | undefined;
        role?: IdentityRole | undefined;
        validFor?: string | undefined;
        dnsNames?: string[] | undefined;
        ipAddresses?: string[] | undefined;
      },
    ): Promise<KeyWithProviderRow> {
      const link = await repo.keyLink(org.id, body.keyId);
      if (!link) throw new NotFoundError(`keyId: key ${body.keyId} does not belong to organization ${org.msp_id}`);
      const key = await keys.row(body.keyId);
      if (!key.certificate)
        throw new InputError(`keyId: key ${body.keyId} has no certificate to renew`, { field: "keyId" });
      const current = decodeCertificate(key.certificate);
      const subject: SubjectName = {
        commonName: current.subject.commonName ?? key.name,
        organization: current.subject.organization,
        organizationalUnit: current.subject.organizationalUnit,
        country: current.subject.country,
        province: current.subject.province,
        locality: current.subject.locality,
      };
      if (link.purpose === "ca" || link.purpose === "tlsca") {
        // Same key and subject, so certificates it issued still verify against the new one.
        const validForMs = parseValidFor(body.validFor, "validFor", 10 * 365 * 86_400_000);
        return keys.recertify(key.id, { subject, validForMs, isCA: true, signingKeyId: null });
      }
      const caType: CaType = body.caType ?? (link.purpose === "tls" ? "tls" : "sign");
      const ca = await caKeyOf(org, caType);
      const role = body.role ?? (link.role as IdentityRole);
      const spec = identitySpec(org, ca.id, caType, {
        commonName: subject.commonName,
        role,
        dnsNames: body.dnsNames ?? current.sans.dnsNames,
        ipAddresses: body.ipAddresses ?? current.sans.ipAddresses,
        validForMs: parseValidFor(body.validFor, "validFor", 365 * 86_400_000),
      });
      spec.subject = { ...subject, organizationalUnit: [role] };
      const renewed = await keys.recertify(key.id, spec);
      if (role !== link.role)
        await repo.transaction(async (trx) => {
          await repo.deleteKeyLink(org.id, key.id, trx);
          await repo.insertKey(
            { organization_id: org.id, key_id: key.id, role, purpose: link.purpose, created_at: link.created_at },
            trx,
          );
        });
      return renewed;
    },

    /** Revokes a certificate given as PEM; it must have been issued by one of the org's CAs. */
    async revokeByPem(org: OrganizationRow, pem: string, reason = 0): Promise<string> {
      let cert: X509Certificate;
      try {
        cert = new X509Certificate(pem);
      } catch {
        throw new InputError("certificate: not a valid PEM certificate", { field: "certificate" });
      }
      let caType: CaType | undefined;
      for (const type of ["sign", "tls"] as const) {
        const ca = await caKeyOf(org, type);
        const caCert = new X509Certificate(ca.certificate ?? "");
        if (cert.checkIssued(caCert) && cert.verify(caCert.publicKey)) caType = type;
      }
      if (!caType)
        throw new InputError(`certificate: it was not issued by organization ${org.msp_id}'s CAs`, {
          field: "certificate",
        });
      return this.revokeSerial(org, cert.serialNumber, reason, caType);
    },

    async revokeSerial(org: OrganizationRow, serial: string, reason = 0, caType: CaType = "sign"): Promise<string> {
      const serialNumber = await withNamedInput(async () => normaliseSerialNumber(serial));
      // A Vault PKI CA revokes first (it refuses serials it never issued); doing it again is harmless.
      const providerCa = await keys.providerCa(await caKeyOf(org, caType));
      if (providerCa) {
        if ((await repo.revoked(org.id, caType)).some((r) => r.serial_number === serialNumber)) {
          throw new ConflictError(`serialNumber: ${serialNumber} is already revoked`);
        }
        await providerCa.revoke(serialNumber);
      }
      const ts = nowIso();
      try {
        await repo.insertRevoked({
          organization_id: org.id,
          serial_number: serialNumber,
          ca_type: caType,
          reason,
          revocation_time: ts,
          created_at: ts,
        });
      } catch (err) {
        const e = err as { code?: string; message?: string };
        if (e?.code === "23505" || /UNIQUE constraint/i.test(e?.message ?? "")) {
          throw new ConflictError(`serialNumber: ${serialNumber} is already revoked`);
        }
        throw err;
      }
      return serialNumber;
    },

    async unrevoke(org: OrganizationRow, serial: string): Promise<string> {
      const serialNumber = await withNamedInput(async () => normaliseSerialNumber(serial));
      for (const type of ["sign", "tls"] as const) {
        if (await keys.providerCa(await caKeyOf(org, type))) {
          throw new InputError(
            `serialNumber: organization ${org.msp_id}'s CAs are Vault PKI issuers, and Vault can't take back a revocation`,
            { field: "serialNumber" },
          );
        }
      }
      if ((await repo.deleteRevoked(org.id, serialNumber)) === 0) {
        throw new NotFoundError(`serialNumber: ${serialNumber} is not revoked by organization ${org.msp_id}`);
      }
      return serialNumber;
    },

    async revokedList(
      org: OrganizationRow,
    ): Promise<{ serialNumber: string; revocationTime: string; reason: number }[]> {
      return (await repo.revoked(org.id)).map((r) => ({
        serialNumber: r.serial_number,
        revocationTime: r.revocation_time,
        reason: r.reason,
      }));
    },

    /**
     * A fresh CRL signed by the org's sign CA (or TLS CA), with the next CRL number. The
     * channel-config code puts these into the org's MSP revocation_list.
     */
    async crl(org: OrganizationRow, caType: CaType = "sign"): Promise<string> {
      const ca = await caKeyOf(org, caType);
      const providerCa = await keys.providerCa(ca);
      // A Vault PKI CA keeps its own revocation list (revokeSerial revoked there too).
      if (providerCa) return providerCa.crl();
      const entries = (await repo.revoked(org.id, caType)).map((r) => ({
        serialNumber: r.serial_number,
        revocationDate: new Date(r.revocation_time),
        reason: r.reason,
      }));
      const thisUpdate = new Date();
      const crlNumber = await repo.nextCrlNumber(org.id, thisUpdate.toISOString());
      const signer = await keys.signerFor(ca.id);
      const crl = await withNamedInput(() =>
        createCrl({
          issuer: { certificatePem: ca.certificate ?? "", signer },
          revoked: entries,
          crlNumber,
          thisUpdate,
          nextUpdate: new Date(thisUpdate.getTime() + CRL_VALIDITY_MS),
        }),
      );
      return crl.pem;
    },
  };
}

export type OrgKeys = ReturnType<typeof createOrganizationPki>;
