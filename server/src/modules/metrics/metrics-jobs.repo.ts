import type { Insertable, Selectable, Transaction } from "kysely";
import type { DB } from "../../db/db.js";
import type { Database, MetricsJobsTable } from "../../db/types.js";

export type MetricsJobRow = Selectable<MetricsJobsTable>;

/** SQL for the operator's custom scrape jobs (metrics_jobs). */
export function createMetricsJobsRepo(db: DB) {
  const q = (trx?: Transaction<Database>) => trx ?? db;
  return {
    async all(): Promise<MetricsJobRow[]> {
      return db.selectFrom("metrics_jobs").selectAll().orderBy("id").execute();
    },
    async byName(name: string): Promise<MetricsJobRow | undefined> {
      return db.selectFrom("metrics_jobs").selectAll().where("job_name", "=", name).executeTakeFirst();
    },
    async insert(row: Insertable<MetricsJobsTable>, trx?: Transaction<Database>): Promise<MetricsJobRow> {
      return q(trx).insertInto("metrics_jobs").values(row).returningAll().executeTakeFirstOrThrow();
    },
    async deleteByName(name: string, trx?: Transaction<Database>): Promise<boolean> {
      const res = await q(trx).deleteFrom("metrics_jobs").where("job_name", "=", name).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },
  };
}

export type MetricsJobsRepo = ReturnType<typeof createMetricsJobsRepo>;

/** A stored job's targets (a JSON array of host:port). */
export function targetsOf(row: MetricsJobRow): string[] {
  const parsed = JSON.parse(row.targets) as unknown;
  return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === "string") : [];
}
