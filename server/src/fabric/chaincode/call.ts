/**
 * How a call to a chaincode is signed: an MSP identity and either a signer of the whole message
 * (a key in this process: OpenSSL hashes and signs it, see fabric/sign.ts) or a signer of its
 * SHA-256 digest (a key held by a provider that signs digests: KMS, Vault transit). Both low-S ECDSA.
 */
export type GatewayIdentity = { mspId: string; certPem: string } & (
  | { signMessage(message: Uint8Array): Uint8Array | Promise<Uint8Array> }
  | { signDigest(digest: Uint8Array): Promise<Uint8Array> }
);

export interface ChaincodeCall {
  channel: string;
  chaincode: string;
  fn: string;
  args: string[];
  transient?: Record<string, Uint8Array>;
  /** Ask these orgs' peers to endorse (default: what the Gateway plans from the endorsement policy). */
  endorsingOrganizations?: string[];
}

/** The chaincode or the peers refused a call; `details` carries each peer's own message. */
export class ChaincodeCallError extends Error {
  constructor(
    message: string,
    public readonly kind: "endorse" | "submit" | "commit" | "evaluate" | "connect",
    public readonly details: { address: string; mspId: string; message: string }[] = [],
    public readonly txId?: string,
  ) {
    super(message);
    this.name = "ChaincodeCallError";
  }
}
