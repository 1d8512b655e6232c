import type { Selectable, Transaction } from "kysely";
import type { DB } from "../../db/db.js";
import type { AuditLogsTable, Database } from "../../db/types.js";

export type AuditRow = Selectable<AuditLogsTable>;

export interface AuditFilter {
  start?: string;
  end?: string;
  eventType?: string;
  userId?: number;
  outcome?: string;
  eventSource?: string;
  severity?: string;
  sourceIp?: string;
}

/** SQL for the audit log. Append-only: there is no update or delete. */
export function createAuditRepo(db: DB) {
  function filtered(f: AuditFilter, q = db.selectFrom("audit_logs")) {
    let query = q;
    if (f.start) query = query.where("timestamp", ">=", f.start);
    if (f.end) query = query.where("timestamp", "<=", f.end);
    if (f.eventType) query = query.where("event_type", "=", f.eventType);
    if (f.userId !== undefined) query = query.where("user_id", "=", f.userId);
    if (f.outcome) query = query.where("event_outcome", "=", f.outcome.toUpperCase());
    if (f.eventSource) query = query.where("event_source", "=", f.eventSource);
    if (f.severity) query = query.where("severity", "=", f.severity.toUpperCase());
    if (f.sourceIp) query = query.where("source_ip", "=", f.sourceIp);
    return query;
  }
  return {
    async insert(row: Omit<AuditRow, "id">, trx?: Transaction<Database>): Promise<void> {
      await (trx ?? db).insertInto("audit_logs").values(row).execute();
    },
    async list(f: AuditFilter, limit: number, offset: number): Promise<{ rows: AuditRow[]; total: number }> {
      const rows = await filtered(f).selectAll().orderBy("id", "desc").limit(limit).offset(offset).execute();
      const count = await filtered(f)
        .select((eb) => eb.fn.countAll<string | number>().as("n"))
        .executeTakeFirstOrThrow();
      return { rows, total: Number(count.n) };
    },
    async get(id: number): Promise<AuditRow | undefined> {
      return db.selectFrom("audit_logs").selectAll().where("id", "=", id).executeTakeFirst();
    },
  };
}

export type AuditRepo = ReturnType<typeof createAuditRepo>;
