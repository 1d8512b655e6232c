import type { FastifyInstance } from "fastify";
import { InputError } from "./errors.js";

/** Deepest nesting of arrays and objects a JSON body may have (Fabric config JSON needs about 15). */
export const MAX_JSON_DEPTH = 128;

/**
 * How deep the arrays and objects of a JSON text nest, counted over the raw text (outside strings)
 * so that a body nested thousands of levels deep is refused before anything recurses into it.
 * Returns as soon as `limit` is exceeded.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** The path of the first string (value or key) that holds a NUL character, e.g. `body.nodes[2].name`. */
export function findNul(value: unknown, path = "body"): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findNul(value[i], `${path}[${i}]`);
      if (hit) return hit;
    }
    return undefined;
  }
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes("\u0000")) return `${path} (a field name)`;
      const hit = findNul(v, `${path}.${k}`);
      if (hit) return hit;
    }
  }
  return undefined;
}

/**
 * The JSON body parser. Differences from Fastify's own:
 * - an empty body is no body: Go clients (the Terraform provider among them) send
 *   `Content-Type: application/json` with nothing on DELETEs and body-less POSTs; a route that needs
 *   a body still answers its usual 400 naming `body`;
 * - bodies nested deeper than MAX_JSON_DEPTH are refused with a 400, before parsing;
 * - a NUL character in any string is refused with a 400 naming the field (PostgreSQL text cannot hold it).
 * Prototype-poisoning protection is Fastify's (its default parser does the parsing).
 * Query strings and paths with a NUL are refused for the same reason, in a preParsing hook: it runs
 * after every onRequest hook, so the caller is known (and a refusal of theirs audited) whatever the
 * order the hooks were registered in (issue 29, item 9).
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    const text = body as string;
    if (text.trim() === "") return done(null, undefined);
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
      return done(new InputError(`body: JSON nests deeper than ${MAX_JSON_DEPTH} levels`), undefined);
    }
    parse(req, text, (err, value) => {
      if (err) return done(err, undefined);
      const nul = findNul(value);
      if (nul) return done(new InputError(`${nul}: must not contain the NUL character (\\u0000)`), undefined);
      done(null, value);
    });
  });

  app.addHook("preParsing", async (req) => {
    if (!/%00/.test(req.url) && !req.url.includes("\u0000")) return;
    const q = req.url.indexOf("?");
    const path = q === -1 ? req.url : req.url.slice(0, q);
    if (/%00/.test(path) || path.includes("\u0000")) {
      throw new InputError("path: must not contain the NUL character (%00)");
    }
    for (const [name, value] of new URLSearchParams(req.url.slice(q + 1))) {
      if (name.includes("\u0000") || value.includes("\u0000")) {
        throw new InputError(`querystring.${name.split("\u0000").join("")}: must not contain the NUL character (%00)`);
      }
    }
  });
}
