import { sql, type Kysely } from "kysely";
import type { Dialect } from "./helpers.js";

/**
 * Usernames are unique regardless of case (`admin` and `Admin` are one user). A database that already
 * holds names differing only in case can't take the index: the migration stops and names them, so an
 * admin can rename one (with the previous release) and start again.
 */
export function usernamesCaseInsensitive(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const clashes = await sql<{ name: string; n: number | string }>`
        select lower(username) as name, count(*) as n from users group by lower(username) having count(*) > 1
      `.execute(db);
      if (clashes.rows.length) {
        const names = clashes.rows.map((r) => r.name).join(", ");
        throw new Error(`usernames differing only in case must be renamed before this upgrade: ${names}`);
      }
      await db.schema
        .createIndex("users_username_lower_idx")
        .on("users")
        .expression(sql`lower(username)`)
        .unique()
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex("users_username_lower_idx").execute();
    },
  };
}
