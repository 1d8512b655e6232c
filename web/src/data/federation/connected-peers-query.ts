import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { federationKeys } from "@/data/federation/keys";
import type { ConnectedPeer } from "@/data/federation/types";

/** How often the list is refetched: the server pings each connection every 30 s by default. */
export const PEERS_REFRESH_MS = 15_000;

/** Every known console with its live status (connected, unreachable, revoked), refreshed every 15 s. */
export function useConnectedPeersQuery(): UseQueryResult<ConnectedPeer[]> {
  return useQuery({
    queryKey: federationKeys.peers(),
    queryFn: async () => (await unwrap(api.GET("/node/connected-peers"))).connected_peers,
    refetchInterval: PEERS_REFRESH_MS,
  });
}
