import { z } from "zod";

/** Largest id the integer id columns hold (PostgreSQL `integer`/`serial`). */
export const MAX_DB_ID = 2 ** 31 - 1;

/** A row id in a body: a whole number 1..2^31-1, like the columns. */
export const dbId = () => z.number().int().min(1).max(MAX_DB_ID);

/** A row id in a query string (text coerced to a number), bounded like the columns. */
export const dbIdQuery = () => z.coerce.number().int().min(1).max(MAX_DB_ID);

/** A paging offset in a query string, bounded so the database never sees an out-of-range number. */
export const offsetQuery = () => z.coerce.number().int().min(0).max(MAX_DB_ID).default(0);

/**
 * Go's zero time as upstream's JSON carries it: a time that never happened (a schedule that never
 * ran). Upstream's Go clients expect a timestamp string where a Go struct has a time.Time, never null.
 */
export const GO_ZERO_TIME = "0001-01-01T00:00:00Z";

/**
 * A schema built on first use, not when its module is imported (issue 34: 9,021 zod objects were
 * built at every start, most for routes a start never calls). `build` runs once, on the first parse, the
 * first JSON Schema conversion or the first `.unwrap()`, and every copy of the result (`.describe()`,
 * `.optional()` clone a lazy schema) shares what it built: a schema with a `.meta({ id })` is one schema.
 * It parses, infers and converts to JSON Schema like the schema `build` returns; its own methods are
 * zod's generic ones, so an object's `.extend()`/`.omit()`/`.shape` go through `.unwrap()`, inside
 * another `lazySchema` to stay lazy.
 */
export function lazySchema<T extends z.ZodType>(build: () => T): z.ZodLazy<T> {
  return z.lazy(builtOnce(build));
}

/** `build`'s result, built at the first call and the same at every call: parts shared by lazy schemas. */
export function builtOnce<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

/** Path parameters that are one row id, `{ id }` (1..2^31-1, from the path's text), described as `description`. */
export const idPathParams = (description: string) =>
  lazySchema(() => z.object({ id: dbIdQuery().describe(description) }).strict());
