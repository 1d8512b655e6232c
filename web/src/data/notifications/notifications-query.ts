import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type ApiNotification } from "@/api/client";
import { notificationKeys } from "@/data/notifications/keys";

export interface NotificationPage {
  notifications: ApiNotification[];
  total: number;
  limit: number;
  offset: number;
}

export function useNotificationsQuery(limit = 50, enabled = true): UseQueryResult<NotificationPage> {
  return useQuery({
    queryKey: notificationKeys.list(limit),
    queryFn: () => unwrap(api.GET("/user-notifications", { params: { query: { limit, offset: 0 } } })),
    enabled,
  });
}

export function useUnreadCountQuery(enabled = true): UseQueryResult<number> {
  return useQuery({
    queryKey: notificationKeys.unreadCount(),
    queryFn: async () => (await unwrap(api.GET("/user-notifications/unread/count"))).count,
    enabled,
  });
}
