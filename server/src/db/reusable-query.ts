import type { CompiledQuery, Compilable } from "kysely";

/** A query built and compiled once; `with` gives it the values of one call. */
export interface ReusableQuery<Args extends readonly unknown[], Row> {
  /** The compiled query with `args` in the places the placeholders had, for `db.executeQuery`. */
  with(...args: Args): CompiledQuery<Row>;
}

/**
 * A query that Kysely builds and compiles on first use only, then runs with each call's values: on
 * the hottest paths (the HTTP Basic check and the audit entry of every API call) building the
 * operation tree and compiling its SQL cost more CPU than SQLite running the statement. The SQL is
 * what the same Kysely instance would compile (its dialect's placeholders and quoting), and
 * `executeQuery` runs it through the same connection handling (SQLite's mutex, PostgreSQL's pool),
 * so it waits for a transaction in progress exactly as a freshly built query would.
 *
 * `build` receives stand-in values (unique strings) and must pass each one as a value exactly once;
 * their positions among the compiled parameters are where each call's values go. A query whose
 * compilation dropped or repeated a stand-in is refused at first use rather than run wrong.
 */
export function reusableQuery<Args extends readonly unknown[], Row>(
  arity: Args["length"],
  build: (...placeholders: Args) => Compilable<Row>,
): ReusableQuery<Args, Row> {
  let compiled: { query: CompiledQuery<Row>; slots: number[] } | undefined;
  function compile(): { query: CompiledQuery<Row>; slots: number[] } {
    const placeholders = Array.from({ length: arity }, (_, i) => `\u0000chainlaunch-placeholder-${i}\u0000`);
    const query = build(...(placeholders as unknown as Args)).compile();
    const slots = placeholders.map((p) => query.parameters.indexOf(p));
    const found = query.parameters.filter(
      (v) => typeof v === "string" && v.startsWith("\u0000chainlaunch-placeholder-"),
    );
    if (slots.includes(-1) || found.length !== arity) {
      throw new Error(`reusableQuery: each of the ${arity} placeholders must be one parameter of: ${query.sql}`);
    }
    return { query, slots };
  }
  return {
    with(...args: Args): CompiledQuery<Row> {
      compiled ??= compile();
      const { query, slots } = compiled;
      const parameters = query.parameters.slice();
      for (let i = 0; i < slots.length; i++) parameters[slots[i]!] = args[i];
      return { ...query, parameters };
    },
  };
}
