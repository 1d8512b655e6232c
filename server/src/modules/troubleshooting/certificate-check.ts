import { X509Certificate } from "node:crypto";
import { isIP } from "node:net";
import { decodeCertificate, type DecodedCertificate } from "../../crypto/certificate-decoder.js";
import { CryptoInputError } from "../../crypto/errors.js";

/** What POST /troubleshooting/validate-certificate answers (upstream's fields plus `chain` and `fingerprint`). */
export interface CertificateReport {
  subject: string;
  issuer: string;
  serial_number: string;
  not_before: string;
  not_after: string;
  is_ca: boolean;
  key_usage: string[];
  dns_names: string[];
  ip_addresses: string[];
  valid: boolean;
  errors: string[];
  warnings: string[];
  chain: string[];
  fingerprint: string;
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
const DAY_MS = 86_400_000;
/** A certificate closer than this to its expiry gets a warning (the console's alert default is also 30 days). */
const EXPIRY_WARNING_DAYS = 30;

/** The PEM certificates of a bundle, in order. */
export function pemBlocks(text: string): string[] {
  return text.match(PEM_BLOCK) ?? [];
}

/** Parses one PEM; the message names the field that held it. */
function load(pem: string, field: string): { x509: X509Certificate; decoded: DecodedCertificate } {
  try {
    return { x509: new X509Certificate(pem), decoded: decodeCertificate(pem) };
  } catch (err) {
    throw new CryptoInputError(field, `${field}: not a valid PEM certificate (${(err as Error).message})`);
  }
}

/** Is `name` covered by a SAN DNS entry (one left-most wildcard label, as TLS clients match)? */
function dnsMatches(name: string, san: string): boolean {
  const n = name.toLowerCase().replace(/\.$/, "");
  const s = san.toLowerCase().replace(/\.$/, "");
  if (s === n) return true;
  if (!s.startsWith("*.")) return false;
  const dot = n.indexOf(".");
  return dot > 0 && n.slice(dot + 1) === s.slice(2);
}

function describe(c: DecodedCertificate): string {
  return c.subject.text || "(empty subject)";
}

/**
 * Checks a certificate as a TLS client or Fabric MSP would: validity window, the chain up to the
 * given root (intermediates may follow the leaf in `certificate` or sit between root and leaf in
 * `root_ca`), every issuer a CA allowed to sign certificates, and the DNS names against the SANs.
 * Messages read in Fabric terms where that helps ("this TLS cert has no SAN for peer0.org1").
 */
export function validateCertificate(
  input: { certificate: string; root_ca?: string | undefined; dns_names?: string[] | undefined },
  now: Date = new Date(),
): CertificateReport {
  const leafBlocks = pemBlocks(input.certificate);
  if (leafBlocks.length === 0) {
    throw new CryptoInputError("certificate", "certificate: no PEM certificate (-----BEGIN CERTIFICATE-----) found");
  }
  const leaf = load(leafBlocks[0]!, "certificate");
  const extra = leafBlocks.slice(1).map((p, i) => load(p, `certificate (block ${i + 2})`));
  const rootBlocks = input.root_ca?.trim() ? pemBlocks(input.root_ca) : [];
  if (input.root_ca?.trim() && rootBlocks.length === 0) {
    throw new CryptoInputError("root_ca", "root_ca: no PEM certificate (-----BEGIN CERTIFICATE-----) found");
  }
  const roots = rootBlocks.map((p, i) => load(p, rootBlocks.length > 1 ? `root_ca (block ${i + 1})` : "root_ca"));
  const errors: string[] = [];
  const warnings: string[] = [];
  const d = leaf.decoded;

  const window = (c: DecodedCertificate, what: string) => {
    if (Date.parse(c.notAfter) <= now.getTime()) errors.push(`${what} expired on ${c.notAfter}`);
    else if (Date.parse(c.notBefore) > now.getTime()) errors.push(`${what} is not valid before ${c.notBefore}`);
  };
  window(d, "the certificate");
  const left = (Date.parse(d.notAfter) - now.getTime()) / DAY_MS;
  if (left > 0 && left < EXPIRY_WARNING_DAYS) {
    warnings.push(`the certificate expires in ${Math.floor(left)} day(s), on ${d.notAfter}`);
  }

  // Walk the chain: each step finds the certificate whose subject and key signed the current one.
  const pool = [...extra, ...roots];
  const chain = [describe(d)];
  if (roots.length > 0) {
    let current = leaf;
    let reachedRoot = false;
    for (let depth = 0; depth < 10 && !reachedRoot; depth++) {
      // By name and signature only (not X509Certificate.checkIssued, which also demands a CA), so a
      // non-CA issuer is found and reported as such.
      const issuer = pool.find(
        (c) => c.decoded.subject.text === current.decoded.issuer.text && current.x509.verify(c.x509.publicKey),
      );
      if (!issuer) {
        const sameName = pool.find((c) => c.decoded.subject.text === current.decoded.issuer.text);
        errors.push(
          sameName
            ? `the signature of "${describe(current.decoded)}" does not verify with the key of "${describe(sameName.decoded)}": it was issued by another CA of the same name`
            : `"${describe(current.decoded)}" was issued by "${current.decoded.issuer.text}", which is not the given root CA or an intermediate given with it`,
        );
        break;
      }
      const what = issuer === current ? "the certificate" : `the issuer "${describe(issuer.decoded)}"`;
      if (issuer !== current) {
        chain.push(describe(issuer.decoded));
        if (!issuer.decoded.isCA) {
          errors.push(`${what} is not a CA (basicConstraints CA:FALSE), so it cannot issue certificates`);
        } else if (issuer.decoded.keyUsages.length > 0 && !issuer.decoded.keyUsages.includes("keyCertSign")) {
          errors.push(`${what} may not sign certificates (its key usage lacks keyCertSign)`);
        }
        window(issuer.decoded, what);
      }
      reachedRoot = roots.includes(issuer);
      if (issuer === current) {
        if (!reachedRoot)
          errors.push(`the chain ends at "${describe(current.decoded)}", which is not the given root CA`);
        break;
      }
      current = issuer;
    }
  } else if (d.selfSigned) {
    if (!leaf.x509.verify(leaf.x509.publicKey)) errors.push("the self-signed certificate's signature does not verify");
    warnings.push("no root CA given: the certificate is self-signed and only its own signature was checked");
  } else {
    warnings.push(`no root CA given: the chain to "${d.issuer.text}" was not checked`);
  }

  for (const name of input.dns_names ?? []) {
    const ok =
      isIP(name) !== 0 ? d.sans.ipAddresses.includes(name) : d.sans.dnsNames.some((san) => dnsMatches(name, san));
    if (!ok) {
      const sans = [...d.sans.dnsNames, ...d.sans.ipAddresses];
      errors.push(
        `this TLS cert has no SAN for ${name} (its SANs: ${sans.length ? sans.join(", ") : "none"}); a peer or orderer reached as ${name} fails the TLS handshake`,
      );
    }
  }
  if (d.sans.dnsNames.length === 0 && d.sans.ipAddresses.length === 0 && !d.isCA) {
    warnings.push(
      "the certificate has no subject alternative names: TLS clients (Go's included, so Fabric's) ignore the common name, so it can't serve TLS for any host",
    );
  }
  if ((input.dns_names?.length ?? 0) > 0 && d.extKeyUsages.length > 0 && !d.extKeyUsages.includes("serverAuth")) {
    warnings.push(`the certificate's extended key usage (${d.extKeyUsages.join(", ")}) lacks serverAuth`);
  }
  if (d.isCA && (input.dns_names?.length ?? 0) > 0) {
    warnings.push("this is a CA certificate; a node's TLS certificate is normally issued by it, not the CA itself");
  }

  return {
    subject: d.subject.text,
    issuer: d.issuer.text,
    serial_number: d.serialNumber,
    not_before: d.notBefore,
    not_after: d.notAfter,
    is_ca: d.isCA,
    key_usage: [...d.keyUsages, ...d.extKeyUsages],
    dns_names: d.sans.dnsNames,
    ip_addresses: d.sans.ipAddresses,
    valid: errors.length === 0,
    errors,
    warnings,
    chain,
    fingerprint: d.sha256Fingerprint,
  };
}
