/**
 * Decodes X.509 certificates in the browser with @peculiar/x509. The library (and reflect-metadata,
 * which it imports) is loaded on first use, so only the screens that show a certificate pay for it.
 */

/** The parts of a certificate the console shows. */
export interface DecodedCertificate {
  subject: string;
  issuer: string;
  /** Lower-case hex without separators, as the revocation API takes it. */
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  signatureAlgorithm: string;
  publicKeyAlgorithm: string;
  /** Subject alternative names as "DNS: x", "IP: y", "Email: z", "URI: u". */
  sans: string[];
  keyUsages: string[];
  extendedKeyUsages: string[];
  isCA: boolean;
  pathLength: number | undefined;
  subjectKeyId: string | undefined;
  authorityKeyId: string | undefined;
  selfSigned: boolean;
}

const KEY_USAGES: readonly [number, string][] = [
  [1, "Digital Signature"],
  [2, "Non Repudiation"],
  [4, "Key Encipherment"],
  [8, "Data Encipherment"],
  [16, "Key Agreement"],
  [32, "Certificate Sign"],
  [64, "CRL Sign"],
  [128, "Encipher Only"],
  [256, "Decipher Only"],
];

const EKU_NAMES: Record<string, string> = {
  "1.3.6.1.5.5.7.3.1": "TLS Server Authentication",
  "1.3.6.1.5.5.7.3.2": "TLS Client Authentication",
  "1.3.6.1.5.5.7.3.3": "Code Signing",
  "1.3.6.1.5.5.7.3.4": "Email Protection",
  "1.3.6.1.5.5.7.3.8": "Time Stamping",
  "1.3.6.1.5.5.7.3.9": "OCSP Signing",
  "2.5.29.37.0": "Any",
};

const SAN_LABELS: Record<string, string> = { dns: "DNS", ip: "IP", email: "Email", url: "URI", upn: "UPN" };

/** Names of the key-usage bits set in `flags`, in RFC 5280 order. */
export function keyUsageNames(flags: number): string[] {
  return KEY_USAGES.filter(([bit]) => (flags & bit) !== 0).map(([, name]) => name);
}

/** A readable name for an extended-key-usage OID, or the OID itself. */
export function ekuName(oid: string): string {
  return EKU_NAMES[oid] ?? oid;
}

/** "AB:CD:…" style hex, upper case, as openssl prints key identifiers. */
export function colonHex(hex: string): string {
  return (hex.toUpperCase().match(/.{1,2}/g) ?? []).join(":");
}

/** Parses one PEM certificate. Throws a readable error when the text is not a certificate. */
export async function decodeCertificate(pem: string): Promise<DecodedCertificate> {
  const x = await import("@peculiar/x509");
  let cert: InstanceType<typeof x.X509Certificate>;
  try {
    cert = new x.X509Certificate(pem.trim());
  } catch {
    throw new Error("This is not a valid PEM certificate.");
  }
  const san = cert.getExtension(x.SubjectAlternativeNameExtension);
  const ku = cert.getExtension(x.KeyUsagesExtension);
  const eku = cert.getExtension(x.ExtendedKeyUsageExtension);
  const bc = cert.getExtension(x.BasicConstraintsExtension);
  const ski = cert.getExtension(x.SubjectKeyIdentifierExtension);
  const aki = cert.getExtension(x.AuthorityKeyIdentifierExtension);
  const sigAlg = cert.signatureAlgorithm as { name?: string; hash?: { name?: string } };
  const pkAlg = cert.publicKey.algorithm as { name?: string; namedCurve?: string; modulusLength?: number };
  return {
    subject: cert.subject,
    issuer: cert.issuer,
    serialNumber: cert.serialNumber.toLowerCase().replace(/^0+(?=.)/, ""),
    notBefore: cert.notBefore,
    notAfter: cert.notAfter,
    signatureAlgorithm: [sigAlg.name, sigAlg.hash?.name].filter(Boolean).join(" with "),
    publicKeyAlgorithm: [pkAlg.name, pkAlg.namedCurve ?? (pkAlg.modulusLength ? `${pkAlg.modulusLength} bit` : "")]
      .filter(Boolean)
      .join(" "),
    sans: san ? san.names.items.map((n) => `${SAN_LABELS[n.type] ?? n.type}: ${n.value}`) : [],
    keyUsages: ku ? keyUsageNames(ku.usages) : [],
    extendedKeyUsages: eku ? eku.usages.map((u) => ekuName(String(u))) : [],
    isCA: bc?.ca ?? false,
    pathLength: bc?.pathLength,
    subjectKeyId: ski?.keyId,
    authorityKeyId: aki?.keyId,
    selfSigned: cert.subject === cert.issuer && (!aki?.keyId || aki.keyId === ski?.keyId),
  };
}
