import { secp256k1 } from "@noble/curves/secp256k1.js";
import {
  parseEther,
  parseTransaction,
  recoverMessageAddress,
  recoverTransactionAddress,
  recoverTypedDataAddress,
  type Hex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { ethereumSignature, remoteAccount, type DigestSigner } from "./remote-account.js";

/**
 * A remote signer is stood in for by noble with a known key, so the results can be compared with
 * viem's own private-key account. `highS` makes it answer the other valid signature (n - s), as KMS
 * does about half the time.
 */
const PRIVATE = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318" as Hex;
const local = privateKeyToAccount(PRIVATE);
function signer(opts: { highS?: boolean } = {}): DigestSigner {
  return async (digest) => {
    const sig = secp256k1.sign(digest, Buffer.from(PRIVATE.slice(2), "hex"), { lowS: true, prehash: false });
    const s = opts.highS ? secp256k1.CURVE.n - sig.s : sig.s;
    return new secp256k1.Signature(sig.r, s).toCompactRawBytes();
  };
}

describe("remoteAccount", () => {
  it("signs EIP-1559 and legacy transactions that recover to the key's address, as viem's local account does", async () => {
    for (const highS of [false, true]) {
      const account = remoteAccount(local.address.toLowerCase(), signer({ highS }));
      expect(account.address).toBe(local.address);
      const eip1559 = {
        chainId: 31337,
        type: "eip1559" as const,
        nonce: 3,
        to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" as Hex,
        value: parseEther("1"),
        gas: 21_000n,
        maxFeePerGas: 2_000_000_000n,
        maxPriorityFeePerGas: 1_000_000_000n,
      };
      const raw = await account.signTransaction(eip1559);
      expect(await recoverTransactionAddress({ serializedTransaction: raw as never })).toBe(local.address);
      // RFC 6979 nonces on both sides: the very same bytes as viem's private-key account.
      expect(raw).toBe(await local.signTransaction(eip1559));
      const parsed = parseTransaction(raw);
      expect(BigInt(parsed.s ?? "0x0")).toBeLessThanOrEqual(secp256k1.CURVE.n / 2n);

      const legacy = {
        chainId: 1337,
        type: "legacy" as const,
        nonce: 0,
        to: eip1559.to,
        value: 1n,
        gas: 21_000n,
        gasPrice: 1n,
      };
      const rawLegacy = await account.signTransaction(legacy);
      expect(rawLegacy).toBe(await local.signTransaction(legacy));
    }
  });

  it("signs messages and typed data", async () => {
    const account = remoteAccount(local.address, signer({ highS: true }));
    const sig = await account.signMessage({ message: "hello besu" });
    expect(await recoverMessageAddress({ message: "hello besu", signature: sig })).toBe(local.address);
    const typed = {
      domain: { name: "t", version: "1", chainId: 1 },
      types: { Mail: [{ name: "contents", type: "string" }] },
      primaryType: "Mail" as const,
      message: { contents: "hi" },
    };
    const typedSig = await account.signTypedData(typed);
    expect(await recoverTypedDataAddress({ ...typed, signature: typedSig })).toBe(local.address);
  });

  it("refuses a signature that is not the key's", async () => {
    const other = remoteAccount("0x70997970C51812dc3A010C7d01b50e0d17dc79C8", signer());
    await expect(other.signMessage({ message: "x" })).rejects.toThrow(/does not recover to 0x7099/);
    expect(() => ethereumSignature(new Uint8Array(32), new Uint8Array(10), local.address)).toThrow(/64-byte/);
  });
});
