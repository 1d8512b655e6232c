import { useMutation, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export interface LoginVars {
  username: string;
  password: string;
}

/** Signs in; the caller shows 'Logged in successfully' or 'Invalid credentials' and reloads. */
export function useLoginMutation(): UseMutationResult<{ message: string }, Error, LoginVars> {
  return useMutation({
    mutationFn: (body: LoginVars) => unwrap(api.POST("/auth/login", { body })),
    meta: { silent: true },
  });
}
