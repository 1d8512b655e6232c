import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { errorMessage } from "../../http/errors.js";
import { findShippedDir } from "../../runtime/shipped.js";
import { describeProblem, parsePluginYaml, PLUGIN_NAME_RE, PluginFormatError } from "./plugin-format.js";

/** One plugin offered for installation (upstream's registry.PluginMetadata). */
export interface AvailablePlugin {
  name: string;
  version: string;
  description: string;
  author: string;
  license: string;
  tags: string[];
  /** `builtin`, or the registry index URL it came from. */
  source: string;
  /** SHA-256 of raw_yaml. */
  hash: string;
  raw_yaml: string;
}

export interface Catalogue {
  plugins: AvailablePlugin[];
  last_updated: string;
  /** Registries (or entries) that could not be read, so the screen can say so. */
  errors: { source: string; message: string }[];
}

const MAX_YAML = 256 * 1024;
const TIMEOUT_MS = 5000;
const CACHE_MS = 10 * 60_000;

/** `server/plugins-catalogue`, found from this module whether it runs from src/, dist/ or the bundle. */
export function catalogueDir(): string {
  const found = findShippedDir(
    [dirname(fileURLToPath(import.meta.url))],
    "plugins-catalogue",
    "fabric-rest-gateway.yaml",
  );
  if (found) return found;
  throw new Error("the plugin catalogue (server/plugins-catalogue) is missing from this installation");
}

function entry(rawYaml: string, source: string): AvailablePlugin {
  const doc = parsePluginYaml(rawYaml);
  const m = doc.metadata;
  return {
    name: m.name,
    version: m.version ?? "",
    description: m.description ?? "",
    author: m.author ?? "",
    license: m.license ?? "",
    tags: m.tags ?? [],
    source,
    hash: createHash("sha256").update(rawYaml).digest("hex"),
    raw_yaml: rawYaml,
  };
}

async function fetchText(url: string): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "follow" });
  if (!res.ok) throw new Error(`HTTP ${res.status} from ${url}`);
  const text = await res.text();
  if (text.length > MAX_YAML * 8) throw new Error(`${url} is larger than ${MAX_YAML * 8} bytes`);
  return text;
}

/** A failed fetch in words of our own: the timeout, the socket error code, or fetchText's message. */
function fetchFailure(err: unknown): string {
  const e = err as Error & { cause?: { code?: unknown } };
  if (e?.name === "TimeoutError") return `no answer within ${TIMEOUT_MS} ms`;
  if (typeof e?.cause?.code === "string") return `the connection failed (${e.cause.code})`;
  return errorMessage(err);
}

/**
 * The plugins one can install: the catalogue shipped with the product, plus each registry set in
 * settings (an HTTP index `{plugins: [{url | raw_yaml}]}`; urls may be relative to the index).
 * Registries are read at most every 10 minutes unless refreshed; one that fails is reported in
 * `errors`, never fails the list.
 */
export function createCatalogue(deps: { registries(): Promise<string[]>; dir?: () => string }) {
  let cache: { at: number; key: string; value: Catalogue } | undefined;

  async function builtin(): Promise<AvailablePlugin[]> {
    const dir = (deps.dir ?? catalogueDir)();
    const files = (await readdir(dir)).filter((f) => f.endsWith(".yaml")).sort();
    return Promise.all(files.map(async (f) => entry(await readFile(join(dir, f), "utf8"), "builtin")));
  }

  /**
   * One registry's plugins. Its errors name the status or the failure, never what the server sent
   * (a registry URL may point anywhere the console reaches, loopback services included): a body that
   * is not JSON is "not JSON", not the parser's quote of its first bytes.
   */
  async function registry(url: string, errors: Catalogue["errors"]): Promise<AvailablePlugin[]> {
    let text: string;
    try {
      text = await fetchText(url);
    } catch (err) {
      errors.push({ source: url, message: `the index could not be read: ${fetchFailure(err)}` });
      return [];
    }
    let index: unknown;
    try {
      index = JSON.parse(text);
    } catch {
      errors.push({ source: url, message: "the index could not be read: the answer is not JSON" });
      return [];
    }
    const list = (index as { plugins?: unknown }).plugins;
    if (!Array.isArray(list)) {
      errors.push({ source: url, message: "the index has no 'plugins' array" });
      return [];
    }
    const out: AvailablePlugin[] = [];
    for (const [i, item] of list.slice(0, 200).entries()) {
      const it = (item ?? {}) as { url?: unknown; raw_yaml?: unknown; name?: unknown };
      const label = typeof it.name === "string" && PLUGIN_NAME_RE.test(it.name) ? it.name : `plugins[${i}]`;
      try {
        const raw =
          typeof it.raw_yaml === "string"
            ? it.raw_yaml
            : typeof it.url === "string"
              ? await fetchText(new URL(it.url, url).toString())
              : undefined;
        if (raw === undefined) throw new Error("has neither url nor raw_yaml");
        if (raw.length > MAX_YAML) throw new Error(`is larger than ${MAX_YAML} bytes`);
        out.push(entry(raw, url));
      } catch (err) {
        // Format problems name a field, a rule and a line, not the document's text.
        const message =
          err instanceof PluginFormatError ? err.problems.map(describeProblem).join("; ") : fetchFailure(err);
        errors.push({ source: url, message: `${label}: ${message}` });
      }
    }
    return out;
  }

  return {
    /**
     * The built-in catalogue only (shipped with the product, never a registry's): the plugins a
     * manager may install as published, since their processes were reviewed with the product.
     */
    published: (): Promise<AvailablePlugin[]> => builtin(),
    async list(opts: { refresh?: boolean } = {}): Promise<Catalogue> {
      const urls = await deps.registries();
      const key = urls.join("\n");
      if (!opts.refresh && cache && cache.key === key && Date.now() - cache.at < CACHE_MS) return cache.value;
      const errors: Catalogue["errors"] = [];
      const plugins = await builtin();
      for (const url of urls) plugins.push(...(await registry(url, errors)));
      const value = { plugins, last_updated: new Date().toISOString(), errors };
      cache = { at: Date.now(), key, value };
      return value;
    },
  };
}

export type PluginCatalogue = ReturnType<typeof createCatalogue>;
