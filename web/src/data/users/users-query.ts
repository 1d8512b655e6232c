import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type User } from "@/api/client";
import { userKeys } from "@/data/users/keys";

export function useUsersQuery(enabled = true): UseQueryResult<User[]> {
  return useQuery({ queryKey: userKeys.list(), queryFn: () => unwrap(api.GET("/users")), enabled });
}
