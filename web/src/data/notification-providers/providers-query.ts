import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { providerKeys, type NotificationProvider } from "@/data/notification-providers/keys";

/** Email and webhook notification providers (secrets masked). */
export function useProvidersQuery(): UseQueryResult<NotificationProvider[]> {
  return useQuery({ queryKey: providerKeys.list(), queryFn: () => unwrap(api.GET("/notifications/providers")) });
}
