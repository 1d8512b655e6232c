/** Query keys of channel config-update proposals (/pro/networks/proposals*). */
export const governanceKeys = {
  all: ["governance"] as const,
  lists: () => [...governanceKeys.all, "list"] as const,
  list: (networkId: number) => [...governanceKeys.lists(), networkId] as const,
  detail: (id: string) => [...governanceKeys.all, "detail", id] as const,
  events: (id: string) => [...governanceKeys.all, "events", id] as const,
};
