import type { Selectable, Transaction } from "kysely";
import type { DB } from "../../db/db.js";
import { reusableQuery } from "../../db/reusable-query.js";
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

/** The columns an entry is written with, in the order of the compiled INSERT's values. */
const INSERT_COLUMNS = [
  "timestamp",
  "event_type",
  "event_source",
  "event_outcome",
  "severity",
  "user_id",
  "username",
  "source_ip",
  "request_id",
  "session_id",
  "affected_resource",
  "details",
] as const satisfies ReadonlyArray<keyof Omit<AuditRow, "id">>;
type InsertArgs = Array<string | number | null>;

/** SQL for the audit log. Append-only: there is no update or delete. */
export function createAuditRepo(db: DB) {
  // Every audited API call writes one entry: compiled once (see reusableQuery). Every column is given
  // (nulls included), as the built INSERT gave them.
  const insert = reusableQuery<InsertArgs, never>(INSERT_COLUMNS.length, (...values) =>
    db
      .insertInto("audit_logs")
      .values(Object.fromEntries(INSERT_COLUMNS.map((c, i) => [c, values[i]])) as Omit<AuditRow, "id">),
  );
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
      const values = INSERT_COLUMNS.map((c) => row[c]);
      // A column left undefined takes its default, which only a freshly built INSERT (leaving it out) gives.
      if (values.includes(undefined as never)) await (trx ?? db).insertInto("audit_logs").values(row).execute();
      else await (trx ?? db).executeQuery(insert.with(...values));
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
