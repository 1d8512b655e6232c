import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type RoleInfo } from "@/api/client";

export const roleKeys = { all: ["roles"] as const };

/** Roles and their permissions; public on the server. */
export function useRolesQuery(): UseQueryResult<RoleInfo[]> {
  return useQuery({ queryKey: roleKeys.all, queryFn: () => unwrap(api.GET("/roles")), staleTime: 5 * 60_000 });
}
