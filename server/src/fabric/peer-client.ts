import type * as grpc from "@grpc/grpc-js";
import { common, peer } from "@hyperledger/fabric-protos";
import { openGrpcClient, unaryCall, type GrpcEndpoint } from "./grpc-connection.js";
import type { SigningIdentity } from "./identity.js";
import { signaturePolicyToDsl } from "./configtx/policies.js";
import { createSignedProposal } from "./proposal.js";

/** A peer answered a proposal with a non-200 status (e.g. 500 "cannot create ledger ... already exists"). */
export class ProposalError extends Error {
  constructor(
    public readonly status: number,
    public readonly peerMessage: string,
    what: string,
  ) {
    super(`${what} failed with status ${status}: ${peerMessage}`);
    this.name = "ProposalError";
  }
}

/** Height and hashes of a channel's chain as a peer reports it (QSCC GetChainInfo). */
export interface ChainInfo {
  height: number;
  currentBlockHash: string;
  previousBlockHash: string;
}

/** A chaincode definition committed on a channel, as `peer lifecycle chaincode querycommitted` lists it. */
export interface CommittedChaincode {
  name: string;
  version: string;
  sequence: number;
  endorsementPlugin: string;
  validationPlugin: string;
  initRequired: boolean;
  /** The endorsement policy: a DSL rule (`AND('Org1MSP.member', …)`) or a channel policy path. */
  endorsementPolicy: string;
}

/** The endorsement policy of a definition's validation parameter (an ApplicationPolicy). */
export function endorsementPolicyOf(validationParameter: Uint8Array): string {
  if (validationParameter.length === 0) return "";
  return applicationPolicyText(peer.ApplicationPolicy.deserializeBinary(validationParameter));
}

/** An ApplicationPolicy as the API writes it: the DSL of its signature policy, or the channel policy path. */
export function applicationPolicyText(p: peer.ApplicationPolicy): string {
  const sig = p.getSignaturePolicy();
  return sig ? signaturePolicyToDsl(sig) : p.getChannelConfigPolicyReference();
}

export interface PeerClient {
  /** Sends a signed proposal to Endorser.ProcessProposal; returns the response payload on status 200. */
  invokeSystemChaincode(p: {
    chaincode: string;
    channelId: string;
    args: (string | Uint8Array)[];
  }): Promise<Uint8Array>;
  /** CSCC JoinChain with a genesis (or config) block; the signer must be a peer-local admin. */
  joinChain(block: common.Block | Uint8Array): Promise<void>;
  /** CSCC GetChannels: the channels this peer has joined. */
  getChannels(): Promise<string[]>;
  /** QSCC GetChainInfo. */
  getChainInfo(channelId: string): Promise<ChainInfo>;
  /** QSCC GetBlockByNumber. */
  getBlockByNumber(channelId: string, blockNumber: number): Promise<common.Block>;
  /** _lifecycle QueryChaincodeDefinitions: the chaincode definitions committed on a channel. */
  queryChaincodeDefinitions(channelId: string): Promise<CommittedChaincode[]>;
  close(): void;
}

/**
 * A client for a peer's Endorser service, signing every proposal with `signer`. Used for
 * system chaincodes that the Gateway can't reach because they are channel-less (CSCC) or
 * need no endorsement plan (QSCC).
 */
export function createPeerClient(endpoint: GrpcEndpoint, signer: SigningIdentity, timeoutMs?: number): PeerClient {
  const client: grpc.Client = openGrpcClient(endpoint);
  const invoke = async (p: {
    chaincode: string;
    channelId: string;
    args: (string | Uint8Array)[];
  }): Promise<Uint8Array> => {
    const { signed } = createSignedProposal({ signer, ...p });
    const res = await unaryCall(
      client,
      "/protos.Endorser/ProcessProposal",
      signed,
      (b) => peer.ProposalResponse.deserializeBinary(b),
      timeoutMs,
    );
    const r = res.getResponse();
    const status = r?.getStatus() ?? 0;
    if (status !== 200) {
      const fn = typeof p.args[0] === "string" ? p.args[0] : "call";
      throw new ProposalError(status, r?.getMessage() ?? "", `${p.chaincode} ${fn}`);
    }
    return r?.getPayload_asU8() ?? new Uint8Array();
  };
  return {
    invokeSystemChaincode: invoke,
    async joinChain(block) {
      const bytes = block instanceof Uint8Array ? block : block.serializeBinary();
      await invoke({ chaincode: "cscc", channelId: "", args: ["JoinChain", bytes] });
    },
    async getChannels() {
      const payload = await invoke({ chaincode: "cscc", channelId: "", args: ["GetChannels"] });
      return peer.ChannelQueryResponse.deserializeBinary(payload)
        .getChannelsList()
        .map((c) => c.getChannelId());
    },
    async getChainInfo(channelId) {
      const payload = await invoke({ chaincode: "qscc", channelId: "", args: ["GetChainInfo", channelId] });
      const info = common.BlockchainInfo.deserializeBinary(payload);
      return {
        height: info.getHeight(),
        currentBlockHash: Buffer.from(info.getCurrentblockhash_asU8()).toString("hex"),
        previousBlockHash: Buffer.from(info.getPreviousblockhash_asU8()).toString("hex"),
      };
    },
    async getBlockByNumber(channelId, blockNumber) {
      const payload = await invoke({
        chaincode: "qscc",
        channelId: "",
        args: ["GetBlockByNumber", channelId, String(blockNumber)],
      });
      return common.Block.deserializeBinary(payload);
    },
    async queryChaincodeDefinitions(channelId) {
      const payload = await invoke({
        chaincode: "_lifecycle",
        channelId,
        args: ["QueryChaincodeDefinitions", new peer.lifecycle.QueryChaincodeDefinitionsArgs().serializeBinary()],
      });
      return peer.lifecycle.QueryChaincodeDefinitionsResult.deserializeBinary(payload)
        .getChaincodeDefinitionsList()
        .map((d) => ({
          name: d.getName(),
          version: d.getVersion(),
          sequence: d.getSequence(),
          endorsementPlugin: d.getEndorsementPlugin(),
          validationPlugin: d.getValidationPlugin(),
          initRequired: d.getInitRequired(),
          endorsementPolicy: endorsementPolicyOf(d.getValidationParameter_asU8()),
        }));
    },
    close: () => client.close(),
  };
}
