export const chaincodeKeys = {
  all: ["chaincodes"] as const,
  list: () => [...chaincodeKeys.all, "list"] as const,
  detail: (id: number) => [...chaincodeKeys.all, "detail", id] as const,
  definitions: (id: number) => [...chaincodeKeys.all, "definitions", id] as const,
  status: (definitionId: number) => [...chaincodeKeys.all, "status", definitionId] as const,
  timeline: (definitionId: number) => [...chaincodeKeys.all, "timeline", definitionId] as const,
  logs: (definitionId: number) => [...chaincodeKeys.all, "logs", definitionId] as const,
  dockerInfo: (definitionId: number) => [...chaincodeKeys.all, "docker-info", definitionId] as const,
  metadata: (id: number) => [...chaincodeKeys.all, "metadata", id] as const,
  /** What a network's channel has committed, read from a peer (adopting what was committed elsewhere). */
  committed: (networkId: number) => [...chaincodeKeys.all, "committed", networkId] as const,
};
