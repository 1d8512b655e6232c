import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { notificationKeys } from "@/data/notifications/keys";

export type MarkAction = { id: number; read: boolean } | { all: true };

/** Marks one notification read/unread, or all read. Failures are only logged (spec §7). */
export function useNotificationMarkMutation(): UseMutationResult<void, Error, MarkAction> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (action: MarkAction) => {
      if ("all" in action) {
        await unwrap(api.POST("/user-notifications/read-all"));
      } else if (action.read) {
        await unwrap(api.POST("/user-notifications/{id}/read", { params: { path: { id: action.id } } }));
      } else {
        await unwrap(api.POST("/user-notifications/{id}/unread", { params: { path: { id: action.id } } }));
      }
    },
    meta: { silent: true },
    onError: (e) => console.error("notification action failed", e),
    onSettled: () => qc.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}
