import { useMutation, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** Signs out; on success the page reloads into the login form (spec §7). */
export function useLogoutMutation(): UseMutationResult<{ message: string }, Error, void> {
  return useMutation({
    mutationFn: () => unwrap(api.POST("/auth/logout")),
    onSuccess: () => window.location.reload(),
  });
}
