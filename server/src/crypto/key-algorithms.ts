import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPair as generateKeyPairCb,
  generateKeyPairSync,
  sign as nodeSign,
  verify as nodeVerify,
  type JsonWebKey,
  type KeyObject,
} from "node:crypto";
import { promisify } from "node:util";
import { p256, p384, p521 } from "@noble/curves/nist.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { CryptoInputError } from "./errors.js";
import * as der from "./der.js";
import { pem } from "./der.js";

const generateKeyPairAsync = promisify(generateKeyPairCb);

/** Key algorithms, spelled as the upstream API spells them. */
export const KEY_ALGORITHMS = ["EC", "ED25519", "RSA"] as const;
export type KeyAlgorithm = (typeof KEY_ALGORITHMS)[number];
/** Elliptic curves we generate. P-256 is the Fabric norm; secp256k1 is for Besu/Ethereum. */
export const EC_CURVES = ["P-256", "P-384", "P-521", "secp256k1"] as const;
export type EcCurve = (typeof EC_CURVES)[number];
export const RSA_KEY_SIZES = [2048, 4096] as const;
export type RsaKeySize = (typeof RSA_KEY_SIZES)[number];

/** What kind of key pair this is. Everything else (hash, signature format) derives from it. */
export type KeySpec =
  { algorithm: "EC"; curve: EcCurve } | { algorithm: "ED25519" } | { algorithm: "RSA"; keySize: RsaKeySize };

export interface KeyPair {
  spec: KeySpec;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

const NODE_CURVE: Record<EcCurve, string> = {
  "P-256": "prime256v1",
  "P-384": "secp384r1",
  "P-521": "secp521r1",
  secp256k1: "secp256k1",
};
const CURVE_FROM_NODE: Record<string, EcCurve> = {
  prime256v1: "P-256",
  secp384r1: "P-384",
  secp521r1: "P-521",
  secp256k1: "secp256k1",
};
const NOBLE = { "P-256": p256, "P-384": p384, "P-521": p521, secp256k1 } as const;
/** Field size in bytes, used to pad raw r||s (IEEE P1363) signatures. */
const CURVE_BYTES: Record<EcCurve, number> = { "P-256": 32, "P-384": 48, "P-521": 66, secp256k1: 32 };

/**
 * Validates caller input into a KeySpec. Defaults: EC curve P-256, RSA 2048.
 * @throws CryptoInputError with field `algorithm`, `curve` or `keySize`.
 */
export function parseKeySpec(input: {
  algorithm?: string | null;
  curve?: string | null;
  keySize?: number | null;
}): KeySpec {
  const algorithm = (input.algorithm ?? "").toUpperCase();
  if (algorithm === "EC" || algorithm === "ECDSA") {
    const curve = normaliseCurve(input.curve ?? "P-256");
    if (!curve) {
      throw new CryptoInputError("curve", `unknown curve "${input.curve}"; use one of ${EC_CURVES.join(", ")}`);
    }
    return { algorithm: "EC", curve };
  }
  if (algorithm === "ED25519") return { algorithm: "ED25519" };
  if (algorithm === "RSA") {
    const keySize = input.keySize ?? 2048;
    if (!(RSA_KEY_SIZES as readonly number[]).includes(keySize)) {
      throw new CryptoInputError("keySize", `unsupported RSA key size ${keySize}; use ${RSA_KEY_SIZES.join(" or ")}`);
    }
    return { algorithm: "RSA", keySize: keySize as RsaKeySize };
  }
  throw new CryptoInputError(
    "algorithm",
    `unknown key algorithm "${input.algorithm ?? ""}"; use one of ${KEY_ALGORITHMS.join(", ")}`,
  );
}

function normaliseCurve(curve: string): EcCurve | undefined {
  const c = curve.trim().toLowerCase().replace(/[-_]/g, "");
  if (c === "p256" || c === "prime256v1" || c === "secp256r1") return "P-256";
  if (c === "p384" || c === "secp384r1") return "P-384";
  if (c === "p521" || c === "secp521r1") return "P-521";
  if (c === "secp256k1" || c === "k256") return "secp256k1";
  return undefined;
}

/** The hash ECDSA uses with a curve, as Go's x509 pairs them: SHA-384 for P-384, SHA-512 for P-521. */
function ecHash(curve: EcCurve): "sha256" | "sha384" | "sha512" {
  return curve === "P-384" ? "sha384" : curve === "P-521" ? "sha512" : "sha256";
}

/**
 * Generates a key pair. RSA goes off the event loop (RSA 4096 takes seconds); an EC or Ed25519 pair
 * takes ~0.05 ms, less than the trip through the thread pool costs. The pair's spec and public half
 * are remembered with its KeyObjects, so nothing asks OpenSSL for them again.
 */
export async function generateKeyPair(spec: KeySpec): Promise<KeyPair> {
  let kp: { privateKey: KeyObject; publicKey: KeyObject };
  switch (spec.algorithm) {
    case "EC":
      kp = generateDetachedKeyPair("ec", NODE_CURVE[spec.curve]);
      break;
    case "ED25519":
      kp = generateDetachedKeyPair("ed25519");
      break;
    case "RSA":
      kp = await generateKeyPairAsync("rsa", { modulusLength: spec.keySize, publicExponent: 0x10001 });
      break;
  }
  specOf.set(kp.privateKey, spec);
  specOf.set(kp.publicKey, spec);
  publicOf.set(kp.privateKey, kp.publicKey);
  return { spec, ...kp };
}

/**
 * An EC or Ed25519 key pair made synchronously whose key objects are their own. The ones
 * `generateKeyPairSync` returns share a lock with the job that made them, and Node 20 deadlocks when
 * that job is garbage-collected during an export of one of them (the collector runs inside the export,
 * which holds the lock the job's destructor then waits for: the whole console hangs). Exported as JWK
 * inside the job and imported again, the keys hold no tie to it; their JWK is kept for the encoders here.
 */
export function generateDetachedKeyPair(
  type: "ec" | "ed25519",
  namedCurve?: string,
): { privateKey: KeyObject; publicKey: KeyObject } {
  const encoding = { privateKeyEncoding: { format: "jwk" }, publicKeyEncoding: { format: "jwk" } } as const;
  const generated = (
    generateKeyPairSync as unknown as (t: string, o: object) => { privateKey: JsonWebKey; publicKey: JsonWebKey }
  )(type, type === "ec" ? { namedCurve, ...encoding } : encoding);
  const privateKey = createPrivateKey({ key: generated.privateKey, format: "jwk" });
  const publicKey = createPublicKey({ key: generated.publicKey, format: "jwk" });
  jwkOf.set(privateKey, generated.privateKey);
  jwkOf.set(publicKey, generated.publicKey);
  return { privateKey, publicKey };
}

/** The JWK a key was made from, or its export (a key object exported to JWK once). */
const jwkOf = new WeakMap<KeyObject, JsonWebKey>();
function jwkFor(key: KeyObject): JsonWebKey {
  let jwk = jwkOf.get(key);
  if (!jwk) {
    jwk = key.export({ format: "jwk" });
    jwkOf.set(key, jwk);
  }
  return jwk;
}

/**
 * Infers the KeySpec of a private or public key.
 * @throws CryptoInputError(`algorithm`) for keys we don't support (DSA, P-192, RSA 3072, ...).
 */
export function keySpecOf(key: KeyObject): KeySpec {
  let spec = specOf.get(key);
  if (!spec) {
    spec = readKeySpec(key);
    specOf.set(key, spec);
  }
  return spec;
}

/** Key details come from OpenSSL on every read; a KeyObject's spec never changes. */
const specOf = new WeakMap<KeyObject, KeySpec>();

function readKeySpec(key: KeyObject): KeySpec {
  const type = key.asymmetricKeyType;
  if (type === "ec") {
    const curve = CURVE_FROM_NODE[key.asymmetricKeyDetails?.namedCurve ?? ""];
    if (curve) return { algorithm: "EC", curve };
    throw new CryptoInputError("curve", `unsupported curve ${key.asymmetricKeyDetails?.namedCurve ?? "?"}`);
  }
  if (type === "ed25519") return { algorithm: "ED25519" };
  if (type === "rsa") {
    const size = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if ((RSA_KEY_SIZES as readonly number[]).includes(size)) return { algorithm: "RSA", keySize: size as RsaKeySize };
    throw new CryptoInputError("keySize", `unsupported RSA key size ${size}`);
  }
  throw new CryptoInputError("algorithm", `unsupported key type ${type ?? "?"}`);
}

/** Loads a private key from PEM (PKCS#8, SEC1 or PKCS#1) or PKCS#8 DER. */
export function loadPrivateKey(input: string | Uint8Array): KeyObject {
  return typeof input === "string"
    ? createPrivateKey(input)
    : createPrivateKey({ key: Buffer.from(input), format: "der", type: "pkcs8" });
}

/** Loads a public key from SPKI PEM/DER, a certificate PEM, or derives it from a private key. */
export function loadPublicKey(input: string | Uint8Array | KeyObject): KeyObject {
  if (typeof input === "string") return createPublicKey(input);
  if (input instanceof Uint8Array) return createPublicKey({ key: Buffer.from(input), format: "der", type: "spki" });
  if (input.type === "public") return input;
  let pub = publicOf.get(input);
  if (!pub) {
    pub = createPublicKey(input);
    publicOf.set(input, pub);
  }
  return pub;
}

/** PKCS#8 PEM. Only for encryption at rest and keystore files; never for API responses. */
export function privateKeyToPem(key: KeyObject): string {
  const spec = keySpecOf(key);
  if (spec.algorithm !== "EC") return key.export({ type: "pkcs8", format: "pem" }) as string;
  // The bytes OpenSSL's PKCS#8 encoder writes for an EC key (RFC 5208 around RFC 5915's ECPrivateKey,
  // curve named once in the outer algorithm, public point included), written here: the encoder costs
  // ~0.06 ms a call, the JWK export this reads from a tenth of that.
  const d = leftPad(Buffer.from(jwkFor(key).d ?? "", "base64url"), CURVE_BYTES[spec.curve]);
  const pkcs8 = der.sequence(
    der.integer(0),
    der.sequence(der.oid(EC_PUBLIC_KEY_OID), der.oid(CURVE_OID[spec.curve])),
    der.octetString(
      der.sequence(
        der.integer(1),
        der.octetString(d),
        der.explicit(1, der.bitString(ecPoint(loadPublicKey(key), spec.curve))),
      ),
    ),
  );
  return pem(pkcs8, "PRIVATE KEY");
}

/** SubjectPublicKeyInfo PEM ("-----BEGIN PUBLIC KEY-----"). */
export function publicKeyToPem(key: KeyObject): string {
  return pem(publicKeyToDer(key), "PUBLIC KEY");
}

/** SubjectPublicKeyInfo DER. */
export function publicKeyToDer(key: KeyObject): Buffer {
  const pub = loadPublicKey(key);
  let spki = spkiOf.get(pub);
  if (!spki) {
    const spec = keySpecOf(pub);
    // OpenSSL 3's SPKI encoder costs ~0.12 ms a call, and a new organization's five keys each need it;
    // an EC key's SPKI is fixed bytes around its point (RFC 5480), so it is written here from the point.
    spki =
      spec.algorithm === "EC"
        ? der.sequence(
            der.sequence(der.oid(EC_PUBLIC_KEY_OID), der.oid(CURVE_OID[spec.curve])),
            der.bitString(ecPoint(pub, spec.curve)),
          )
        : pub.export({ type: "spki", format: "der" });
    spkiOf.set(pub, spki);
  }
  return Buffer.from(spki);
}

const EC_PUBLIC_KEY_OID = "1.2.840.10045.2.1";
/** The namedCurve OIDs of RFC 5480 and SEC 2. */
const CURVE_OID: Record<EcCurve, string> = {
  "P-256": "1.2.840.10045.3.1.7",
  "P-384": "1.3.132.0.34",
  "P-521": "1.3.132.0.35",
  secp256k1: "1.3.132.0.10",
};

/** The uncompressed point 04‖X‖Y of an EC public key, from its JWK (no trip through OpenSSL's encoders). */
function ecPoint(pub: KeyObject, curve: EcCurve): Buffer {
  let point = pointOf.get(pub);
  if (!point) {
    const jwk = jwkFor(pub);
    const size = CURVE_BYTES[curve];
    point = Buffer.concat([
      Buffer.from([4]),
      leftPad(Buffer.from(jwk.x ?? "", "base64url"), size),
      leftPad(Buffer.from(jwk.y ?? "", "base64url"), size),
    ]);
    pointOf.set(pub, point);
  }
  return point;
}

/**
 * KeyObjects are immutable, so what is exported from one can be remembered for as long as the object
 * lives. Creating an organization fingerprints, checks and certifies the same few keys several times,
 * and each export is a trip through OpenSSL's encoder on the event loop.
 */
const spkiOf = new WeakMap<KeyObject, Buffer>();
/** The public half of a private KeyObject, derived once. */
const publicOf = new WeakMap<KeyObject, KeyObject>();
const scalarOf = new WeakMap<KeyObject, Buffer>();
const pointOf = new WeakMap<KeyObject, Buffer>();

/** Lower-case hex SHA-256 of the SubjectPublicKeyInfo DER. */
export function sha256Fingerprint(key: KeyObject): string {
  return createHash("sha256").update(publicKeyToDer(key)).digest("hex");
}

/**
 * The contents of the SPKI `subjectPublicKey` BIT STRING: the uncompressed point 04‖X‖Y for
 * EC, the 32 raw bytes for Ed25519, the PKCS#1 RSAPublicKey DER for RSA.
 */
export function subjectPublicKeyBits(key: KeyObject): Buffer {
  const pub = loadPublicKey(key);
  const spec = keySpecOf(pub);
  if (spec.algorithm === "RSA") return pub.export({ type: "pkcs1", format: "der" });
  if (spec.algorithm === "ED25519") return Buffer.from(jwkFor(pub).x ?? "", "base64url");
  return Buffer.from(ecPoint(pub, spec.curve));
}

/**
 * Subject Key Identifier, lower-case hex: SHA-1 of the subjectPublicKey BIT STRING contents
 * (RFC 5280 §4.2.1.2 method 1, what Go's x509 and OpenSSL compute). Fabric only requires that
 * CA certs carry the extension; its SW keystore identifies keys by SHA-256 of the EC point
 * instead, which is why our keystore file is simply `key.pem` and matched by scanning.
 */
export function subjectKeyIdentifier(key: KeyObject): string {
  return createHash("sha1").update(subjectPublicKeyBits(key)).digest("hex");
}

/**
 * EIP-55 checksummed Ethereum address of a secp256k1 key: the last 20 bytes of
 * keccak256(X‖Y) of the uncompressed point (without the 0x04 prefix).
 * @throws CryptoInputError(`curve`) for any other key type.
 */
export function ethereumAddress(key: KeyObject): string {
  const spec = keySpecOf(loadPublicKey(key));
  if (spec.algorithm !== "EC" || spec.curve !== "secp256k1") {
    throw new CryptoInputError("curve", "an Ethereum address needs a secp256k1 key");
  }
  const point = subjectPublicKeyBits(key).subarray(1);
  const hex = Buffer.from(keccak_256(point).subarray(12)).toString("hex");
  const checksum = Buffer.from(keccak_256(new TextEncoder().encode(hex))).toString("hex");
  let out = "0x";
  for (let i = 0; i < hex.length; i++) {
    const ch = hex[i] as string;
    out += parseInt(checksum[i] as string, 16) >= 8 ? ch.toUpperCase() : ch;
  }
  return out;
}

/** The hash an ECDSA/RSA signature with this key uses; null for Ed25519 (pure EdDSA). */
export function signatureHashOf(spec: KeySpec): "SHA-256" | "SHA-384" | "SHA-512" | null {
  if (spec.algorithm === "ED25519") return null;
  if (spec.algorithm === "EC" && spec.curve === "P-384") return "SHA-384";
  if (spec.algorithm === "EC" && spec.curve === "P-521") return "SHA-512";
  return "SHA-256";
}

export type SignatureEncoding = "der" | "p1363";

/**
 * ECDSA signature with S normalised to the lower half of the curve order.
 * Fabric peers and orderers reject high-S signatures (and Ethereum does too), and OpenSSL does
 * not normalise, so all our ECDSA signing goes through here. Whole messages are signed by OpenSSL
 * (random nonce) and normalised; prehashed digests by noble (RFC 6979 nonce).
 *
 * @param input the message, hashed here with the curve's hash (SHA-256, SHA-384 for P-384),
 *   or with `prehashed: true` a digest that is signed as is (Fabric signs SHA-256 digests).
 * @param options.hash the hash of a whole message when it is not the curve's: Fabric's BCCSP hashes
 *   with SHA-256 whatever the curve.
 * @param options.encoding `der` (ASN.1 ECDSA-Sig-Value, what Fabric expects; default) or
 *   `p1363` (raw r‖s, what WebCrypto produces).
 */
export function signLowS(
  privateKey: KeyObject,
  input: Uint8Array,
  options: { prehashed?: boolean; encoding?: SignatureEncoding; hash?: "sha256" } = {},
): Uint8Array {
  const spec = keySpecOf(privateKey);
  if (spec.algorithm !== "EC") throw new CryptoInputError("algorithm", "low-S signing needs an EC key");
  if (privateKey.type !== "private") throw new CryptoInputError("privateKey", "signing needs a private key");
  const curve = NOBLE[spec.curve];
  let sig;
  if (!options.prehashed) {
    // A whole message: OpenSSL signs it (hashing included) in a fraction of the pure-JS time; only
    // its S is then moved to the lower half when needed (n - s is the same signature, low-S).
    const raw = nodeSign(options.hash ?? ecHash(spec.curve), input, { key: privateKey, dsaEncoding: "ieee-p1363" });
    return lowSEncoded(raw, curve.CURVE.n, CURVE_BYTES[spec.curve], options.encoding ?? "der");
  } else {
    // A digest to sign as is (Fabric signs SHA-256 digests): OpenSSL offers no such call, noble does.
    let d = scalarOf.get(privateKey);
    if (!d) {
      d = leftPad(Buffer.from(jwkFor(privateKey).d ?? "", "base64url"), CURVE_BYTES[spec.curve]);
      scalarOf.set(privateKey, d);
    }
    sig = curve.sign(input, d, { lowS: true, prehash: false });
  }
  return options.encoding === "p1363" ? sig.toCompactRawBytes() : sig.toDERRawBytes();
}

/**
 * An IEEE P1363 signature (r‖s, `size` bytes each) with S moved to the lower half of the order `n`,
 * in the encoding asked for. Plain BigInt and byte work: noble's Signature objects cost ~60 µs a
 * signature here, on every chaincode query the console signs.
 */
export function lowSEncoded(raw: Uint8Array, n: bigint, size: number, encoding: SignatureEncoding): Uint8Array {
  if (raw.length !== 2 * size) throw new CryptoInputError("signature", `expected ${2 * size} bytes of r‖s`);
  const r = raw.subarray(0, size);
  let s = raw.subarray(size);
  // Half the signatures need the move; the others are only compared, as bytes, with n/2.
  if (Buffer.compare(s, halfOrderBytes(n, size)) > 0) {
    const sValue = BigInt(`0x${Buffer.from(s).toString("hex")}`);
    s = Buffer.from((n - sValue).toString(16).padStart(size * 2, "0"), "hex");
  }
  if (encoding === "p1363") return Buffer.concat([r, s]);
  return der.sequence(der.unsignedInteger(r), der.unsignedInteger(s)); // ECDSA-Sig-Value
}

const halfOrders = new Map<bigint, Buffer>();
/** floor(n/2) as `size` big-endian bytes, once per curve. */
function halfOrderBytes(n: bigint, size: number): Buffer {
  let half = halfOrders.get(n);
  if (!half) {
    half = Buffer.from((n >> 1n).toString(16).padStart(size * 2, "0"), "hex");
    halfOrders.set(n, half);
  }
  return half;
}

/** True when an ECDSA signature's S is in the lower half of the order (what Fabric accepts). */
export function isLowS(curve: EcCurve, signature: Uint8Array, encoding: SignatureEncoding = "der"): boolean {
  const Sig = NOBLE[curve].Signature;
  const sig = encoding === "der" ? Sig.fromDER(signature) : Sig.fromCompact(signature);
  return !sig.hasHighS();
}

/**
 * Signs a message with the algorithm the key implies: ECDSA low-S with SHA-256 (SHA-384 for
 * P-384), RSA PKCS#1 v1.5 with SHA-256, or pure Ed25519.
 */
export function signMessage(
  privateKey: KeyObject,
  data: Uint8Array,
  options: { encoding?: SignatureEncoding } = {},
): Uint8Array {
  const spec = keySpecOf(privateKey);
  if (spec.algorithm === "EC") return signLowS(privateKey, data, options);
  if (spec.algorithm === "ED25519") return nodeSign(null, data, privateKey);
  return nodeSign("sha256", data, privateKey);
}

/** Verifies a signature made by signMessage. */
export function verifyMessage(
  publicKey: KeyObject,
  data: Uint8Array,
  signature: Uint8Array,
  options: { encoding?: SignatureEncoding } = {},
): boolean {
  const pub = loadPublicKey(publicKey);
  const spec = keySpecOf(pub);
  if (spec.algorithm === "ED25519") return nodeVerify(null, data, pub, signature);
  if (spec.algorithm === "RSA") return nodeVerify("sha256", data, pub, signature);
  const hash = ecHash(spec.curve);
  return nodeVerify(
    hash,
    data,
    { key: pub, dsaEncoding: options.encoding === "p1363" ? "ieee-p1363" : "der" },
    signature,
  );
}

function leftPad(bytes: Buffer, size: number): Buffer {
  if (bytes.length >= size) return bytes;
  return Buffer.concat([Buffer.alloc(size - bytes.length), bytes]);
}
