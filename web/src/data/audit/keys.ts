export interface AuditFilters {
  page: number;
  page_size: number;
  start?: string;
  end?: string;
  event_type?: string;
  user_id?: number;
  event_outcome?: "SUCCESS" | "FAILURE";
}

export const auditKeys = {
  all: ["audit"] as const,
  list: (f: AuditFilters) => [...auditKeys.all, "list", f] as const,
  detail: (id: number) => [...auditKeys.all, "detail", id] as const,
};
