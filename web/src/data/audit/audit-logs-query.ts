import { keepPreviousData, useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type AuditEvent } from "@/api/client";
import { auditKeys, type AuditFilters } from "@/data/audit/keys";

export interface AuditPage {
  items: AuditEvent[];
  page: number;
  page_size: number;
  total_count: number;
}

export function useAuditLogsQuery(filters: AuditFilters, enabled = true): UseQueryResult<AuditPage> {
  return useQuery({
    queryKey: auditKeys.list(filters),
    queryFn: () => unwrap(api.GET("/audit/logs", { params: { query: filters } })),
    placeholderData: keepPreviousData,
    enabled,
  });
}
