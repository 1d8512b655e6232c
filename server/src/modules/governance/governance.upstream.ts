import type { common } from "@hyperledger/fabric-protos";
import type { z } from "zod";
import type { chaincodeProposalWire } from "./chaincode-proposals.wire.js";
import type { proposalWire, signatureWire } from "./governance.inbound.js";
import type { GovernanceRepo, ProposalRow } from "./governance.repo.js";
import type { GovernanceSharing } from "./governance.share.js";

/**
 * What federation's second route set (upstream's /pro/receive*, /pro/sharing/config-proposal) needs
 * of governance: the same receivers and sender the product's own routes use, nothing else.
 */
export interface GovernanceUpstream {
  receiveProposal(from: string, body: z.infer<typeof proposalWire>): Promise<{ proposal_id: string }>;
  receiveSignature(from: string, body: z.infer<typeof signatureWire>): Promise<{ proposal_id: string }>;
  receiveChaincodeProposal(from: string, body: z.infer<typeof chaincodeProposalWire>): Promise<{ proposal_id: string }>;
  proposal(id: string): Promise<ProposalRow | undefined>;
  shareProposal(id: string, connectionId: number, by: string): Promise<void>;
  /** This console's view of a channel's config; null when it has no such channel or no running node of it. */
  channelConfig(channelName: string): Promise<common.Config | null>;
}

export function createGovernanceUpstream(deps: {
  repo: Pick<GovernanceRepo, "byId">;
  sharing: Pick<GovernanceSharing, "receiveProposal" | "receiveSignature" | "shareProposal">;
  chaincode: { receive(from: string, body: z.infer<typeof chaincodeProposalWire>): Promise<{ proposal_id: string }> };
  networkIdByChannel(name: string): Promise<number | null>;
  channelConfig(networkId: number): Promise<common.Config | null>;
}): GovernanceUpstream {
  return {
    receiveProposal: (from, body) => deps.sharing.receiveProposal(from, body),
    receiveSignature: (from, body) => deps.sharing.receiveSignature(from, body),
    receiveChaincodeProposal: (from, body) => deps.chaincode.receive(from, body),
    proposal: (id) => deps.repo.byId(id),
    shareProposal: (id, connectionId, by) => deps.sharing.shareProposal(id, connectionId, by),
    async channelConfig(channelName) {
      const id = await deps.networkIdByChannel(channelName);
      return id === null ? null : deps.channelConfig(id);
    },
  };
}
