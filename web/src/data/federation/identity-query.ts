import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { federationKeys } from "@/data/federation/keys";
import type { FederationIdentity } from "@/data/federation/types";

/** This console's node id, public key and endpoint (the key pair is created on first call). */
export function useFederationIdentityQuery(): UseQueryResult<FederationIdentity> {
  return useQuery({
    queryKey: federationKeys.identity(),
    queryFn: () => unwrap(api.GET("/node/identity")),
  });
}
