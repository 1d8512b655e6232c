import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type ResponseOf } from "@/api/client";
import { keyProviderKeys } from "@/data/key-providers/keys";

export type AwsKmsStatus = ResponseOf<"/key-providers/{id}/awskms/status", "get">;

export function fetchAwsKmsStatus(id: number): Promise<AwsKmsStatus> {
  return unwrap(api.GET("/key-providers/{id}/awskms/status", { params: { path: { id } } }));
}

/** Whether KMS answers with the stored credentials (asked once a minute; each ask calls AWS). */
export function useAwsKmsStatusQuery(id: number, enabled = true): UseQueryResult<AwsKmsStatus> {
  return useQuery({
    queryKey: keyProviderKeys.awsKmsStatus(id),
    queryFn: () => fetchAwsKmsStatus(id),
    enabled: enabled && Number.isFinite(id),
    refetchInterval: 60_000,
  });
}
