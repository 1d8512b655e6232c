import "reflect-metadata";
import { createHash } from "node:crypto";
import * as x509 from "@peculiar/x509";
import { CryptoInputError } from "./errors.js";
import { keySpecOf, loadPublicKey, type KeySpec } from "./key-algorithms.js";

export interface DecodedName {
  /** RFC 4514 string, e.g. "CN=admin, OU=admin, O=Org1". */
  text: string;
  commonName: string | null;
  organization: string[];
  organizationalUnit: string[];
  country: string[];
  province: string[];
  locality: string[];
}

/** What the web certificate decoder shows; plain JSON. */
export interface DecodedCertificate {
  subject: DecodedName;
  issuer: DecodedName;
  /** Lower-case hex. */
  serialNumber: string;
  notBefore: string;
  notAfter: string;
  selfSigned: boolean;
  isCA: boolean;
  pathLength: number | null;
  sans: { dnsNames: string[]; ipAddresses: string[]; uris: string[]; emailAddresses: string[] };
  /** Key usage names as RFC 5280 spells them, e.g. ["digitalSignature", "keyCertSign"]. */
  keyUsages: string[];
  /** Extended key usage names (serverAuth, clientAuth, ...) or the OID when unnamed. */
  extKeyUsages: string[];
  subjectKeyId: string | null;
  authorityKeyId: string | null;
  signatureAlgorithm: string;
  publicKey: KeySpec | null;
  /** SHA-256 of the certificate DER, lower-case hex. */
  sha256Fingerprint: string;
  /** OIDs of every extension present, in order. */
  extensions: { oid: string; critical: boolean }[];
}

const KEY_USAGE_NAMES: [x509.KeyUsageFlags, string][] = [
  [x509.KeyUsageFlags.digitalSignature, "digitalSignature"],
  [x509.KeyUsageFlags.nonRepudiation, "nonRepudiation"],
  [x509.KeyUsageFlags.keyEncipherment, "keyEncipherment"],
  [x509.KeyUsageFlags.dataEncipherment, "dataEncipherment"],
  [x509.KeyUsageFlags.keyAgreement, "keyAgreement"],
  [x509.KeyUsageFlags.keyCertSign, "keyCertSign"],
  [x509.KeyUsageFlags.cRLSign, "cRLSign"],
  [x509.KeyUsageFlags.encipherOnly, "encipherOnly"],
  [x509.KeyUsageFlags.decipherOnly, "decipherOnly"],
];

const EKU_NAMES = new Map<string, string>(Object.entries(x509.ExtendedKeyUsage).map(([name, oid]) => [oid, name]));

function decodeName(name: x509.Name, text: string): DecodedName {
  return {
    text,
    commonName: name.getField("CN")[0] ?? null,
    organization: name.getField("O"),
    organizationalUnit: name.getField("OU"),
    country: name.getField("C"),
    province: name.getField("ST"),
    locality: name.getField("L"),
  };
}

/** Parses a PEM certificate (the first one in the text). */
export function parseCertificate(pem: string): x509.X509Certificate {
  try {
    return new x509.X509Certificate(pem);
  } catch {
    throw new CryptoInputError("certificate", "not a valid PEM certificate");
  }
}

/**
 * Decodes a PEM certificate into plain fields.
 * @throws CryptoInputError("certificate") when it isn't a certificate.
 */
export function decodeCertificate(pem: string): DecodedCertificate {
  const cert = parseCertificate(pem);
  const bc = cert.getExtension(x509.BasicConstraintsExtension);
  const ku = cert.getExtension(x509.KeyUsagesExtension);
  const eku = cert.getExtension(x509.ExtendedKeyUsageExtension);
  const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
  const ski = cert.getExtension(x509.SubjectKeyIdentifierExtension);
  const aki = cert.getExtension(x509.AuthorityKeyIdentifierExtension);
  const sans = {
    dnsNames: [] as string[],
    ipAddresses: [] as string[],
    uris: [] as string[],
    emailAddresses: [] as string[],
  };
  for (const n of san?.names.items ?? []) {
    if (n.type === "dns") sans.dnsNames.push(n.value);
    else if (n.type === "ip") sans.ipAddresses.push(n.value);
    else if (n.type === "url") sans.uris.push(n.value);
    else if (n.type === "email") sans.emailAddresses.push(n.value);
  }
  let publicKey: KeySpec | null = null;
  try {
    publicKey = keySpecOf(loadPublicKey(new Uint8Array(cert.publicKey.rawData)));
  } catch {
    publicKey = null;
  }
  // HashedAlgorithm's base type is the DOM Algorithm, which our Node-only lib doesn't declare.
  const sig = cert.signatureAlgorithm as unknown as { name: string; hash?: { name: string } | string };
  const hashName = typeof sig.hash === "string" ? sig.hash : sig.hash?.name;
  const sigHash = hashName ? `${hashName} with ` : "";
  return {
    subject: decodeName(cert.subjectName, cert.subject),
    issuer: decodeName(cert.issuerName, cert.issuer),
    serialNumber: cert.serialNumber.toLowerCase(),
    notBefore: cert.notBefore.toISOString(),
    notAfter: cert.notAfter.toISOString(),
    selfSigned: cert.subject === cert.issuer,
    isCA: bc?.ca ?? false,
    pathLength: bc?.pathLength ?? null,
    sans,
    keyUsages: ku ? KEY_USAGE_NAMES.filter(([flag]) => (ku.usages & flag) !== 0).map(([, n]) => n) : [],
    extKeyUsages: (eku?.usages ?? []).map((u) => EKU_NAMES.get(String(u)) ?? String(u)),
    subjectKeyId: ski?.keyId.toLowerCase() ?? null,
    authorityKeyId: aki?.keyId?.toLowerCase() ?? null,
    signatureAlgorithm: `${sigHash}${sig.name}`,
    publicKey,
    sha256Fingerprint: createHash("sha256").update(Buffer.from(cert.rawData)).digest("hex"),
    extensions: cert.extensions.map((e) => ({ oid: e.type, critical: e.critical })),
  };
}

/** The certificate's public key as a node KeyObject. */
export function certificatePublicKey(pem: string): ReturnType<typeof loadPublicKey> {
  return loadPublicKey(new Uint8Array(parseCertificate(pem).publicKey.rawData));
}
