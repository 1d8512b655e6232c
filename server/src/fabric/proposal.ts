import { common, peer } from "@hyperledger/fabric-protos";
import { channelHeader, computeTxId, newNonce, signatureHeader } from "./configtx/genesis.js";
import type { SigningIdentity } from "./identity.js";

/** A signed proposal and the tx id it carries. */
export interface SignedProposalResult {
  signed: peer.SignedProposal;
  txId: string;
}

/**
 * Builds and signs a chaincode proposal (what `peer chaincode invoke/query` and the system
 * chaincode CLIs send): ChannelHeader ENDORSER_TRANSACTION with a ChaincodeHeaderExtension
 * naming the chaincode, tx id = SHA-256(nonce ‖ creator), and a ChaincodeInvocationSpec with
 * the args. Channel-less calls (CSCC JoinChain, GetChannels) use channelId "".
 */
export function createSignedProposal(params: {
  signer: SigningIdentity;
  channelId: string;
  chaincode: string;
  args: (string | Uint8Array)[];
  transient?: Record<string, Uint8Array>;
  now?: Date;
}): SignedProposalResult {
  const creator = params.signer.serialize();
  const nonce = newNonce();
  const txId = computeTxId(nonce, creator);
  const ccId = new peer.ChaincodeID();
  ccId.setName(params.chaincode);
  const ext = new peer.ChaincodeHeaderExtension();
  ext.setChaincodeId(ccId);
  const ch = channelHeader({
    type: common.HeaderType.ENDORSER_TRANSACTION,
    channelId: params.channelId,
    txId,
    timestamp: params.now ?? new Date(),
    extension: ext.serializeBinary(),
  });
  const header = new common.Header();
  header.setChannelHeader(ch.serializeBinary());
  header.setSignatureHeader(signatureHeader(creator, nonce).serializeBinary());

  const input = new peer.ChaincodeInput();
  input.setArgsList(params.args.map((a) => (typeof a === "string" ? Buffer.from(a, "utf8") : a)));
  const spec = new peer.ChaincodeSpec();
  spec.setType(peer.ChaincodeSpec.Type.GOLANG);
  spec.setChaincodeId(ccId);
  spec.setInput(input);
  const invocation = new peer.ChaincodeInvocationSpec();
  invocation.setChaincodeSpec(spec);
  const ccPayload = new peer.ChaincodeProposalPayload();
  ccPayload.setInput(invocation.serializeBinary());
  for (const [k, v] of Object.entries(params.transient ?? {})) ccPayload.getTransientmapMap().set(k, v);

  const proposal = new peer.Proposal();
  proposal.setHeader(header.serializeBinary());
  proposal.setPayload(ccPayload.serializeBinary());
  const bytes = proposal.serializeBinary();
  const signed = new peer.SignedProposal();
  signed.setProposalBytes(bytes);
  signed.setSignature(params.signer.sign(bytes));
  return { signed, txId };
}
