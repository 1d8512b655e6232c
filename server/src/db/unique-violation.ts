/**
 * Recognises a unique-constraint violation from either database and names the column when it can:
 * SQLite says `UNIQUE constraint failed: networks.name`, PostgreSQL (23505) says `Key (name)=(x) already exists.`
 * Returns undefined when `err` is not a unique violation, and "" when the column can't be told.
 */
export function uniqueViolationColumn(err: unknown): string | undefined {
  const e = err as { code?: unknown; message?: unknown; detail?: unknown } | null;
  if (!e || typeof e !== "object") return undefined;
  if (e.code === "23505") {
    const m = /^Key \(([^)]+)\)=/.exec(typeof e.detail === "string" ? e.detail : "");
    return m ? (m[1] as string).replace(/lower\((\w+)\)/i, "$1") : "";
  }
  const message = typeof e.message === "string" ? e.message : "";
  if (
    e.code === "SQLITE_CONSTRAINT_UNIQUE" ||
    e.code === "SQLITE_CONSTRAINT_PRIMARYKEY" ||
    /UNIQUE constraint/i.test(message)
  ) {
    const m = /UNIQUE constraint failed: ([\w.]+(?:, [\w.]+)*)/.exec(message);
    return m
      ? (m[1] as string)
          .split(", ")
          .map((c) => c.split(".").pop())
          .join(", ")
      : "";
  }
  return undefined;
}

/** Whether `err` is a unique-constraint violation from either database. */
export function isUniqueViolation(err: unknown): boolean {
  return uniqueViolationColumn(err) !== undefined;
}
