import { decodeCertificate } from "../../crypto/certificate-decoder.js";
import { CryptoInputError } from "../../crypto/errors.js";
import type { NodeOuRole } from "./local-msp.js";
import { assertValidMspId } from "./msp-id.js";

export interface FabricOuIdentifier {
  /** PEM of the CA the OU is scoped to. */
  certificate: string;
  organizationalUnitIdentifier: NodeOuRole;
}

/**
 * An organization's MSP as it appears in channel config, field for field the
 * `msp.FabricMSPConfig` protobuf (camelCase JSON names). PEM strings stay text here; the
 * channel-config encoder turns them into bytes.
 */
export interface ChannelMspConfig {
  name: string;
  rootCerts: string[];
  intermediateCerts: string[];
  /** Empty: with NodeOUs, admins are recognised by the `admin` OU. */
  admins: string[];
  revocationList: string[];
  organizationalUnitIdentifiers: FabricOuIdentifier[];
  cryptoConfig: { signatureHashFamily: "SHA2"; identityIdentifierHashFunction: "SHA256" };
  tlsRootCerts: string[];
  tlsIntermediateCerts: string[];
  fabricNodeOus: {
    enable: true;
    clientOuIdentifier: FabricOuIdentifier;
    peerOuIdentifier: FabricOuIdentifier;
    adminOuIdentifier: FabricOuIdentifier;
    ordererOuIdentifier: FabricOuIdentifier;
  };
}

/**
 * Builds the channel MSP of an organization from its sign CA, TLS CA and CRLs, with NodeOUs
 * pointing at the sign CA (as chainlaunch and fabric-config configure it).
 * @throws CryptoInputError for an invalid mspId or CA certs Fabric would refuse.
 */
export function buildChannelMsp(params: {
  mspId: string;
  caCertPem: string;
  tlsCaCertPem: string;
  intermediateCertPems?: string[];
  tlsIntermediateCertPems?: string[];
  crlPems?: string[];
}): ChannelMspConfig {
  assertValidMspId(params.mspId);
  for (const [field, pem] of [
    ["caCertPem", params.caCertPem],
    ["tlsCaCertPem", params.tlsCaCertPem],
  ] as const) {
    const cert = decodeCertificate(pem);
    if (!cert.isCA || !cert.subjectKeyId) {
      throw new CryptoInputError(field, `${field} must be a CA certificate with a Subject Key Identifier`);
    }
  }
  for (const crl of params.crlPems ?? []) {
    if (!/-----BEGIN X509 CRL-----/.test(crl))
      throw new CryptoInputError("crlPems", "revocation lists must be PEM X509 CRLs");
  }
  const ou = (role: NodeOuRole): FabricOuIdentifier => ({
    certificate: params.caCertPem,
    organizationalUnitIdentifier: role,
  });
  return {
    name: params.mspId,
    rootCerts: [params.caCertPem],
    intermediateCerts: params.intermediateCertPems ?? [],
    admins: [],
    revocationList: params.crlPems ?? [],
    organizationalUnitIdentifiers: [],
    cryptoConfig: { signatureHashFamily: "SHA2", identityIdentifierHashFunction: "SHA256" },
    tlsRootCerts: [params.tlsCaCertPem],
    tlsIntermediateCerts: params.tlsIntermediateCertPems ?? [],
    fabricNodeOus: {
      enable: true,
      clientOuIdentifier: ou("client"),
      peerOuIdentifier: ou("peer"),
      adminOuIdentifier: ou("admin"),
      ordererOuIdentifier: ou("orderer"),
    },
  };
}
