import { checkIssuer, maySignCrls, signatureAlgorithm, signTbs, type Issuer } from "./certificates.js";
import * as der from "./der.js";
import { CryptoInputError } from "./errors.js";

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
const OID_REASON_CODE = "2.5.29.21";
const OID_AUTHORITY_KEY_ID = "2.5.29.35";

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

function crlNumberInteger(value: bigint): Buffer {
  if (value < 0n) throw new CryptoInputError("crlNumber", "the CRL number must not be negative");
  const encoded = der.integer(value);
  if (encoded.length - 2 > 20) throw new CryptoInputError("crlNumber", "the CRL number must fit in 20 octets");
  return encoded;
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
  if (!maySignCrls(cert)) {
    throw new CryptoInputError("issuer", `the issuer "${cert.subject.text}" may not sign CRLs (no cRLSign)`);
  }
  const crlNumber = BigInt(params.crlNumber);
  const crlNumberValue = crlNumberInteger(crlNumber);
  const seen = new Set<string>();
  const entries: Buffer[] = [];
  for (const r of params.revoked) {
    const serialNumber = normaliseSerialNumber(r.serialNumber);
    if (seen.has(serialNumber)) continue;
    seen.add(serialNumber);
    const reason = r.reason
      ? [der.sequence(der.sequence(der.oid(OID_REASON_CODE), der.octetString(der.tlv(0x0a, Buffer.from([r.reason])))))]
      : [];
    entries.push(
      der.sequence(der.unsignedInteger(Buffer.from(serialNumber, "hex")), der.time(r.revocationDate), ...reason),
    );
  }
  const algorithm = signatureAlgorithm(params.issuer.signer.spec);
  // TBSCertList (RFC 5280 §5.1): v2, signature, issuer, thisUpdate, nextUpdate, revoked (omitted when empty), [0] extensions.
  const tbs = der.sequence(
    der.integer(1),
    algorithm,
    cert.subjectDer,
    der.time(thisUpdate),
    der.time(params.nextUpdate),
    ...(entries.length > 0 ? [der.sequence(...entries)] : []),
    der.explicit(
      0,
      der.sequence(
        der.sequence(
          der.oid(OID_AUTHORITY_KEY_ID),
          der.octetString(der.sequence(der.implicitPrimitive(0, Buffer.from(keyId, "hex")))),
        ),
        der.sequence(der.oid(OID_CRL_NUMBER), der.octetString(crlNumberValue)),
      ),
    ),
  );
  const crl = await signTbs(tbs, algorithm, params.issuer.signer);
  // RFC 7468 label "X509 CRL".
  return { pem: der.pem(crl, "X509 CRL"), thisUpdate, nextUpdate: params.nextUpdate, crlNumber };
}
