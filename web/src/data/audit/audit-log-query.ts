import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type AuditEvent } from "@/api/client";
import { auditKeys } from "@/data/audit/keys";

export function useAuditLogQuery(id: number): UseQueryResult<AuditEvent> {
  return useQuery({
    queryKey: auditKeys.detail(id),
    queryFn: () => unwrap(api.GET("/audit/logs/{id}", { params: { path: { id } } })),
    enabled: Number.isFinite(id),
  });
}
