import { createHash } from "node:crypto";
import * as der from "./der.js";
import { CryptoInputError } from "./errors.js";
import { keySpecOf, loadPublicKey, type KeySpec } from "./key-algorithms.js";

export interface DecodedName {
  /** RFC 4514 style, attributes in encoded order, e.g. "C=US, O=Org1, OU=admin, CN=admin". */
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

/** A certificate read straight from its DER (RFC 5280 §4.1). */
export interface ParsedCertificate {
  der: Buffer;
  /** The subject and issuer Names exactly as encoded. */
  subjectDer: Buffer;
  issuerDer: Buffer;
  subject: DecodedName;
  issuer: DecodedName;
  /** SubjectPublicKeyInfo DER. */
  spki: Buffer;
  /** Lower-case hex of the serial's content octets. */
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  signatureAlgorithmOid: string;
  /** The signature as X.509 carries it (for ECDSA the DER Ecdsa-Sig-Value). */
  signature: Buffer;
  extensions: { oid: string; critical: boolean; value: Buffer }[];
  basicConstraints: { ca: boolean; pathLength: number | null } | null;
  /** Key usage bit numbers (0 digitalSignature … 8 decipherOnly), or null without the extension. */
  keyUsage: number[] | null;
  subjectKeyId: string | null;
  authorityKeyId: string | null;
}

const OID = {
  basicConstraints: "2.5.29.19",
  keyUsage: "2.5.29.15",
  extKeyUsage: "2.5.29.37",
  subjectAltName: "2.5.29.17",
  subjectKeyId: "2.5.29.14",
  authorityKeyId: "2.5.29.35",
};

/** Short names for the attributes Fabric and operators use; others print as their OID. */
const ATTRIBUTE_NAMES: Record<string, string> = {
  "2.5.4.3": "CN",
  "2.5.4.6": "C",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
  "2.5.4.4": "SN",
  "2.5.4.12": "T",
  "2.5.4.42": "G",
  "2.5.4.43": "I",
  "0.9.2342.19200300.100.1.25": "DC",
  "1.2.840.113549.1.9.1": "E",
};

const KEY_USAGE_NAMES = [
  "digitalSignature",
  "nonRepudiation",
  "keyEncipherment",
  "dataEncipherment",
  "keyAgreement",
  "keyCertSign",
  "cRLSign",
  "encipherOnly",
  "decipherOnly",
];

const EKU_NAMES: Record<string, string> = {
  "1.3.6.1.5.5.7.3.1": "serverAuth",
  "1.3.6.1.5.5.7.3.2": "clientAuth",
  "1.3.6.1.5.5.7.3.3": "codeSigning",
  "1.3.6.1.5.5.7.3.4": "emailProtection",
  "1.3.6.1.5.5.7.3.8": "timeStamping",
  "1.3.6.1.5.5.7.3.9": "ocspSigning",
};

/** Signature algorithms by OID, named as WebCrypto names them. */
const SIGNATURE_ALGORITHMS: Record<string, string> = {
  "1.2.840.10045.4.3.2": "SHA-256 with ECDSA",
  "1.2.840.10045.4.3.3": "SHA-384 with ECDSA",
  "1.2.840.10045.4.3.4": "SHA-512 with ECDSA",
  "1.2.840.113549.1.1.5": "SHA-1 with RSASSA-PKCS1-v1_5",
  "1.2.840.113549.1.1.11": "SHA-256 with RSASSA-PKCS1-v1_5",
  "1.2.840.113549.1.1.12": "SHA-384 with RSASSA-PKCS1-v1_5",
  "1.2.840.113549.1.1.13": "SHA-512 with RSASSA-PKCS1-v1_5",
  "1.2.840.113549.1.1.10": "RSA-PSS",
  "1.3.101.112": "Ed25519",
};

function decodeString(buf: Buffer, el: der.Element): string {
  const value = der.valueOf(buf, el);
  switch (el.tag) {
    case 0x0c: // UTF8String
      return value.toString("utf8");
    case 0x1e: // BMPString: UCS-2 big-endian
      return Buffer.from(value).swap16().toString("utf16le");
    case 0x1c: {
      // UniversalString: UCS-4 big-endian
      let out = "";
      for (let i = 0; i + 3 < value.length; i += 4) out += String.fromCodePoint(value.readUInt32BE(i));
      return out;
    }
    default: // PrintableString, IA5String, TeletexString, VisibleString
      return value.toString("latin1");
  }
}

/** RFC 4514 §2.4 escaping of an attribute value. */
function escapeValue(value: string): string {
  return value
    .replace(/[\\,+"<>;=]/g, "\\$&")
    .replace(/^[ #]/, "\\$&")
    .replace(/ $/, "\\ ");
}

function decodeName(buf: Buffer, name: der.Element): DecodedName {
  const out: DecodedName = {
    text: "",
    commonName: null,
    organization: [],
    organizationalUnit: [],
    country: [],
    province: [],
    locality: [],
  };
  const rdnTexts: string[] = [];
  for (const rdn of der.children(buf, name)) {
    const parts: string[] = [];
    for (const atv of der.children(buf, rdn)) {
      const [type, value] = der.children(buf, atv) as [der.Element, der.Element];
      const oid = der.decodeOid(der.valueOf(buf, type));
      const text = decodeString(buf, value);
      const short = ATTRIBUTE_NAMES[oid];
      parts.push(`${short ?? oid}=${escapeValue(text)}`);
      if (short === "CN") out.commonName ??= text;
      else if (short === "O") out.organization.push(text);
      else if (short === "OU") out.organizationalUnit.push(text);
      else if (short === "C") out.country.push(text);
      else if (short === "ST") out.province.push(text);
      else if (short === "L") out.locality.push(text);
    }
    rdnTexts.push(parts.join("+"));
  }
  out.text = rdnTexts.join(", ");
  return out;
}

/** UTCTime (two-digit years: 50–99 are 19xx) or GeneralizedTime, whole seconds in Zulu. */
function readTime(buf: Buffer, el: der.Element): Date {
  const text = der.valueOf(buf, el).toString("latin1");
  const full = el.tag === der.TAG.UTC_TIME ? `${Number(text.slice(0, 2)) >= 50 ? "19" : "20"}${text}` : text;
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:\.\d+)?Z$/.exec(full);
  if (!m) throw new RangeError(`unsupported certificate time "${text}"`);
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
}

function ipText(bytes: Buffer): string {
  if (bytes.length === 4) return [...bytes].join(".");
  if (bytes.length !== 16) return bytes.toString("hex");
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  // The URL parser writes IPv6 in its canonical compressed form (RFC 5952).
  return new URL(`http://[${groups.join(":")}]/`).hostname.slice(1, -1);
}

const PEM = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----/;

/**
 * Parses a PEM certificate (the first one in the text) with a DER reader: no ASN.1 object model and no
 * OpenSSL parse, so reading an issuer or an MSP's CAs costs microseconds.
 * @throws CryptoInputError("certificate")
 */
export function parseCertificate(pem: string): ParsedCertificate {
  const m = PEM.exec(pem);
  if (!m) throw new CryptoInputError("certificate", "not a valid PEM certificate");
  try {
    return parseCertificateDer(Buffer.from((m[1] as string).replace(/\s+/g, ""), "base64"));
  } catch (err) {
    if (err instanceof CryptoInputError) throw err;
    throw new CryptoInputError("certificate", "not a valid PEM certificate");
  }
}

function parseCertificateDer(buf: Buffer): ParsedCertificate {
  const top = der.readElement(buf, 0);
  if (top.end !== buf.length) throw new RangeError("trailing bytes after the certificate");
  const [tbs, sigAlg, sigValue] = der.children(buf, top) as [der.Element, der.Element, der.Element];
  if (tbs?.tag !== der.TAG.SEQUENCE || sigValue?.tag !== der.TAG.BIT_STRING) throw new RangeError("not a certificate");
  const fields = der.children(buf, tbs);
  const off = fields[0]?.tag === 0xa0 ? 1 : 0;
  const [serial, , issuer, validity, subject, spki] = fields.slice(off) as der.Element[];
  if (!serial || !issuer || !validity || !subject || !spki) throw new RangeError("truncated certificate");
  const [notBefore, notAfter] = der.children(buf, validity) as [der.Element, der.Element];
  const signatureAlgorithmOid = der.decodeOid(der.valueOf(buf, der.children(buf, sigAlg)[0]!));
  const signature = Buffer.from(der.valueOf(buf, sigValue).subarray(1));

  const extensions: ParsedCertificate["extensions"] = [];
  const extField = fields.find((f) => f.tag === 0xa3);
  if (extField) {
    for (const ext of der.children(buf, der.children(buf, extField)[0]!)) {
      const parts = der.children(buf, ext);
      const critical = parts.length === 3 && buf[parts[1]!.valueStart] !== 0;
      extensions.push({
        oid: der.decodeOid(der.valueOf(buf, parts[0]!)),
        critical,
        value: Buffer.from(der.valueOf(buf, parts[parts.length - 1]!)),
      });
    }
  }
  const ext = (oid: string): Buffer | undefined => extensions.find((e) => e.oid === oid)?.value;
  const inner = (value: Buffer): der.Element[] => der.children(value, der.readElement(value, 0));

  let basicConstraints: ParsedCertificate["basicConstraints"] = null;
  const bc = ext(OID.basicConstraints);
  if (bc) {
    const items = inner(bc);
    const ca = items[0]?.tag === der.TAG.BOOLEAN && bc[items[0].valueStart] !== 0;
    const len = items.find((i) => i.tag === der.TAG.INTEGER);
    basicConstraints = { ca, pathLength: len ? der.valueOf(bc, len).readUIntBE(0, len.end - len.valueStart) : null };
  }
  let keyUsage: number[] | null = null;
  const ku = ext(OID.keyUsage);
  if (ku) {
    const bits = der.valueOf(ku, der.readElement(ku, 0)).subarray(1);
    keyUsage = [];
    for (let i = 0; i < bits.length * 8; i++)
      if (((bits[i >> 3] as number) & (0x80 >> (i & 7))) !== 0) keyUsage.push(i);
  }
  const ski = ext(OID.subjectKeyId);
  const aki = ext(OID.authorityKeyId);
  const akiKeyId = aki ? inner(aki).find((el) => el.tag === 0x80) : undefined;
  return {
    der: buf,
    subjectDer: Buffer.from(der.bytesOf(buf, subject)),
    issuerDer: Buffer.from(der.bytesOf(buf, issuer)),
    subject: decodeName(buf, subject),
    issuer: decodeName(buf, issuer),
    spki: Buffer.from(der.bytesOf(buf, spki)),
    serialNumber: der.valueOf(buf, serial).toString("hex"),
    notBefore: readTime(buf, notBefore),
    notAfter: readTime(buf, notAfter),
    signatureAlgorithmOid,
    signature,
    extensions,
    basicConstraints,
    keyUsage,
    subjectKeyId: ski ? der.valueOf(ski, der.readElement(ski, 0)).toString("hex") : null,
    authorityKeyId: aki && akiKeyId ? der.valueOf(aki, akiKeyId).toString("hex") : null,
  };
}

function subjectAltNames(value: Buffer | undefined): DecodedCertificate["sans"] {
  const sans: DecodedCertificate["sans"] = { dnsNames: [], ipAddresses: [], uris: [], emailAddresses: [] };
  if (!value) return sans;
  for (const name of der.children(value, der.readElement(value, 0))) {
    const bytes = der.valueOf(value, name);
    if (name.tag === 0x82) sans.dnsNames.push(bytes.toString("latin1"));
    else if (name.tag === 0x87) sans.ipAddresses.push(ipText(bytes));
    else if (name.tag === 0x86) sans.uris.push(bytes.toString("latin1"));
    else if (name.tag === 0x81) sans.emailAddresses.push(bytes.toString("latin1"));
  }
  return sans;
}

/**
 * Decodes a PEM certificate into plain fields.
 * @throws CryptoInputError("certificate") when it isn't a certificate.
 */
export function decodeCertificate(pem: string): DecodedCertificate {
  const cert = parseCertificate(pem);
  let publicKey: KeySpec | null = null;
  try {
    publicKey = keySpecOf(loadPublicKey(cert.spki));
  } catch {
    publicKey = null;
  }
  const ekuValue = cert.extensions.find((e) => e.oid === OID.extKeyUsage)?.value;
  const ekus = ekuValue
    ? der.children(ekuValue, der.readElement(ekuValue, 0)).map((el) => der.decodeOid(der.valueOf(ekuValue, el)))
    : [];
  return {
    subject: cert.subject,
    issuer: cert.issuer,
    serialNumber: cert.serialNumber,
    notBefore: cert.notBefore.toISOString(),
    notAfter: cert.notAfter.toISOString(),
    selfSigned: cert.subjectDer.equals(cert.issuerDer),
    isCA: cert.basicConstraints?.ca ?? false,
    pathLength: cert.basicConstraints?.pathLength ?? null,
    sans: subjectAltNames(cert.extensions.find((e) => e.oid === OID.subjectAltName)?.value),
    keyUsages: (cert.keyUsage ?? []).map((bit) => KEY_USAGE_NAMES[bit]).filter((n): n is string => n !== undefined),
    extKeyUsages: ekus.map((oid) => EKU_NAMES[oid] ?? oid),
    subjectKeyId: cert.subjectKeyId,
    authorityKeyId: cert.authorityKeyId,
    signatureAlgorithm: SIGNATURE_ALGORITHMS[cert.signatureAlgorithmOid] ?? cert.signatureAlgorithmOid,
    publicKey,
    sha256Fingerprint: createHash("sha256").update(cert.der).digest("hex"),
    extensions: cert.extensions.map((e) => ({ oid: e.oid, critical: e.critical })),
  };
}

/** The certificate's public key as a node KeyObject. */
export function certificatePublicKey(pem: string): ReturnType<typeof loadPublicKey> {
  return loadPublicKey(parseCertificate(pem).spki);
}
