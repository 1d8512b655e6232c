import type { RE2JS } from "re2js";
import { InputError } from "../../http/errors.js";
import type { TemplateVariable } from "./templates.schema.js";

/** `{{name}}` or Go-template style `{{ .name }}`. A fixed pattern of ours, linear on any input. */
export const PLACEHOLDER = /\{\{\s*\.?([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const WHOLE = /^\{\{\s*\.?([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

/** Largest RE2 program a variable's pattern may compile to (the node logs filter's bound). */
const MAX_PATTERN_PROGRAM = 2000;

/** RE2 for JavaScript, loaded by the first pattern (like the node logs filter, decision 60). */
const re2 = () => import("re2js");

/**
 * Compiles a variable's validation pattern with RE2 (linear time: no pattern can stall the event
 * loop, unlike `RegExp`), as Go's regexp would read it.
 * @throws InputError naming `field` when it is not RE2 or too large
 */
export async function compilePattern(pattern: string, field: string): Promise<RE2JS> {
  const { RE2JS, RE2JSException } = await re2();
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (err) {
    if (err instanceof RE2JSException) throw new InputError(`${field}: not a valid RE2 expression: ${err.message}`);
    throw err;
  }
  if (re.programSize() > MAX_PATTERN_PROGRAM) {
    throw new InputError(
      `${field}: too complex (${re.programSize()} RE2 instructions, at most ${MAX_PATTERN_PROGRAM}); use fewer or smaller repetitions`,
    );
  }
  return re;
}

/** The variable a string names when it is one placeholder and nothing else. */
export function wholePlaceholder(s: string): string | undefined {
  return WHOLE.exec(s)?.[1];
}

/** Every placeholder in a configuration, with where it is (`config.fabricPeer.mspId`). */
export function placeholdersOf(value: unknown, path = "config"): { name: string; path: string }[] {
  const out: { name: string; path: string }[] = [];
  const walk = (v: unknown, p: string): void => {
    if (typeof v === "string") {
      for (const m of v.matchAll(PLACEHOLDER)) out.push({ name: m[1] as string, path: p });
    } else if (Array.isArray(v)) v.forEach((e, i) => walk(e, `${p}[${i}]`));
    else if (v && typeof v === "object") for (const [k, e] of Object.entries(v)) walk(e, `${p}.${k}`);
  };
  walk(value, path);
  return out;
}

const typeOf = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/**
 * A value read as the variable's type. Forms send text, so a number may come as "7" and a boolean
 * as "true"; anything else of the wrong type is refused.
 * @throws InputError naming `field`
 */
export function coerce(v: TemplateVariable, value: unknown, field: string): unknown {
  switch (v.type) {
    case "number": {
      const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      if (typeof n !== "number" || !Number.isFinite(n)) throw new InputError(`${field}: must be a number`);
      return n;
    }
    case "boolean":
      if (value === "true" || value === "false") return value === "true";
      if (typeof value !== "boolean") throw new InputError(`${field}: must be true or false`);
      return value;
    case "string":
      if (typeof value !== "string") throw new InputError(`${field}: must be text, not ${typeOf(value)}`);
      return value;
    case "array":
      if (!Array.isArray(value)) throw new InputError(`${field}: must be an array, not ${typeOf(value)}`);
      return value;
    case "object":
      if (typeOf(value) !== "object") throw new InputError(`${field}: must be an object, not ${typeOf(value)}`);
      return value;
  }
}

/**
 * Checks a typed value against the variable's validation (enum, min/max, lengths, RE2 pattern).
 * @throws InputError naming `field` and the rule it breaks
 */
export async function checkValidation(v: TemplateVariable, value: unknown, field: string): Promise<void> {
  const rule = v.validation;
  if (!rule) return;
  if (rule.enum && rule.enum.length > 0 && !rule.enum.includes(String(value))) {
    throw new InputError(`${field}: must be one of ${rule.enum.join(", ")}`);
  }
  if (typeof value === "number") {
    if (rule.min !== undefined && value < rule.min) throw new InputError(`${field}: must be at least ${rule.min}`);
    if (rule.max !== undefined && value > rule.max) throw new InputError(`${field}: must be at most ${rule.max}`);
  }
  const length = typeof value === "string" || Array.isArray(value) ? value.length : undefined;
  if (length !== undefined) {
    const unit = typeof value === "string" ? "characters" : "items";
    if (rule.min_length !== undefined && length < rule.min_length)
      throw new InputError(`${field}: must have at least ${rule.min_length} ${unit}`);
    if (rule.max_length !== undefined && length > rule.max_length)
      throw new InputError(`${field}: must have at most ${rule.max_length} ${unit}`);
  }
  if (rule.pattern && typeof value === "string") {
    const re = await compilePattern(rule.pattern, `${field} (its pattern)`);
    if (!re.test(value)) throw new InputError(`${field}: must match ${rule.pattern}`);
  }
}

/**
 * Checks a template's variables when it is stored: unique names, patterns that compile, defaults of
 * the declared type that pass their own validation, and no placeholder naming an unknown variable.
 * @throws InputError naming `variables[i].…` or the config path of the placeholder
 */
export async function checkVariables(vars: readonly TemplateVariable[], config: unknown, at = ""): Promise<void> {
  const seen = new Set<string>();
  for (const [i, v] of vars.entries()) {
    const field = `${at}variables[${i}]`;
    if (seen.has(v.name)) throw new InputError(`${field}.name: '${v.name}' is declared twice`);
    seen.add(v.name);
    const rule = v.validation;
    if (rule?.pattern !== undefined) await compilePattern(rule.pattern, `${field}.validation.pattern`);
    if (rule?.min !== undefined && rule.max !== undefined && rule.min > rule.max)
      throw new InputError(`${field}.validation.min: is above max`);
    if (rule?.min_length !== undefined && rule.max_length !== undefined && rule.min_length > rule.max_length)
      throw new InputError(`${field}.validation.min_length: is above max_length`);
    if (v.default !== undefined && v.default !== null) {
      const value = coerce(v, v.default, `${field}.default`);
      await checkValidation(v, value, `${field}.default`);
    }
  }
  for (const p of placeholdersOf(config, `${at}config`)) {
    if (!seen.has(p.name)) throw new InputError(`${p.path}: {{${p.name}}} names no variable of the template`);
  }
}

/**
 * The values apply uses: each given value coerced and validated, defaults for the rest; a value for
 * a variable the template does not have, or a missing required one, is refused naming it.
 * @throws InputError naming `variables.<name>`
 */
export async function resolveValues(
  vars: readonly TemplateVariable[],
  given: Record<string, unknown>,
): Promise<Map<string, unknown>> {
  const byName = new Map(vars.map((v) => [v.name, v]));
  for (const name of Object.keys(given)) {
    if (!byName.has(name)) {
      const known = vars.map((v) => v.name).join(", ") || "none";
      throw new InputError(`variables.${name}: the template has no variable '${name}' (it has: ${known})`);
    }
  }
  const values = new Map<string, unknown>();
  for (const v of vars) {
    const raw = given[v.name];
    const field = `variables.${v.name}`;
    const provided = raw !== undefined && raw !== null && !(raw === "" && v.type !== "string");
    if (!provided) {
      if (v.default !== undefined && v.default !== null) values.set(v.name, coerce(v, v.default, field));
      else if (v.required) throw new InputError(`${field}: required (${v.description ?? v.type})`);
      continue;
    }
    const value = coerce(v, raw, field);
    await checkValidation(v, value, field);
    values.set(v.name, value);
  }
  return values;
}

/** Where a whole-placeholder value came from, so a later check can name the variable. */
export type Origins = Map<string, string>;

/**
 * Fills the placeholders: a string that is one placeholder becomes the value with its type (a
 * number stays a number); a placeholder inside text becomes its text. A whole placeholder without a
 * value removes its key (or array item), so optional fields stay absent.
 */
export function substitute(config: unknown, values: Map<string, unknown>, origins: Origins, path = ""): unknown {
  const ABSENT = Symbol("absent");
  const walk = (v: unknown, p: string): unknown => {
    if (typeof v === "string") {
      const whole = wholePlaceholder(v);
      if (whole !== undefined) {
        if (!values.has(whole)) return ABSENT;
        origins.set(p, whole);
        return structuredClone(values.get(whole));
      }
      return v.replace(PLACEHOLDER, (_m, name: string) => {
        const value = values.get(name);
        return value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
      });
    }
    if (Array.isArray(v)) return v.map((e, i) => walk(e, `${p}.${i}`)).filter((e) => e !== ABSENT);
    if (v && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, e] of Object.entries(v)) {
        const r = walk(e, p ? `${p}.${k}` : k);
        if (r !== ABSENT) out[k] = r;
      }
      return out;
    }
    return v;
  };
  const r = walk(config, path);
  return r === ABSENT ? undefined : r;
}

/** Deep merge of `over` onto `base`: objects merge key by key, anything else replaces. */
export function mergeConfig(base: unknown, over: unknown): unknown {
  const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
  if (!isObj(base) || !isObj(over)) return structuredClone(over);
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = k in base ? mergeConfig(base[k], v) : structuredClone(v);
  return out;
}
