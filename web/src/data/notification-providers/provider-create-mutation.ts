import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { providerKeys, type NotificationProvider, type ProviderBody } from "@/data/notification-providers/keys";

/** Silent: the form shows a field's error next to it and toasts the others itself. */
export function useProviderCreateMutation(): UseMutationResult<NotificationProvider, Error, ProviderBody> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ProviderBody) => unwrap(api.POST("/notifications/providers", { body })),
    onSettled: () => qc.invalidateQueries({ queryKey: providerKeys.all }),
    meta: { silent: true },
  });
}
