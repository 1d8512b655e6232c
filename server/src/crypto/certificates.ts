import { randomBytes, X509Certificate, type KeyObject } from "node:crypto";
import { isIP } from "node:net";
import { parseCertificate, type ParsedCertificate } from "./certificate-decoder.js";
import * as der from "./der.js";
import { CryptoInputError, SignatureCheckError } from "./errors.js";
import {
  keySpecOf,
  loadPublicKey,
  publicKeyToDer,
  signatureHashOf,
  subjectKeyIdentifier,
  verifyMessage,
  type KeySpec,
} from "./key-algorithms.js";
import type { CertificateSigner } from "./signer.js";

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

const OID = {
  C: "2.5.4.6",
  ST: "2.5.4.8",
  L: "2.5.4.7",
  street: "2.5.4.9",
  postalCode: "2.5.4.17",
  O: "2.5.4.10",
  OU: "2.5.4.11",
  CN: "2.5.4.3",
  basicConstraints: "2.5.29.19",
  keyUsage: "2.5.29.15",
  subjectKeyId: "2.5.29.14",
  authorityKeyId: "2.5.29.35",
  extKeyUsage: "2.5.29.37",
  subjectAltName: "2.5.29.17",
  extensionRequest: "1.2.840.113549.1.9.14",
  serverAuth: "1.3.6.1.5.5.7.3.1",
  clientAuth: "1.3.6.1.5.5.7.3.2",
} as const;

/** The subject as a DER Name: one attribute per RDN, in Go's pkix.Name order. */
function encodeName(subject: SubjectName): Buffer {
  const cn = subject.commonName?.trim() ?? "";
  if (cn.length === 0 || cn.length > 64) {
    throw new CryptoInputError("commonName", "commonName must be 1 to 64 characters");
  }
  for (const c of subject.country ?? []) {
    if (!/^[A-Za-z]{2}$/.test(c)) throw new CryptoInputError("country", `country "${c}" must be a two-letter ISO code`);
  }
  const rdns: Buffer[] = [];
  const add = (type: string, values: string[] | undefined): void => {
    for (const v of values ?? [])
      if (v.trim() !== "") rdns.push(der.set(der.sequence(der.oid(type), der.directoryString(v))));
  };
  add(OID.C, subject.country);
  add(OID.ST, subject.province);
  add(OID.L, subject.locality);
  add(OID.street, subject.streetAddress);
  add(OID.postalCode, subject.postalCode);
  add(OID.O, subject.organization);
  add(OID.OU, subject.organizationalUnit);
  add(OID.CN, [cn]);
  return der.sequence(...rdns);
}

/** An IPv4 or IPv6 address as its 4 or 16 bytes. */
function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split(".").map(Number));
  let text = ip.replace(/%.*$/, "");
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const b = ipBytes(v4[1] as string);
    text =
      text.slice(0, -(v4[1] as string).length) + `${b.readUInt16BE(0).toString(16)}:${b.readUInt16BE(2).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? (text.split("::") as [string, string]) : [text, undefined];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill("0"), ...t];
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}

/** GeneralNames entries: dNSName [2], iPAddress [7], URI [6], rfc822Name [1]. */
function encodeGeneralNames(sans: SubjectAltNames): Buffer[] {
  const out: Buffer[] = [];
  for (const d of sans.dnsNames ?? []) {
    if (!/^(\*\.)?[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})(\.[A-Za-z0-9_-]{1,63})*\.?$/.test(d) || d.length > 253) {
      throw new CryptoInputError("dnsNames", `"${d}" is not a valid DNS name`);
    }
    out.push(der.implicitPrimitive(2, Buffer.from(d, "latin1")));
  }
  for (const ip of sans.ipAddresses ?? []) {
    if (isIP(ip) === 0) throw new CryptoInputError("ipAddresses", `"${ip}" is not an IP address`);
    out.push(der.implicitPrimitive(7, ipBytes(ip)));
  }
  for (const uri of sans.uris ?? []) {
    if (!URL.canParse(uri) || !/^[\x21-\x7e]+$/.test(uri)) throw new CryptoInputError("uris", `"${uri}" is not a URI`);
    out.push(der.implicitPrimitive(6, Buffer.from(uri, "latin1")));
  }
  for (const email of sans.emailAddresses ?? []) {
    if (!/^[\x21-\x3f\x41-\x7e]+@[\x21-\x3f\x41-\x7e]+$/.test(email))
      throw new CryptoInputError("emailAddresses", `"${email}" is not an email address`);
    out.push(der.implicitPrimitive(1, Buffer.from(email, "latin1")));
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

const KU = { digitalSignature: 0, keyEncipherment: 2, keyCertSign: 5, cRLSign: 6 } as const;

function keyUsageBits(publicKey: KeyObject, isCA: boolean): number[] {
  const bits: number[] = [KU.digitalSignature];
  if (keySpecOf(publicKey).algorithm === "RSA") bits.push(KU.keyEncipherment);
  if (isCA) bits.push(KU.keyCertSign, KU.cRLSign);
  return bits;
}

const extension = (type: string, critical: boolean, value: Buffer): Buffer =>
  der.sequence(der.oid(type), ...(critical ? [der.booleanTrue()] : []), der.octetString(value));

/** The signature AlgorithmIdentifier for a signer's key (RFC 5758, RFC 4055, RFC 8410). */
export function signatureAlgorithm(spec: KeySpec): Buffer {
  switch (spec.algorithm) {
    case "EC": {
      const hash = signatureHashOf(spec);
      const arc = hash === "SHA-384" ? 3 : hash === "SHA-512" ? 4 : 2;
      return der.sequence(der.oid(`1.2.840.10045.4.3.${arc}`));
    }
    case "RSA":
      return der.sequence(der.oid("1.2.840.113549.1.1.11"), der.nullValue());
    case "ED25519":
      return der.sequence(der.oid("1.3.101.112"));
  }
}

/**
 * Signs a DER to-be-signed structure and wraps it as Certificate/CertificateList:
 * SEQUENCE { tbs, algorithm, BIT STRING signature }. ECDSA signatures (P1363 r‖s from the signer,
 * low S) become the DER Ecdsa-Sig-Value X.509 carries.
 */
export async function signTbs(tbs: Buffer, algorithm: Buffer, signer: CertificateSigner): Promise<Buffer> {
  return der.sequence(tbs, algorithm, der.bitString(await signatureOver(tbs, signer)));
}

/** The signature over `tbs` as X.509 carries it (ECDSA as a DER Ecdsa-Sig-Value). */
async function signatureOver(tbs: Buffer, signer: CertificateSigner): Promise<Buffer> {
  const raw = Buffer.from(await signer.sign(tbs));
  if (signer.spec.algorithm !== "EC") return raw;
  const half = raw.length / 2;
  return der.sequence(der.unsignedInteger(raw.subarray(0, half)), der.unsignedInteger(raw.subarray(half)));
}

/** Whole seconds: what UTCTime/GeneralizedTime carry. */
const toSecond = (d: Date): Date => new Date(Math.floor(d.getTime() / 1000) * 1000);

async function buildCertificate(p: {
  issuerName: Buffer;
  subjectName: Buffer;
  notBefore: Date;
  notAfter: Date;
  publicKey: KeyObject;
  extensions: Buffer[];
  signer: CertificateSigner;
  ski: string;
}): Promise<IssuedCertificate> {
  const serialNumber = randomSerialNumber();
  const algorithm = signatureAlgorithm(p.signer.spec);
  const notBefore = toSecond(p.notBefore);
  const notAfter = toSecond(p.notAfter);
  const tbs = der.sequence(
    der.explicit(0, der.integer(2)),
    der.unsignedInteger(Buffer.from(serialNumber, "hex")),
    algorithm,
    p.issuerName,
    der.sequence(der.time(notBefore), der.time(notAfter)),
    p.subjectName,
    publicKeyToDer(p.publicKey),
    der.explicit(3, der.sequence(...p.extensions)),
  );
  const signature = await signatureOver(tbs, p.signer);
  const pem = der.pem(der.sequence(tbs, algorithm, der.bitString(signature)), "CERTIFICATE");
  // A key provider can sign wrongly (a KMS that hashes a digest again): such a certificate would be
  // stored and then refused by every Fabric node. Every certificate a provider signs is checked before
  // it is used: its signature over the TBS bytes against the signer's public key, which is what
  // X509Certificate.verify checks, without OpenSSL parsing the whole certificate (~0.2 ms each).
  // OpenSSL signing in this process with the key it holds (the database provider) is not checked.
  if (!p.signer.inProcess && !verifyMessage(p.signer.publicKey, tbs, signature)) {
    const x509 = new X509Certificate(pem);
    throw new SignatureCheckError(
      `the signature over the certificate for "${x509.subject.replace(/\n/g, ", ")}" does not verify against the signing key's public key: ` +
        "the key provider signed something else (check its digest handling); nothing was stored",
    );
  }
  return { pem, serialNumber, notBefore, notAfter, subjectKeyId: p.ski };
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
  const name = encodeName(params.subject);
  const publicKey = params.signer.publicKey;
  const ski = subjectKeyIdentifier(publicKey);
  const extensions = [
    extension(
      OID.basicConstraints,
      true,
      der.sequence(
        ...(isCA
          ? [der.booleanTrue(), ...(params.pathLength !== undefined ? [der.integer(params.pathLength)] : [])]
          : []),
      ),
    ),
    extension(OID.keyUsage, true, der.namedBits(keyUsageBits(publicKey, isCA))),
    extension(OID.subjectKeyId, false, der.octetString(Buffer.from(ski, "hex"))),
  ];
  const generalNames = encodeGeneralNames(params.sans ?? {});
  if (generalNames.length > 0) extensions.push(extension(OID.subjectAltName, false, der.sequence(...generalNames)));
  return buildCertificate({
    issuerName: name,
    subjectName: name,
    notBefore,
    notAfter,
    publicKey,
    extensions,
    signer: params.signer,
    ski,
  });
}

/**
 * Recently parsed issuer certificates by their PEM. A new organization's CA issues three
 * certificates in a row, each parsing the CA's certificate again. Keyed by the certificate's own
 * text, an entry can never describe another certificate, so nothing needs invalidating; the map
 * is small and FIFO. Callers only read what they get.
 */
const issuers = new Map<string, ParsedCertificate>();
const RECENT_ISSUERS = 16;

function parsedIssuer(pem: string): ParsedCertificate {
  const known = issuers.get(pem);
  if (known) return known;
  const cert = parseCertificate(pem);
  issuers.set(pem, cert);
  if (issuers.size > RECENT_ISSUERS) issuers.delete(issuers.keys().next().value as string);
  return cert;
}

/**
 * Checks that `issuer` can issue: its certificate is a CA with keyCertSign, unexpired, and
 * belongs to the signer's key. Returns the parsed certificate and the key id for the AKI.
 * @throws CryptoInputError("issuer")
 */
export function checkIssuer(issuer: Issuer, now: Date = new Date()): { cert: ParsedCertificate; keyId: string } {
  let cert: ParsedCertificate;
  try {
    cert = parsedIssuer(issuer.certificatePem);
  } catch {
    throw new CryptoInputError("issuer", "the issuer certificate is not a valid PEM certificate");
  }
  const name = cert.subject.text;
  if (!cert.basicConstraints?.ca) throw new CryptoInputError("issuer", `the issuer "${name}" is not a CA`);
  if (cert.keyUsage && !cert.keyUsage.includes(KU.keyCertSign)) {
    throw new CryptoInputError("issuer", `the issuer "${name}" may not sign certificates (no keyCertSign)`);
  }
  if (cert.notAfter.getTime() <= now.getTime()) {
    throw new CryptoInputError("issuer", `the issuer "${name}" expired on ${cert.notAfter.toISOString()}`);
  }
  if (!cert.spki.equals(publicKeyToDer(issuer.signer.publicKey))) {
    throw new CryptoInputError("issuer", "the issuer certificate does not belong to the signing key");
  }
  return { cert, keyId: cert.subjectKeyId ?? subjectKeyIdentifier(issuer.signer.publicKey) };
}

/** May this CA sign CRLs (keyUsage cRLSign, or no keyUsage at all)? */
export const maySignCrls = (cert: ParsedCertificate): boolean => !cert.keyUsage || cert.keyUsage.includes(KU.cRLSign);

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
  const subject = encodeName(params.subject);
  const generalNames = encodeGeneralNames(params.sans ?? {});
  const { cert: issuerCert, keyId } = checkIssuer(params.issuer, now);
  const publicKey = loadPublicKey(params.publicKey);
  const ski = subjectKeyIdentifier(publicKey);
  const extensions = [
    extension(OID.basicConstraints, true, der.sequence(...(isCA ? [der.booleanTrue()] : []))),
    extension(OID.keyUsage, true, der.namedBits(keyUsageBits(publicKey, isCA))),
    extension(OID.subjectKeyId, false, der.octetString(Buffer.from(ski, "hex"))),
    extension(OID.authorityKeyId, false, der.sequence(der.implicitPrimitive(0, Buffer.from(keyId, "hex")))),
  ];
  if (params.extKeyUsage && params.extKeyUsage.length > 0) {
    extensions.push(extension(OID.extKeyUsage, false, der.sequence(...params.extKeyUsage.map((u) => der.oid(OID[u])))));
  }
  if (generalNames.length > 0) extensions.push(extension(OID.subjectAltName, false, der.sequence(...generalNames)));
  return buildCertificate({
    issuerName: issuerCert.subjectDer,
    subjectName: subject,
    notBefore,
    notAfter,
    publicKey,
    extensions,
    signer: params.issuer.signer,
    ski,
  });
}

/**
 * A PKCS#10 certificate request for the signer's key: the subject, the SANs in an
 * extensionRequest attribute, signed by the key itself. A CA run by a key provider (Vault's PKI
 * engine) issues certificates from these, so the leaf key never leaves the console either.
 */
export async function createCsr(params: {
  signer: CertificateSigner;
  subject: SubjectName;
  sans?: SubjectAltNames;
}): Promise<string> {
  const name = encodeName(params.subject);
  const generalNames = encodeGeneralNames(params.sans ?? {});
  const attributes =
    generalNames.length > 0
      ? [
          der.sequence(
            der.oid(OID.extensionRequest),
            der.set(der.sequence(extension(OID.subjectAltName, false, der.sequence(...generalNames)))),
          ),
        ]
      : [];
  const info = der.sequence(
    der.integer(0),
    name,
    publicKeyToDer(params.signer.publicKey),
    der.tlv(0xa0, ...attributes),
  );
  return der.pem(await signTbs(info, signatureAlgorithm(params.signer.spec), params.signer), "CERTIFICATE REQUEST");
}
