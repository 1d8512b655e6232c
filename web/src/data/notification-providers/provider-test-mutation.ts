import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { providerKeys, type ProviderTestResult } from "@/data/notification-providers/keys";

export interface ProviderTestVars {
  id: number;
  testEmail?: string;
}

/** Send test: the result (success or failure with the server's answer) is also stored on the provider. */
export function useProviderTestMutation(): UseMutationResult<ProviderTestResult, Error, ProviderTestVars> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, testEmail }: ProviderTestVars) =>
      unwrap(
        api.POST("/notifications/providers/{id}/test", {
          params: { path: { id } },
          body: testEmail ? { testEmail } : {},
        }),
      ),
    onSettled: () => qc.invalidateQueries({ queryKey: providerKeys.all }),
  });
}
