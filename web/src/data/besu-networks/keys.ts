export const besuNetworkKeys = {
  all: ["besu-networks"] as const,
  list: (limit: number, offset: number) => [...besuNetworkKeys.all, "list", limit, offset] as const,
  detail: (id: number) => [...besuNetworkKeys.all, "detail", id] as const,
};
