import { useMutation, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export interface ChangePasswordVars {
  current_password: string;
  new_password: string;
}

export function useChangePasswordMutation(): UseMutationResult<{ message: string }, Error, ChangePasswordVars> {
  return useMutation({ mutationFn: (body: ChangePasswordVars) => unwrap(api.POST("/auth/change-password", { body })) });
}
