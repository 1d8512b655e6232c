/**
 * The subset of Go's text/template that plugin YAMLs use (upstream renders them with Go): field
 * chains (`.parameters.key.MspID`, `$`, `$v.Name`), `{{-`/`-}}` trimming, `if`/`else if`/`else`,
 * `range` (with `$v :=` or `$i, $v :=`), `with`, comments, pipelines (`x | quote`), and a few
 * functions (eq ne not and or len index print join quote default toJson). Missing fields render as
 * an empty string; {@link templateFields} lists the references so that a plugin can be checked
 * against its own parameters before anything is rendered.
 */

export class TemplateError extends Error {
  constructor(
    message: string,
    public readonly line: number,
    public readonly column: number,
  ) {
    super(`line ${line}, column ${column}: ${message}`);
    this.name = "TemplateError";
  }
}

type Expr =
  | { kind: "field"; base: "." | "$" | string; path: string[] }
  | { kind: "literal"; value: unknown }
  | { kind: "call"; fn: string; args: Expr[] }
  | { kind: "chain"; target: Expr; path: string[] }
  | { kind: "pipe"; stages: Expr[] };

type Node =
  | { kind: "text"; text: string }
  | { kind: "out"; expr: Expr; at: number }
  | { kind: "if"; branches: { cond: Expr; body: Node[] }[]; otherwise: Node[] }
  | { kind: "range"; expr: Expr; keyVar?: string; valueVar?: string; body: Node[]; otherwise: Node[]; at: number }
  | { kind: "with"; expr: Expr; body: Node[]; otherwise: Node[] };

interface Action {
  text: string;
  at: number;
}

const FUNCS: Record<string, (...args: unknown[]) => unknown> = {
  eq: (a, ...rest) => rest.some((b) => loose(a) === loose(b)),
  ne: (a, b) => loose(a) !== loose(b),
  not: (a) => !truthy(a),
  and: (...xs) => xs.find((x) => !truthy(x)) ?? xs[xs.length - 1],
  or: (...xs) => xs.find((x) => truthy(x)) ?? xs[xs.length - 1],
  len: (x) => (Array.isArray(x) || typeof x === "string" ? x.length : isObject(x) ? Object.keys(x).length : 0),
  index: (x, ...keys) => keys.reduce<unknown>((v, k) => (v == null ? undefined : (v as never)[k as never]), x),
  print: (...xs) => xs.map(show).join(""),
  join: (sep, list) => (Array.isArray(list) ? list.map(show).join(show(sep)) : show(list)),
  quote: (x) => JSON.stringify(show(x)),
  default: (fallback, x) => (truthy(x) ? x : fallback),
  toJson: (x) => JSON.stringify(x ?? null),
};

const loose = (v: unknown): unknown => (typeof v === "number" ? String(v) : v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (isObject(v)) return Object.keys(v).length > 0;
  return Boolean(v);
}

/** How a value prints: strings as they are, structures as JSON, nothing as "". */
function show(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
  return JSON.stringify(v);
}

function position(src: string, at: number): { line: number; column: number } {
  const before = src.slice(0, at).split("\n");
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/** Splits the source into text and actions, applying the trim markers. */
function lex(src: string): (string | Action)[] {
  const out: (string | Action)[] = [];
  let i = 0;
  while (i < src.length) {
    const open = src.indexOf("{{", i);
    if (open < 0) {
      out.push(src.slice(i));
      break;
    }
    let text = src.slice(i, open);
    let start = open + 2;
    if (src[start] === "-" && /\s/.test(src[start + 1] ?? "")) {
      text = text.replace(/\s+$/, "");
      start++;
    }
    if (text) out.push(text);
    const close = src.indexOf("}}", start);
    if (close < 0) {
      const p = position(src, open);
      throw new TemplateError("unclosed action: '{{' without '}}'", p.line, p.column);
    }
    let end = close;
    let trimAfter = false;
    if (src[close - 1] === "-" && /\s/.test(src[close - 2] ?? "")) {
      end = close - 1;
      trimAfter = true;
    }
    out.push({ text: src.slice(start, end).trim(), at: open });
    i = close + 2;
    if (trimAfter) while (i < src.length && /\s/.test(src[i]!)) i++;
  }
  return out;
}

/** Tokens of one action: strings, numbers, field chains, variables, words, `|`, `(`, `)`, `:=`, `,`. */
function tokens(text: string): string[] {
  const re = /\s*("(?:[^"\\]|\\.)*"|`[^`]*`|:=|[|(),]|[^\s|(),]+)/gy;
  const out: string[] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) out.push(m[1]!);
  return out;
}

function parseExpr(toks: string[], fail: (msg: string) => never): Expr {
  const stages: Expr[] = [];
  let cur: string[] = [];
  let depth = 0;
  for (const t of toks) {
    if (t === "(") depth++;
    if (t === ")") depth--;
    if (t === "|" && depth === 0) {
      stages.push(parseCall(cur, fail));
      cur = [];
    } else cur.push(t);
  }
  stages.push(parseCall(cur, fail));
  if (stages.length === 1) return stages[0]!;
  return { kind: "pipe", stages };
}

function parseCall(toks: string[], fail: (msg: string) => never): Expr {
  if (toks.length === 0) fail("missing value in pipeline");
  const args: Expr[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (t === "(") {
      let depth = 1;
      let j = i + 1;
      for (; j < toks.length && depth > 0; j++) {
        if (toks[j] === "(") depth++;
        if (toks[j] === ")") depth--;
      }
      if (depth !== 0) fail("unbalanced parentheses");
      let group = parseExpr(toks.slice(i + 1, j - 1), fail);
      const next = toks[j];
      if (next && /^(\.\w+)+$/.test(next)) {
        group = { kind: "chain", target: group, path: next.slice(1).split(".") };
        j++;
      }
      args.push(group);
      i = j - 1;
    } else args.push(parseTerm(t, fail));
  }
  const head = toks[0]!;
  if (/^[A-Za-z_]\w*$/.test(head) && !["true", "false", "nil"].includes(head)) {
    if (!(head in FUNCS)) fail(`function "${head}" not defined`);
    return { kind: "call", fn: head, args: args.slice(1) };
  }
  if (args.length > 1) fail(`can't give arguments to a non-function ("${head}")`);
  return args[0]!;
}

function parseTerm(t: string, fail: (msg: string) => never): Expr {
  if (t.startsWith('"')) return { kind: "literal", value: JSON.parse(t) as string };
  if (t.startsWith("`")) return { kind: "literal", value: t.slice(1, -1) };
  if (/^-?\d+(\.\d+)?$/.test(t)) return { kind: "literal", value: Number(t) };
  if (t === "true" || t === "false") return { kind: "literal", value: t === "true" };
  if (t === "nil") return { kind: "literal", value: null };
  if (t === ".") return { kind: "field", base: ".", path: [] };
  const m = /^(\$\w*)?((?:\.\w+)*)$/.exec(t);
  if (m && (m[1] || m[2])) {
    const path = m[2] ? m[2].slice(1).split(".") : [];
    return { kind: "field", base: m[1] ?? ".", path };
  }
  if (/^[A-Za-z_]\w*$/.test(t)) return { kind: "call", fn: t, args: [] };
  return fail(`unexpected "${t}" in action`);
}

/** Parses a template; errors carry the line and column within `src`. */
export function parseTemplate(src: string): Node[] {
  const items = lex(src);
  let pos = 0;
  const failAt =
    (at: number) =>
    (msg: string): never => {
      const p = position(src, at);
      throw new TemplateError(msg, p.line, p.column);
    };

  /** Parses nodes until one of `stops` (an action keyword); returns the nodes and the stop action. */
  function block(stops: string[]): { nodes: Node[]; stop?: Action & { word: string } } {
    const nodes: Node[] = [];
    while (pos < items.length) {
      const item = items[pos++]!;
      if (typeof item === "string") {
        nodes.push({ kind: "text", text: item });
        continue;
      }
      if (item.text.startsWith("/*")) {
        if (!item.text.endsWith("*/")) failAt(item.at)("unclosed comment");
        continue;
      }
      const fail = failAt(item.at);
      const toks = tokens(item.text);
      const word = toks[0] ?? "";
      if (stops.includes(word)) return { nodes, stop: { ...item, word } };
      if (word === "end" || word === "else") fail(`unexpected {{${word}}}`);
      if (word === "if") nodes.push(parseIf(toks.slice(1), item));
      else if (word === "range") nodes.push(parseRange(toks.slice(1), item));
      else if (word === "with") {
        const expr = parseExpr(toks.slice(1), fail);
        const body = block(["else", "end"]);
        let otherwise: Node[] = [];
        if (body.stop?.word === "else") otherwise = close(block(["end"]), item);
        else close(body, item);
        nodes.push({ kind: "with", expr, body: body.nodes, otherwise });
      } else if (["define", "template", "block", "break", "continue"].includes(word)) {
        fail(`{{${word}}} is not supported in plugin templates`);
      } else nodes.push({ kind: "out", expr: parseExpr(toks, fail), at: item.at });
    }
    return { nodes };
  }
  function close(r: { nodes: Node[]; stop?: { word: string } }, opener: Action): Node[] {
    if (r.stop?.word !== "end") failAt(opener.at)(`{{${tokens(opener.text)[0]}}} has no matching {{end}}`);
    return r.nodes;
  }
  function parseIf(condToks: string[], opener: Action): Node {
    const branches: { cond: Expr; body: Node[] }[] = [];
    let cond = parseExpr(condToks, failAt(opener.at));
    for (;;) {
      const r = block(["else", "end"]);
      branches.push({ cond, body: r.nodes });
      const stop = r.stop;
      if (!stop) return failAt(opener.at)("{{if}} has no matching {{end}}");
      if (stop.word === "end") return { kind: "if", branches, otherwise: [] };
      const rest = tokens(stop.text).slice(1);
      if (rest[0] === "if") {
        cond = parseExpr(rest.slice(1), failAt(stop.at));
        continue;
      }
      return { kind: "if", branches, otherwise: close(block(["end"]), opener) };
    }
  }
  function parseRange(toks: string[], opener: Action): Node {
    const fail = failAt(opener.at);
    let keyVar: string | undefined;
    let valueVar: string | undefined;
    const assign = toks.indexOf(":=");
    let exprToks = toks;
    if (assign >= 0) {
      const vars = toks.slice(0, assign).filter((t) => t !== ",");
      if (vars.length === 0 || vars.length > 2 || !vars.every((v) => /^\$\w+$/.test(v))) fail("bad range variables");
      if (vars.length === 2) [keyVar, valueVar] = vars;
      else valueVar = vars[0];
      exprToks = toks.slice(assign + 1);
    }
    const expr = parseExpr(exprToks, fail);
    const body = block(["else", "end"]);
    let otherwise: Node[] = [];
    if (body.stop?.word === "else") otherwise = close(block(["end"]), opener);
    else close(body, opener);
    return { kind: "range", expr, keyVar, valueVar, body: body.nodes, otherwise, at: opener.at };
  }

  const top = block([]);
  return top.nodes;
}

interface Scope {
  dot: unknown;
  root: unknown;
  vars: Record<string, unknown>;
}

function evaluate(e: Expr, s: Scope, piped?: unknown): unknown {
  switch (e.kind) {
    case "literal":
      return e.value;
    case "field": {
      let v: unknown = e.base === "." ? s.dot : e.base === "$" ? s.root : s.vars[e.base];
      for (const k of e.path) v = isObject(v) ? v[k] : undefined;
      return v;
    }
    case "chain": {
      let v = evaluate(e.target, s);
      for (const k of e.path) v = isObject(v) ? v[k] : undefined;
      return v;
    }
    case "call": {
      const args = e.args.map((a) => evaluate(a, s));
      if (piped !== undefined) args.push(piped);
      return FUNCS[e.fn]!(...args);
    }
    case "pipe":
      return e.stages.reduce<unknown>(
        (acc, stage, i) => (i === 0 ? evaluate(stage, s) : evaluate(stage, s, acc === undefined ? null : acc)),
        undefined,
      );
  }
}

function exec(nodes: Node[], s: Scope, out: string[]): void {
  for (const n of nodes) {
    switch (n.kind) {
      case "text":
        out.push(n.text);
        break;
      case "out":
        out.push(show(evaluate(n.expr, s)));
        break;
      case "if": {
        const hit = n.branches.find((b) => truthy(evaluate(b.cond, s)));
        exec(hit ? hit.body : n.otherwise, s, out);
        break;
      }
      case "with": {
        const v = evaluate(n.expr, s);
        if (truthy(v)) exec(n.body, { ...s, dot: v }, out);
        else exec(n.otherwise, s, out);
        break;
      }
      case "range": {
        const v = evaluate(n.expr, s);
        const entries: [unknown, unknown][] = Array.isArray(v)
          ? v.map((x, i) => [i, x])
          : isObject(v)
            ? Object.keys(v)
                .sort()
                .map((k) => [k, v[k]])
            : typeof v === "number"
              ? Array.from({ length: v }, (_, i) => [i, i])
              : [];
        if (entries.length === 0) exec(n.otherwise, s, out);
        for (const [k, x] of entries) {
          const vars = { ...s.vars };
          if (n.keyVar) vars[n.keyVar] = k;
          if (n.valueVar) vars[n.valueVar] = x;
          exec(n.body, { ...s, dot: x, vars }, out);
        }
        break;
      }
    }
  }
}

/** Renders a template against `data` (the root `.` and `$`). */
export function renderTemplate(src: string, data: unknown): string {
  if (!src.includes("{{")) return src;
  const out: string[] = [];
  exec(parseTemplate(src), { dot: data, root: data, vars: {} }, out);
  return out.join("");
}

/**
 * The absolute field chains a template reads from its root (`.parameters.port`, `$.runtime.node`),
 * outside `range`/`with` bodies where `.` has moved; for checking references before rendering.
 */
export function templateFields(src: string): string[][] {
  if (!src.includes("{{")) return [];
  const found: string[][] = [];
  const visitExpr = (e: Expr, dotIsRoot: boolean): void => {
    if (e.kind === "field" && (e.base === "$" || (e.base === "." && dotIsRoot)) && e.path.length) found.push(e.path);
    if (e.kind === "call") e.args.forEach((a) => visitExpr(a, dotIsRoot));
    if (e.kind === "chain") visitExpr(e.target, dotIsRoot);
    if (e.kind === "pipe") e.stages.forEach((a) => visitExpr(a, dotIsRoot));
  };
  const visit = (nodes: Node[], dotIsRoot: boolean): void => {
    for (const n of nodes) {
      if (n.kind === "out") visitExpr(n.expr, dotIsRoot);
      if (n.kind === "if") {
        n.branches.forEach((b) => {
          visitExpr(b.cond, dotIsRoot);
          visit(b.body, dotIsRoot);
        });
        visit(n.otherwise, dotIsRoot);
      }
      if (n.kind === "range" || n.kind === "with") {
        visitExpr(n.expr, dotIsRoot);
        visit(n.body, false);
        visit(n.otherwise, dotIsRoot);
      }
    }
  };
  visit(parseTemplate(src), true);
  return found;
}
