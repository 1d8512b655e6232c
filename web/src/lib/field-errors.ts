import { isApiError } from "@/api/errors";

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}

/** Drops the validation context ("body.", "query.") so paths match request field names. */
function normalize(field: string): string {
  return field.replace(/^(body|query|params)\./, "");
}

/**
 * Field messages from a failed request. The server names the field three ways (CONVENTIONS §7):
 * schema errors list `details: [{field: "body.x", message}]`, service errors carry `details.field`,
 * and every message starts with "field: ". Returns request-field path → message.
 */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  // 400 (bad input) and 409 (taken: "mspId: … already exists") both name the field.
  if (!isApiError(error) || (error.status !== 400 && error.status !== 409)) return {};
  const out: Record<string, string> = {};
  const body = isRecord(error.body) ? error.body : {};
  const details = body.details;
  if (Array.isArray(details)) {
    for (const d of details) {
      if (isRecord(d) && typeof d.field === "string" && typeof d.message === "string") {
        const f = normalize(d.field);
        out[f] ??= d.message;
      }
    }
    if (Object.keys(out).length > 0) return out;
  }
  const m = /^([A-Za-z][\w.[\]-]*): (.+)$/s.exec(error.message);
  if (m) out[normalize(m[1]!)] = m[2]!;
  else if (isRecord(details) && typeof details.field === "string") out[normalize(details.field)] = error.message;
  return out;
}

/**
 * Maps server field errors onto form fields. `fields` maps a form field to the request path it
 * sends (exact, or a prefix such as "config.alloc" for any alloc entry). Returns what matched.
 */
export function formErrorsFrom<F extends string>(
  error: unknown,
  fields: Record<F, string | readonly string[]>,
): Partial<Record<F, string>> {
  const server = fieldErrorsOf(error);
  const out: Partial<Record<F, string>> = {};
  for (const [path, message] of Object.entries(server)) {
    for (const [formField, targets] of Object.entries(fields) as [F, string | readonly string[]][]) {
      const list = typeof targets === "string" ? [targets] : targets;
      if (list.some((t) => path === t || path.startsWith(`${t}.`) || path.startsWith(`${t}[`))) {
        out[formField] ??= message;
        break;
      }
    }
  }
  return out;
}
