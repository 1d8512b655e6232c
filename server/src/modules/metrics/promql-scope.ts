import type { SyntaxNode, Tree } from "@lezer/common";
import type * as LezerPromql from "@prometheus-io/lezer-promql";

type PromqlModule = typeof LezerPromql;
let grammar: Promise<PromqlModule["parser"]> | undefined;
/** The grammar loads with the first query, not at start-up (it is only needed here). */
const parse = async (text: string): Promise<Tree> =>
  (
    await (grammar ??= import("@prometheus-io/lezer-promql").then(
      (m) => ("parser" in m ? m : (m as unknown as { default: PromqlModule }).default).parser,
    ))
  ).parse(text);

/** Why a query could not be scoped: the text did not parse, or used syntax we refuse to rewrite. */
export class PromqlScopeError extends Error {
  constructor(
    message: string,
    /** True when the text does not parse at all (Prometheus is then asked for its own message). */
    public readonly syntax: boolean,
  ) {
    super(message);
  }
}

/** A PromQL string literal: double quotes with `\` and `"` escaped (label values are arbitrary text). */
export function promString(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

/** The name a label matcher tests (`job` in `job=~"x"`), or undefined for shapes we do not know. */
function matcherLabel(matcher: SyntaxNode, text: string): string | undefined {
  const name = matcher.getChild("LabelName");
  return name ? text.slice(name.from, name.to) : undefined;
}

/**
 * Rewrites every series selector of a PromQL expression so it can only select series with
 * `label="value"`: any matcher on that label the caller wrote is dropped and ours added. This is how a
 * node's queries stay on the node's own series (its scrape job): `up{job="other"}`,
 * `{__name__=~".+"}` or `up or on() vector(1)` cannot reach another job's data, because selectors are
 * the only way PromQL reads stored series. The parse is Prometheus's own grammar (the one its UI
 * uses); text that does not parse is refused rather than passed on unscoped.
 */
export async function scopeQuery(query: string, label: string, value: string): Promise<string> {
  return scopeWith(query, label, `${label}=${promString(value)}`);
}

/** RE2 (Prometheus's regex engine) with every metacharacter of `value` escaped. */
export function regexEscape(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Like `scopeQuery`, for a set of values: every selector gets `label=~"v1|v2"` with each value
 * regex-escaped (Prometheus anchors regex matchers at both ends, so `a|b` matches exactly a or b).
 * The set must not be empty: `label=~""` would select the series without that label.
 */
export async function scopeQueryToSet(query: string, label: string, values: string[]): Promise<string> {
  if (values.length === 0) throw new Error("scopeQueryToSet needs at least one value");
  return scopeWith(query, label, `${label}=~${promString(values.map(regexEscape).join("|"))}`);
}

/** Rewrites every selector: matchers on `label` are dropped and `ours` (a matcher's text) added. */
function scopeWith(query: string, label: string, ours: string): Promise<string> {
  return rewriteSelectors(query, label, [ours]);
}

/**
 * Adds matchers (their text, already escaped) to every series selector of a PromQL expression,
 * keeping the ones the caller wrote: the filters of the `filtered` routes narrow every selector
 * the same way. The result is scoped afterwards like any query, so a filter can only narrow.
 */
export function addMatchers(query: string, matchers: string[]): Promise<string> {
  return rewriteSelectors(query, undefined, matchers);
}

/** Every selector rewritten: matchers on `drop` (if any) removed, `add` appended. Unparseable text is refused. */
async function rewriteSelectors(query: string, drop: string | undefined, add: string[]): Promise<string> {
  const tree = await parse(query);
  const selectors: SyntaxNode[] = [];
  let error: { from: number } | undefined;
  tree.iterate({
    enter(node) {
      if (node.type.isError) {
        error ??= { from: node.from };
        return false;
      }
      // UTF-8 quoted names (Prometheus 3 syntax) would need their own rewriting; refuse them.
      if (node.name === "QuotedLabelMatcher" || node.name === "QuotedLabelName") {
        throw new PromqlScopeError("quoted label or metric names are not supported in scoped queries", false);
      }
      // Children are still walked: errors and quoted names inside a selector must be seen.
      if (node.name === "VectorSelector") selectors.push(node.node);
      return undefined;
    },
  });
  if (error) throw new PromqlScopeError(`PromQL does not parse near position ${error.from + 1}`, true);
  if (query.trim() === "") throw new PromqlScopeError("the query is empty", true);

  let out = query;
  // Replace from the end so earlier offsets stay valid; selectors never nest.
  for (const sel of selectors.sort((a, b) => b.from - a.from)) {
    const metric = sel.getChild("Identifier");
    const matchers = sel.getChild("LabelMatchers");
    const kept: string[] = [];
    if (matchers) {
      for (let m = matchers.firstChild; m; m = m.nextSibling) {
        if (m.name !== "UnquotedLabelMatcher") continue;
        if (drop !== undefined && matcherLabel(m, query) === drop) continue;
        kept.push(query.slice(m.from, m.to));
      }
    }
    const name = metric ? query.slice(metric.from, metric.to) : "";
    const rewritten = `${name}{${[...kept, ...add].join(",")}}`;
    out = out.slice(0, sel.from) + rewritten + out.slice(sel.to);
  }
  return out;
}

/**
 * A series selector (as in `match[]=` of the label values API) scoped the same way, to one value or
 * a set. Anything but a bare selector is refused.
 */
export async function scopeSelector(selector: string, label: string, value: string | string[]): Promise<string> {
  const tree = await parse(selector);
  const top = tree.topNode.firstChild;
  if (!top || top.name !== "VectorSelector" || top.nextSibling) {
    throw new PromqlScopeError(`"${selector}" is not a series selector such as up{instance="x"}`, false);
  }
  return typeof value === "string" ? scopeQuery(selector, label, value) : scopeQueryToSet(selector, label, value);
}
