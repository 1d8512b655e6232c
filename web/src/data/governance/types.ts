import type { ResponseOf } from "@/api/client";
import type { paths } from "@/api/schema";

type Body<P extends keyof paths> =
  NonNullable<paths[P]["post"]> extends { requestBody?: { content: { "application/json": infer J } } } ? J : never;

/** One channel config-update proposal with its signatures and the policy count. */
export type Proposal = ResponseOf<"/pro/networks/proposals/{proposalId}", "get">;
export type ProposalStatus = Proposal["status"];
export type ProposalPolicy = Proposal["policy"];
export type ProposalSignature = Proposal["signatures"][number];
/** One entry of a proposal's own timeline. */
export type ProposalEvent = ResponseOf<"/pro/networks/proposals/{proposalId}/events", "get">[number];
/** Body of POST /pro/networks/proposals. */
export type CreateProposalBody = Body<"/pro/networks/proposals">;
/** One operation as the create request takes it (external organizations by id included). */
export type ProposalOperationInput = CreateProposalBody["operations"][number];
export type SignProposalResult = ResponseOf<"/pro/networks/proposals/{proposalId}/sign", "post">;
export type SubmitProposalResult = ResponseOf<"/pro/networks/proposals/{proposalId}/submit", "post">;
