import type { FastifySchemaCompiler } from "fastify";
import { validatorCompiler as zodValidatorCompiler } from "fastify-type-provider-zod";
import { z } from "zod";

/**
 * Upstream's Go clients marshal an empty slice or map as `null` (`"country": null`), where our
 * schemas say "an optional array". A body that fails only because of such nulls is read as if those
 * fields were absent. Nulls are dropped only where the schema refuses them (a nullable field keeps
 * its null); what is still wrong after that is answered as usual, a 400 naming the field. An empty
 * body (Go's POST with the JSON content type and nothing) reads as `{}` when that is a valid body.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) => {
  const inner = zodValidatorCompiler(route);
  if (route.httpPart !== "body") return inner;
  const schema = route.schema;
  return (data: unknown) => {
    const first = inner(data) as { error?: Error; value?: unknown };
    if (first.error && (data === null || data === undefined)) {
      // No body (Go sends `Content-Type: application/json` and nothing) where every field is optional is
      // the empty object; a body with a required field still gets the 400 naming `body`.
      const empty = z.safeParse(schema, {});
      return empty.success ? { value: empty.data } : first;
    }
    if (!first.error || !data || typeof data !== "object") return first;
    let current: unknown = data;
    // Each round drops the nulls the last parse refused; a nested object may show more after that.
    for (let round = 0; round < 8; round++) {
      const parsed = z.safeParse(schema, current);
      if (parsed.success) return { value: parsed.data };
      const paths = parsed.error.issues
        .filter((i) => i.code === "invalid_type" && i.path.length > 0)
        .map((i) => i.path)
        .filter((p) => valueAt(current, p) === null);
      if (paths.length === 0) break;
      current = structuredClone(current);
      for (const p of paths) removeAt(current, p);
    }
    // What is still wrong, without the nulls: a required field sent as null is named as missing.
    return current === data ? first : inner(current);
  };
};

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let v = root;
  for (const k of path) {
    if (!v || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/** Deletes an object's key (an array's element stays: removing it would shift the others). */
function removeAt(root: unknown, path: PropertyKey[]): void {
  const parent = valueAt(root, path.slice(0, -1));
  const key = path[path.length - 1]!;
  if (parent && typeof parent === "object" && !Array.isArray(parent))
    delete (parent as Record<PropertyKey, unknown>)[key];
}
