import type { ShareDirection, SharedKeyFilters } from "@/data/sharing/types";

/** Query keys of sharing: networks shared with or by this console, and public keys shared with it. */
export const sharingKeys = {
  all: ["sharing"] as const,
  networks: () => [...sharingKeys.all, "networks"] as const,
  networkList: (direction: ShareDirection) => [...sharingKeys.networks(), direction] as const,
  keys: () => [...sharingKeys.all, "keys"] as const,
  keyList: (f: SharedKeyFilters) => [...sharingKeys.keys(), f] as const,
};
