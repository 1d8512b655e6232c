import { createHash, randomBytes } from "node:crypto";
import type { KeySpec as KmsKeySpec, SigningAlgorithmSpec } from "@aws-sdk/client-kms";
import { p256, p384, p521 } from "@noble/curves/nist.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import {
  keySpecOf,
  loadPublicKey,
  publicKeyToPem,
  signatureHashOf,
  type EcCurve,
  type KeySpec,
  type SignatureEncoding,
} from "../../../crypto/key-algorithms.js";
import type { CertificateSigner } from "../../../crypto/signer.js";
import { InputError } from "../../../http/errors.js";
import type { KeyProviderDriver, StoredKeyMaterial } from "../provider.js";
import type { AwsClients } from "./aws-kms-client.js";
import { kmsFailure } from "./aws-kms-client.js";
import type { AwsKmsPublicConfig } from "./aws-kms-config.js";

/** KMS's shortest waiting period: a deleted key can still be recovered in the console of AWS for 7 days. */
export const DELETION_WINDOW_DAYS = 7;

const NOBLE = { "P-256": p256, "P-384": p384, "P-521": p521, secp256k1 } as const;

interface KmsSpec {
  keySpec: KmsKeySpec;
  algorithm: SigningAlgorithmSpec;
  hash: "sha256" | "sha384" | "sha512";
  /** Digest length KMS expects with MessageType DIGEST. */
  digestBytes: number;
  slug: string;
}

/** How our key specs map to KMS key specs and signing algorithms (the hash is the one signatureHashOf names). */
export function kmsSpecOf(spec: KeySpec): KmsSpec {
  if (spec.algorithm === "ED25519") {
    throw new InputError(
      "algorithm: the AWS KMS provider signs with ECDSA (P-256, P-384, P-521, secp256k1) or RSA, not Ed25519; use another provider for Ed25519 keys",
    );
  }
  if (spec.algorithm === "RSA") {
    return {
      keySpec: spec.keySize === 4096 ? "RSA_4096" : "RSA_2048",
      algorithm: "RSASSA_PKCS1_V1_5_SHA_256",
      hash: "sha256",
      digestBytes: 32,
      slug: `rsa${spec.keySize}`,
    };
  }
  const byCurve: Record<EcCurve, KmsSpec> = {
    "P-256": { keySpec: "ECC_NIST_P256", algorithm: "ECDSA_SHA_256", hash: "sha256", digestBytes: 32, slug: "p256" },
    "P-384": { keySpec: "ECC_NIST_P384", algorithm: "ECDSA_SHA_384", hash: "sha384", digestBytes: 48, slug: "p384" },
    "P-521": { keySpec: "ECC_NIST_P521", algorithm: "ECDSA_SHA_512", hash: "sha512", digestBytes: 64, slug: "p521" },
    secp256k1: {
      keySpec: "ECC_SECG_P256K1",
      algorithm: "ECDSA_SHA_256",
      hash: "sha256",
      digestBytes: 32,
      slug: "secp256k1",
    },
  };
  const mapped = byCurve[spec.curve];
  // The table and signatureHashOf must agree, or certificates would name one hash and use another.
  if (signatureHashOf(spec)?.replace("-", "").toLowerCase() !== mapped.hash) throw new Error("hash mismatch");
  return mapped;
}

/**
 * The driver of one AWS_KMS provider. Keys are created in KMS (SIGN_VERIFY) and never leave it;
 * we keep the KeyId and the public key. Data is hashed here and KMS signs the digest
 * (MessageType DIGEST); KMS returns DER ECDSA signatures whose S may be high, so S is normalised
 * here (Fabric and Ethereum reject high S) and re-encoded as the caller asks.
 */
export function createAwsKmsDriver(deps: {
  config: () => Promise<AwsKmsPublicConfig>;
  clients: () => Promise<AwsClients>;
  log: { warn(obj: object, msg?: string): void };
}): KeyProviderDriver {
  async function call<T>(what: string, fn: (c: AwsClients) => Promise<T>): Promise<T> {
    const clients = await deps.clients();
    try {
      return await fn(clients);
    } catch (err) {
      throw kmsFailure(err, await deps.config(), what);
    }
  }

  function keyId(stored: StoredKeyMaterial): string {
    if (!stored.providerKeyRef) throw new Error("this key has no AWS KMS key id");
    return stored.providerKeyRef;
  }

  /** Signs a digest in KMS; ECDSA comes back low-S in the encoding asked for. */
  async function signDigest(
    stored: StoredKeyMaterial,
    spec: KeySpec,
    digest: Uint8Array,
    encoding: SignatureEncoding,
  ): Promise<Uint8Array> {
    const k = kmsSpecOf(spec);
    if (digest.length !== k.digestBytes) {
      throw new InputError(`data: a ${k.algorithm} digest is ${k.digestBytes} bytes, got ${digest.length}`);
    }
    const out = await call("signing", (c) =>
      c.kms.send(
        new c.sdk.kms.SignCommand({
          KeyId: keyId(stored),
          Message: digest,
          MessageType: "DIGEST",
          SigningAlgorithm: k.algorithm,
        }),
      ),
    );
    if (!out.Signature) throw new Error("KMS Sign returned no signature");
    if (spec.algorithm !== "EC") return out.Signature;
    const sig = NOBLE[spec.curve].Signature.fromDER(out.Signature).normalizeS();
    return encoding === "p1363" ? sig.toCompactRawBytes() : sig.toDERRawBytes();
  }

  /**
   * Drops the key's aliases and schedules the key for deletion after the 7-day minimum. The row is
   * gone by then, so a KMS failure is logged with the KeyId (to finish in AWS) rather than thrown.
   */
  async function scheduleDeletion(id: string): Promise<void> {
    try {
      const clients = await deps.clients();
      const aliases = await clients.kms.send(new clients.sdk.kms.ListAliasesCommand({ KeyId: id }));
      for (const a of aliases.Aliases ?? []) {
        if (a.AliasName) await clients.kms.send(new clients.sdk.kms.DeleteAliasCommand({ AliasName: a.AliasName }));
      }
      await clients.kms.send(
        new clients.sdk.kms.ScheduleKeyDeletionCommand({ KeyId: id, PendingWindowInDays: DELETION_WINDOW_DAYS }),
      );
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === "NotFoundException" || name === "KMSInvalidStateException") return;
      deps.log.warn(
        { kmsKeyId: id, reason: (err as Error).message?.split("\n")[0] },
        "could not schedule the AWS KMS key for deletion; schedule it in AWS",
      );
    }
  }

  const specOfStored = (stored: StoredKeyMaterial): KeySpec => keySpecOf(loadPublicKey(stored.publicKeyPem));
  const hashOf = (spec: KeySpec, data: Uint8Array): Buffer => createHash(kmsSpecOf(spec).hash).update(data).digest();

  return {
    type: "AWS_KMS",
    async generate(spec) {
      const k = kmsSpecOf(spec);
      const config = await deps.config();
      const created = await call("creating a key", (c) =>
        c.kms.send(
          new c.sdk.kms.CreateKeyCommand({
            KeyUsage: "SIGN_VERIFY",
            KeySpec: k.keySpec,
            Description: `ChainLaunch ${k.slug} signing key`,
            Tags: [{ TagKey: "created-by", TagValue: "chainlaunch" }],
          }),
        ),
      );
      const id = created.KeyMetadata?.KeyId;
      if (!id) throw new Error("KMS CreateKey returned no key id");
      try {
        // Readable and unique: the curve and a random suffix (the console's key name may change or repeat).
        const alias = `alias/${config.kmsKeyAliasPrefix}${k.slug}-${randomBytes(6).toString("hex")}`;
        await call("naming the key", (c) =>
          c.kms.send(new c.sdk.kms.CreateAliasCommand({ AliasName: alias, TargetKeyId: id })),
        );
        const pub = await call("reading the public key", (c) =>
          c.kms.send(new c.sdk.kms.GetPublicKeyCommand({ KeyId: id })),
        );
        if (!pub.PublicKey) throw new Error("KMS GetPublicKey returned no key");
        const publicKey = loadPublicKey(pub.PublicKey);
        const got = keySpecOf(publicKey);
        if (JSON.stringify(got) !== JSON.stringify(spec)) {
          throw new Error(`KMS made a ${JSON.stringify(got)} key for ${JSON.stringify(spec)}`);
        }
        return { providerKeyRef: id, privateKeyEncrypted: null, publicKeyPem: publicKeyToPem(publicKey), publicKey };
      } catch (err) {
        // Leave nothing half-made behind: the key is scheduled for deletion (it has no row yet).
        await scheduleDeletion(id);
        throw err;
      }
    },
    async signer(stored): Promise<CertificateSigner> {
      const publicKey = loadPublicKey(stored.publicKeyPem);
      const spec = keySpecOf(publicKey);
      kmsSpecOf(spec);
      return { spec, publicKey, sign: async (data) => signDigest(stored, spec, hashOf(spec, data), "p1363") };
    },
    async sign(stored, data, opts = {}) {
      const spec = specOfStored(stored);
      return signDigest(stored, spec, opts.prehashed ? data : hashOf(spec, data), opts.encoding ?? "der");
    },
    async getPublicKey(stored) {
      return stored.publicKeyPem;
    },
    async delete(stored) {
      await scheduleDeletion(keyId(stored));
    },
  };
}
