export const fabricNetworkKeys = {
  all: ["fabric-networks"] as const,
  list: (limit: number, offset: number) => [...fabricNetworkKeys.all, "list", limit, offset] as const,
  detail: (id: number) => [...fabricNetworkKeys.all, "detail", id] as const,
  nodes: (id: number) => [...fabricNetworkKeys.all, "nodes", id] as const,
  info: (id: number) => [...fabricNetworkKeys.all, "info", id] as const,
  blocks: (id: number, limit: number, offset: number) =>
    [...fabricNetworkKeys.all, "blocks", id, limit, offset] as const,
  block: (id: number, num: number) => [...fabricNetworkKeys.all, "block", id, num] as const,
  config: (id: number, which: "genesis" | "current") => [...fabricNetworkKeys.all, "config", id, which] as const,
  map: (id: number) => [...fabricNetworkKeys.all, "map", id] as const,
};
