import type { paths } from "@/api/schema";
import type { ResponseOf } from "@/api/client";

/** A chaincode definition proposed to the consortium (here or received from another console). */
export type ChaincodeProposal = ResponseOf<"/pro/chaincodes/proposals", "post", 201>;
export type ChaincodeProposalStatus = ChaincodeProposal["status"];
/** A proposal with the local chaincode and definition once they exist (get and accept answer this). */
export type ChaincodeProposalDetail = ResponseOf<"/pro/chaincodes/proposals/{proposalId}", "get">;
export type ShareChaincodeProposalResult = ResponseOf<"/pro/chaincodes/proposals/{proposalId}/share", "post">;

type Body<P extends keyof paths> =
  NonNullable<paths[P]["post"]> extends { requestBody?: { content: { "application/json": infer J } } } ? J : never;

export type CreateChaincodeProposalBody = Body<"/pro/chaincodes/proposals">;
