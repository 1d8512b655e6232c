import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type User } from "@/api/client";
import { isApiError } from "@/api/errors";
import { authKeys } from "@/data/auth/keys";

/** The signed-in user, or null when nobody is (401). Never retried (spec §7). */
export async function fetchMe(): Promise<User | null> {
  try {
    return await unwrap(api.GET("/auth/me"));
  } catch (e) {
    if (isApiError(e) && e.status === 401) return null;
    throw e;
  }
}

export function useMeQuery(): UseQueryResult<User | null> {
  return useQuery({ queryKey: authKeys.me(), queryFn: fetchMe, retry: false, staleTime: 60_000 });
}
