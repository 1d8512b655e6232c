import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap, type Role, type User } from "@/api/client";
import { userKeys } from "@/data/users/keys";

export interface UserCreateVars {
  username: string;
  password: string;
  role: Role;
}

export function useUserCreateMutation(): UseMutationResult<User, Error, UserCreateVars> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: UserCreateVars) => unwrap(api.POST("/users", { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: userKeys.all }),
  });
}
