import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap, type Role, type User } from "@/api/client";
import { userKeys } from "@/data/users/keys";

export interface UserUpdateVars {
  id: number;
  role?: Role;
  username?: string;
}

export function useUserUpdateMutation(): UseMutationResult<User, Error, UserUpdateVars> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UserUpdateVars) => unwrap(api.PUT("/users/{id}", { params: { path: { id } }, body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: userKeys.all }),
  });
}
