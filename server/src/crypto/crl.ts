import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import { checkIssuer, type Issuer } from "./certificates.js";
import { CryptoInputError } from "./errors.js";
import { peculiarSigningParams } from "./signer.js";

/** RFC 5280 §5.3.1 reason codes (7 is unused). */
export const REVOCATION_REASONS = [0, 1, 2, 3, 4, 5, 6, 8, 9, 10] as const;

export interface RevokedEntry {
  /** Hex serial, as normaliseSerialNumber returns it. */
  serialNumber: string;
  revocationDate: Date;
  /** RFC 5280 reason code; 0 (unspecified) is omitted from the entry as the RFC recommends. */
  reason?: number;
}

export interface SignedCrl {
  pem: string;
  thisUpdate: Date;
  nextUpdate: Date;
  crlNumber: bigint;
}

const OID_CRL_NUMBER = "2.5.29.20";

/**
 * Canonical serial form: lower-case hex, even length, no redundant leading zero bytes, with a
 * 00 sign byte when the top bit is set (so it encodes as a positive DER INTEGER). Accepts
 * `0x`, colons and spaces as openssl and browsers print them.
 * @throws CryptoInputError("serialNumber")
 */
export function normaliseSerialNumber(input: string): string {
  let hex = input.trim().toLowerCase().replace(/^0x/, "").replace(/[:\s]/g, "");
  if (!/^[0-9a-f]+$/.test(hex) || hex.length > 42) {
    throw new CryptoInputError("serialNumber", `"${input}" is not a hex serial number`);
  }
  hex = hex.replace(/^0+/, "");
  if (hex === "") throw new CryptoInputError("serialNumber", "a serial number must be positive");
  if (hex.length % 2 === 1) hex = "0" + hex;
  if (parseInt(hex[0] as string, 16) >= 8) hex = "00" + hex;
  return hex;
}

function derPositiveInteger(value: bigint): Uint8Array {
  if (value < 0n) throw new CryptoInputError("crlNumber", "the CRL number must not be negative");
  let hex = value.toString(16);
  if (hex.length % 2 === 1) hex = "0" + hex;
  if (parseInt(hex[0] as string, 16) >= 8) hex = "00" + hex;
  const content = Buffer.from(hex, "hex");
  if (content.length > 20) throw new CryptoInputError("crlNumber", "the CRL number must fit in 20 octets");
  return Uint8Array.from([0x02, content.length, ...content]);
}

/**
 * Builds a CRL v2 signed by the CA: revoked serials with revocation dates (and reasons),
 * thisUpdate/nextUpdate, a CRL Number and the Authority Key Identifier. Fabric matches CRLs to
 * CAs by that AKI (msp/mspimplvalidate.go), so it must equal the CA cert's SKI.
 * @throws CryptoInputError("issuer") when the CA can't sign CRLs.
 */
export async function createCrl(params: {
  issuer: Issuer;
  revoked: RevokedEntry[];
  crlNumber: bigint | number;
  thisUpdate?: Date;
  nextUpdate: Date;
}): Promise<SignedCrl> {
  const thisUpdate = params.thisUpdate ?? new Date();
  if (params.nextUpdate.getTime() <= thisUpdate.getTime()) {
    throw new CryptoInputError("nextUpdate", "nextUpdate must be after thisUpdate");
  }
  const { cert, keyId } = checkIssuer(params.issuer, thisUpdate);
  const ku = cert.getExtension(x509.KeyUsagesExtension);
  if (ku && (ku.usages & x509.KeyUsageFlags.cRLSign) === 0) {
    throw new CryptoInputError("issuer", `the issuer "${cert.subject}" may not sign CRLs (no cRLSign)`);
  }
  const seen = new Set<string>();
  const entries: x509.X509CrlEntryParams[] = [];
  for (const r of params.revoked) {
    const serialNumber = normaliseSerialNumber(r.serialNumber);
    if (seen.has(serialNumber)) continue;
    seen.add(serialNumber);
    const entry: x509.X509CrlEntryParams = { serialNumber, revocationDate: r.revocationDate };
    if (r.reason) entry.reason = r.reason as x509.X509CrlReason;
    entries.push(entry);
  }
  const crlNumber = BigInt(params.crlNumber);
  const { signingKey, signingAlgorithm, crypto } = peculiarSigningParams(params.issuer.signer);
  const crl = await x509.X509CrlGenerator.create(
    {
      issuer: cert.subjectName,
      thisUpdate,
      nextUpdate: params.nextUpdate,
      entries,
      extensions: [
        new x509.AuthorityKeyIdentifierExtension(keyId),
        new x509.Extension(OID_CRL_NUMBER, false, derPositiveInteger(crlNumber)),
      ],
      signingKey,
      signingAlgorithm,
    },
    crypto,
  );
  // RFC 7468 label; @peculiar/x509 writes "BEGIN CRL", which some tools don't accept.
  const pem = x509.PemConverter.encode(crl.rawData, "X509 CRL") + "\n";
  return { pem, thisUpdate, nextUpdate: params.nextUpdate, crlNumber };
}
