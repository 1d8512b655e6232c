import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { providerKeys, type NotificationProvider } from "@/data/notification-providers/keys";

export function useProviderQuery(id: number): UseQueryResult<NotificationProvider> {
  return useQuery({
    queryKey: providerKeys.detail(id),
    queryFn: () => unwrap(api.GET("/notifications/providers/{id}", { params: { path: { id } } })),
  });
}
