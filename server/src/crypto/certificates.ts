import "reflect-metadata";
import { randomBytes, type KeyObject } from "node:crypto";
import { isIP } from "node:net";
import * as x509 from "@peculiar/x509";
import { CryptoInputError } from "./errors.js";
import { keySpecOf, loadPublicKey, publicKeyToDer, subjectKeyIdentifier } from "./key-algorithms.js";
import { peculiarSigningParams, type CertificateSigner } from "./signer.js";

/** Subject distinguished name. Attribute order follows Go's pkix.Name (C, ST, L, street, postalCode, O, OU, CN). */
export interface SubjectName {
  commonName: string;
  organization?: string[];
  organizationalUnit?: string[];
  country?: string[];
  province?: string[];
  locality?: string[];
  streetAddress?: string[];
  postalCode?: string[];
}

export interface SubjectAltNames {
  dnsNames?: string[];
  ipAddresses?: string[];
  uris?: string[];
  emailAddresses?: string[];
}

export type ExtKeyUsageName = "serverAuth" | "clientAuth";

export interface Validity {
  /** Defaults to five minutes before `now`, tolerating clock skew between hosts (as cryptogen does). */
  notBefore?: Date;
  notAfter: Date;
}

/** The issuing CA: its certificate and something that signs with its key. */
export interface Issuer {
  certificatePem: string;
  signer: CertificateSigner;
}

export interface IssuedCertificate {
  pem: string;
  /** Lower-case hex, no leading zeros beyond DER's sign byte. */
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  /** Subject Key Identifier written into the certificate (lower-case hex). */
  subjectKeyId: string;
}

const SKEW_MS = 5 * 60 * 1000;
const OID_STREET = "2.5.4.9";
const OID_POSTAL_CODE = "2.5.4.17";

/** A random positive 128-bit serial (RFC 5280 allows up to 20 octets; the top bit is kept clear). */
export function randomSerialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] as number) & 0x7f) | 0x40;
  return bytes.toString("hex");
}

/**
 * Parses a validity duration: Go style as the upstream API sends (`8760h`, `90m`, `1h30m`)
 * plus `d` and `y` (365 days) for humans.
 * @throws CryptoInputError(field) for anything else or a non-positive duration.
 */
export function parseDuration(value: string, field = "validFor"): number {
  const units: Record<string, number> = { s: 1e3, m: 6e4, h: 36e5, d: 864e5, y: 365 * 864e5 };
  const re = /(\d+(?:\.\d+)?)([smhdy])/g;
  const trimmed = value.trim();
  let total = 0;
  let consumed = 0;
  for (const m of trimmed.matchAll(re)) {
    if (m.index !== consumed) break;
    total += Number(m[1]) * (units[m[2] as string] as number);
    consumed += m[0].length;
  }
  if (trimmed === "" || consumed !== trimmed.length || total <= 0) {
    throw new CryptoInputError(field, `invalid duration "${value}"; use for example 8760h or 365d`);
  }
  return total;
}

function toName(subject: SubjectName): x509.JsonNameParams {
  const cn = subject.commonName?.trim() ?? "";
  if (cn.length === 0 || cn.length > 64) {
    throw new CryptoInputError("commonName", "commonName must be 1 to 64 characters");
  }
  for (const c of subject.country ?? []) {
    if (!/^[A-Za-z]{2}$/.test(c)) throw new CryptoInputError("country", `country "${c}" must be a two-letter ISO code`);
  }
  const rdns: x509.JsonNameParams = [];
  const add = (key: string, values: string[] | undefined): void => {
    for (const v of values ?? []) if (v.trim() !== "") rdns.push({ [key]: [v] });
  };
  add("C", subject.country);
  add("ST", subject.province);
  add("L", subject.locality);
  add(OID_STREET, subject.streetAddress);
  add(OID_POSTAL_CODE, subject.postalCode);
  add("O", subject.organization);
  add("OU", subject.organizationalUnit);
  add("CN", [cn]);
  return rdns;
}

function toGeneralNames(sans: SubjectAltNames): x509.JsonGeneralNames {
  const out: x509.JsonGeneralNames = [];
  for (const d of sans.dnsNames ?? []) {
    if (!/^(\*\.)?[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})(\.[A-Za-z0-9_-]{1,63})*\.?$/.test(d) || d.length > 253) {
      throw new CryptoInputError("dnsNames", `"${d}" is not a valid DNS name`);
    }
    out.push({ type: "dns", value: d });
  }
  for (const ip of sans.ipAddresses ?? []) {
    if (isIP(ip) === 0) throw new CryptoInputError("ipAddresses", `"${ip}" is not an IP address`);
    out.push({ type: "ip", value: ip });
  }
  for (const uri of sans.uris ?? []) {
    if (!URL.canParse(uri)) throw new CryptoInputError("uris", `"${uri}" is not a URI`);
    out.push({ type: "url", value: uri });
  }
  for (const email of sans.emailAddresses ?? []) {
    if (!/^[^\s@]+@[^\s@]+$/.test(email))
      throw new CryptoInputError("emailAddresses", `"${email}" is not an email address`);
    out.push({ type: "email", value: email });
  }
  return out;
}

function checkValidity(validity: Validity, now: Date): { notBefore: Date; notAfter: Date } {
  const notBefore = validity.notBefore ?? new Date(now.getTime() - SKEW_MS);
  const { notAfter } = validity;
  if (Number.isNaN(notAfter.getTime()) || Number.isNaN(notBefore.getTime())) {
    throw new CryptoInputError("validity", "validity dates must be valid dates");
  }
  if (notAfter.getTime() <= now.getTime()) {
    throw new CryptoInputError("validity", `validity ends in the past (${notAfter.toISOString()})`);
  }
  if (notAfter.getTime() <= notBefore.getTime()) {
    throw new CryptoInputError("validity", "validity must end after it starts");
  }
  return { notBefore, notAfter };
}

function keyUsageFor(publicKey: KeyObject, isCA: boolean): x509.KeyUsageFlags {
  let flags = x509.KeyUsageFlags.digitalSignature;
  if (isCA) flags |= x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign;
  if (keySpecOf(publicKey).algorithm === "RSA") flags |= x509.KeyUsageFlags.keyEncipherment;
  return flags;
}

function finish(cert: x509.X509Certificate, ski: string): IssuedCertificate {
  return {
    pem: cert.toString("pem") + "\n",
    serialNumber: cert.serialNumber.toLowerCase(),
    notBefore: cert.notBefore,
    notAfter: cert.notAfter,
    subjectKeyId: ski,
  };
}

/**
 * Creates a self-signed certificate, by default a root CA: basicConstraints CA (critical),
 * keyUsage keyCertSign + cRLSign + digitalSignature (critical) and a Subject Key Identifier,
 * which Fabric's MSP requires of every CA cert.
 */
export async function createSelfSignedCertificate(params: {
  signer: CertificateSigner;
  subject: SubjectName;
  validity: Validity;
  isCA?: boolean;
  pathLength?: number;
  sans?: SubjectAltNames;
  now?: Date;
}): Promise<IssuedCertificate> {
  const isCA = params.isCA ?? true;
  const now = params.now ?? new Date();
  const { notBefore, notAfter } = checkValidity(params.validity, now);
  const name = new x509.Name(toName(params.subject));
  const ski = subjectKeyIdentifier(params.signer.publicKey);
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(isCA, isCA ? params.pathLength : undefined, true),
    new x509.KeyUsagesExtension(keyUsageFor(params.signer.publicKey, isCA), true),
    new x509.SubjectKeyIdentifierExtension(ski),
  ];
  const generalNames = toGeneralNames(params.sans ?? {});
  if (generalNames.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(generalNames));
  const { signingKey, signingAlgorithm, crypto } = peculiarSigningParams(params.signer);
  const cert = await x509.X509CertificateGenerator.create(
    {
      serialNumber: randomSerialNumber(),
      subject: name,
      issuer: name,
      notBefore,
      notAfter,
      publicKey: publicKeyToDer(params.signer.publicKey),
      signingKey,
      signingAlgorithm,
      extensions,
    },
    crypto,
  );
  return finish(cert, ski);
}

/**
 * Checks that `issuer` can issue: its certificate is a CA with keyCertSign, unexpired, and
 * belongs to the signer's key. Returns the parsed certificate and the key id for the AKI.
 * @throws CryptoInputError("issuer")
 */
export function checkIssuer(issuer: Issuer, now: Date = new Date()): { cert: x509.X509Certificate; keyId: string } {
  let cert: x509.X509Certificate;
  try {
    cert = new x509.X509Certificate(issuer.certificatePem);
  } catch {
    throw new CryptoInputError("issuer", "the issuer certificate is not a valid PEM certificate");
  }
  const bc = cert.getExtension(x509.BasicConstraintsExtension);
  if (!bc?.ca) throw new CryptoInputError("issuer", `the issuer "${cert.subject}" is not a CA`);
  const ku = cert.getExtension(x509.KeyUsagesExtension);
  if (ku && (ku.usages & x509.KeyUsageFlags.keyCertSign) === 0) {
    throw new CryptoInputError("issuer", `the issuer "${cert.subject}" may not sign certificates (no keyCertSign)`);
  }
  if (cert.notAfter.getTime() <= now.getTime()) {
    throw new CryptoInputError("issuer", `the issuer "${cert.subject}" expired on ${cert.notAfter.toISOString()}`);
  }
  const certSpki = Buffer.from(cert.publicKey.rawData);
  if (!certSpki.equals(publicKeyToDer(issuer.signer.publicKey))) {
    throw new CryptoInputError("issuer", "the issuer certificate does not belong to the signing key");
  }
  const ski = cert.getExtension(x509.SubjectKeyIdentifierExtension);
  return { cert, keyId: ski?.keyId.toLowerCase() ?? subjectKeyIdentifier(issuer.signer.publicKey) };
}

/**
 * Issues a certificate for `publicKey` signed by a CA: subject (with OU for Fabric NodeOUs),
 * SANs, keyUsage digitalSignature (+keyEncipherment for RSA; +keyCertSign/cRLSign for an
 * intermediate CA), optional extKeyUsage for TLS, SKI and Authority Key Identifier, and a
 * random positive serial.
 */
export async function issueCertificate(params: {
  issuer: Issuer;
  publicKey: KeyObject;
  subject: SubjectName;
  validity: Validity;
  sans?: SubjectAltNames;
  extKeyUsage?: ExtKeyUsageName[];
  isCA?: boolean;
  now?: Date;
}): Promise<IssuedCertificate> {
  const now = params.now ?? new Date();
  const isCA = params.isCA ?? false;
  const { notBefore, notAfter } = checkValidity(params.validity, now);
  const subject = new x509.Name(toName(params.subject));
  const generalNames = toGeneralNames(params.sans ?? {});
  const { cert: issuerCert, keyId } = checkIssuer(params.issuer, now);
  const publicKey = loadPublicKey(params.publicKey);
  const ski = subjectKeyIdentifier(publicKey);
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(isCA, undefined, true),
    new x509.KeyUsagesExtension(keyUsageFor(publicKey, isCA), true),
    new x509.SubjectKeyIdentifierExtension(ski),
    new x509.AuthorityKeyIdentifierExtension(keyId),
  ];
  if (params.extKeyUsage && params.extKeyUsage.length > 0) {
    extensions.push(new x509.ExtendedKeyUsageExtension(params.extKeyUsage.map((u) => x509.ExtendedKeyUsage[u])));
  }
  if (generalNames.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(generalNames));
  const { signingKey, signingAlgorithm, crypto } = peculiarSigningParams(params.issuer.signer);
  const cert = await x509.X509CertificateGenerator.create(
    {
      serialNumber: randomSerialNumber(),
      subject,
      issuer: issuerCert.subjectName,
      notBefore,
      notAfter,
      publicKey: publicKeyToDer(publicKey),
      signingKey,
      signingAlgorithm,
      extensions,
    },
    crypto,
  );
  return finish(cert, ski);
}
