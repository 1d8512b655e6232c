import { readdir, readFile, stat } from "node:fs/promises";
import { extname, join } from "node:path";

/**
 * A plain JavaScript contract (no decorators, no `META-INF/metadata.json`) gets its metadata from
 * fabric-shim, which knows only how many arguments a method takes and calls them `arg0`, `arg1`…
 * (described "Argument N"). The names are in the source the console stored for the definition, so
 * they are read from there; nothing else in the metadata changes, and a method whose source can't
 * be matched with certainty (not found, found twice with different arity, arity differing from the
 * metadata's) keeps the shim's names.
 */
export async function nameShimParameters(metadata: unknown, sourceDir: string | null): Promise<unknown> {
  if (!sourceDir || !hasShimNames(metadata)) return metadata;
  const methods = await methodParameters(sourceDir);
  if (methods.size === 0) return metadata;
  const copy = structuredClone(metadata) as Meta;
  for (const contract of Object.values(copy.contracts ?? {})) {
    for (const tx of contract?.transactions ?? []) {
      const params = tx?.parameters;
      if (!Array.isArray(params) || !params.every(isShimParam)) continue;
      const names = methods.get(tx.name ?? "");
      // The source's first parameter is the transaction context, which the metadata leaves out.
      if (!names || names.length !== params.length + 1) continue;
      params.forEach((p, i) => {
        p.name = names[i + 1]!;
        p.description = `Argument ${i} (${names[i + 1]})`;
      });
    }
  }
  return copy;
}

interface Meta {
  contracts?: Record<string, { transactions?: { name?: string; parameters?: ShimParam[] }[] } | undefined>;
}
interface ShimParam {
  name: string;
  description?: string;
}

function isShimParam(p: unknown): p is ShimParam {
  if (typeof p !== "object" || p === null) return false;
  const { name, description } = p as ShimParam;
  return typeof name === "string" && /^arg\d+$/.test(name) && description === `Argument ${name.slice(3)}`;
}

function hasShimNames(metadata: unknown): boolean {
  const contracts = (metadata as Meta | null)?.contracts;
  if (typeof contracts !== "object" || contracts === null) return false;
  return Object.values(contracts).some((c) =>
    (c?.transactions ?? []).some((t) => Array.isArray(t?.parameters) && t.parameters.some(isShimParam)),
  );
}

const SOURCE_EXT = new Set([".js", ".cjs", ".mjs"]);
const MAX_FILES = 200;
const MAX_BYTES = 512 * 1024;

/**
 * Parameter names of the methods declared in the JavaScript files under `dir` (node_modules and
 * tests left out): `name(a, b)`, `async name(a, b)`, and `name = async (a, b) =>` class fields.
 * A name declared twice with different parameters is dropped as ambiguous.
 */
export async function methodParameters(dir: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const ambiguous = new Set<string>();
  for (const file of await sourceFiles(dir)) {
    const text = stripComments(await readFile(file, "utf8"));
    const decl = /(?:^|[\s;{}])(?:async\s+)?([A-Za-z_$][\w$]*)\s*(?:=\s*(?:async\s*)?)?\(([^()]*)\)\s*(?:=>\s*)?\{/g;
    for (const m of text.matchAll(decl)) {
      const name = m[1]!;
      if (KEYWORDS.has(name)) continue;
      const params = m[2]!
        .split(",")
        .map((p) => p.trim().replace(/\s*=.*$/s, ""))
        .filter((p) => p !== "");
      if (!params.every((p) => /^(?:\.\.\.)?[A-Za-z_$][\w$]*$/.test(p))) continue;
      const seen = out.get(name);
      if (seen && seen.join(",") !== params.join(",")) ambiguous.add(name);
      out.set(name, params);
    }
  }
  for (const name of ambiguous) out.delete(name);
  return out;
}

const KEYWORDS = new Set(["if", "for", "while", "switch", "catch", "function", "return", "constructor", "with"]);

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/(^|[^:\\])\/\/.*$/gm, "$1");
}

async function sourceFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (d: string, depth: number): Promise<void> => {
    if (depth > 6 || files.length >= MAX_FILES) return;
    const entries = await readdir(d, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (files.length >= MAX_FILES) return;
      if (e.name.startsWith(".") || e.name === "node_modules" || e.name === "test" || e.name === "dist") continue;
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p, depth + 1);
      else if (e.isFile() && SOURCE_EXT.has(extname(e.name)) && !/\.test\.[cm]?js$/.test(e.name)) {
        const s = await stat(p).catch(() => undefined);
        if (s && s.size <= MAX_BYTES) files.push(p);
      }
    }
  };
  await walk(dir, 0);
  return files;
}
