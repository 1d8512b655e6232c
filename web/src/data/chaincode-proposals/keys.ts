/** Query keys of chaincode proposals (all, a network's list, one proposal). */
export const chaincodeProposalKeys = {
  all: ["chaincode-proposals"] as const,
  list: (networkId: number) => [...chaincodeProposalKeys.all, "list", networkId] as const,
  detail: (id: number) => [...chaincodeProposalKeys.all, "detail", id] as const,
};
