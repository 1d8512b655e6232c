import { secp256k1 } from "@noble/curves/secp256k1.js";
import {
  getAddress,
  hashMessage,
  hashTypedData,
  keccak256,
  serializeSignature,
  serializeTransaction,
  toHex,
  type Hex,
  type LocalAccount,
  type Signature,
} from "viem";
import { publicKeyToAddress, toAccount } from "viem/accounts";

/**
 * Signs a 32-byte digest as is and returns the raw r‖s (64 bytes). The key may live anywhere: in
 * the console's database, in AWS KMS, in Vault.
 */
export type DigestSigner = (digest: Uint8Array) => Promise<Uint8Array>;

const hexToBytes = (hex: Hex): Uint8Array => Uint8Array.from(Buffer.from(hex.slice(2), "hex"));

/**
 * Completes a bare ECDSA signature into Ethereum's (r, s, yParity). Remote signers (KMS, Vault)
 * return no recovery id, so both candidates are tried and the one whose recovered address is the
 * key's own wins. S is moved to the lower half first: Ethereum (EIP-2) rejects high-S signatures,
 * and flipping S flips the recovery id, so the order matters.
 * @throws when neither recovery id gives `address` (the signature is not over `digest` by that key).
 */
export function ethereumSignature(digest: Uint8Array, rs: Uint8Array, address: string): Signature {
  if (rs.length !== 64) throw new Error(`expected a 64-byte r||s signature, got ${rs.length} bytes`);
  const sig = secp256k1.Signature.fromCompact(rs).normalizeS();
  const want = getAddress(address);
  for (const recovery of [0, 1] as const) {
    const point = sig.addRecoveryBit(recovery).recoverPublicKey(digest);
    if (publicKeyToAddress(toHex(point.toRawBytes(false))) === want) {
      return {
        r: toHex(sig.r, { size: 32 }),
        s: toHex(sig.s, { size: 32 }),
        v: BigInt(27 + recovery),
        yParity: recovery,
      };
    }
  }
  throw new Error(`the signature does not recover to ${want}; the signer signed something else or with another key`);
}

/**
 * A viem account whose private key is not in this process: transactions, messages (EIP-191) and
 * typed data (EIP-712) are hashed here with keccak-256, the digest is signed by `sign`, and the
 * recovery id is worked out locally (see ethereumSignature).
 */
export function remoteAccount(address: string, sign: DigestSigner): LocalAccount {
  const signDigest = async (hash: Hex): Promise<Signature> => {
    const digest = hexToBytes(hash);
    return ethereumSignature(digest, await sign(digest), address);
  };
  return toAccount({
    address: getAddress(address),
    async signMessage({ message }) {
      return serializeSignature(await signDigest(hashMessage(message)));
    },
    async signTypedData(typedData) {
      return serializeSignature(await signDigest(hashTypedData(typedData)));
    },
    async signTransaction(transaction, options) {
      const serializer = options?.serializer ?? serializeTransaction;
      // EIP-4844: the signature covers the payload without the blob sidecars.
      const signable = transaction.type === "eip4844" ? { ...transaction, sidecars: false as const } : transaction;
      const signature = await signDigest(keccak256(await serializer(signable)));
      return serializer(transaction, signature);
    },
  });
}
