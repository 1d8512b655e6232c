import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderCoreYaml, type PeerConfigOptions } from "./core-yaml.js";
import { renderOrdererYaml, type OrdererConfigOptions } from "./orderer-yaml.js";

/** A small config file on the local disk, written synchronously (see writeLocalMsp), as *.tmp then renamed. */
function writeAtomic(path: string, content: string): void {
  writeFileSync(`${path}.tmp`, content, { mode: 0o644 });
  renameSync(`${path}.tmp`, path);
}

/** Writes `<configDir>/core.yaml` (the peer finds it through FABRIC_CFG_PATH=configDir). */
export async function writeCoreYaml(configDir: string, opts: PeerConfigOptions): Promise<string> {
  const content = renderCoreYaml(opts);
  mkdirSync(configDir, { recursive: true });
  const path = join(configDir, "core.yaml");
  writeAtomic(path, content);
  return path;
}

/** Writes `<configDir>/orderer.yaml` (found through FABRIC_CFG_PATH=configDir). */
export async function writeOrdererYaml(configDir: string, opts: OrdererConfigOptions): Promise<string> {
  const content = renderOrdererYaml(opts);
  mkdirSync(configDir, { recursive: true });
  const path = join(configDir, "orderer.yaml");
  writeAtomic(path, content);
  return path;
}

/**
 * Fabric's default log format starts with %{color}, which puts ANSI escapes into log files. This one
 * has the same fields without colour, so the console can show and search the logs as text.
 */
export const FABRIC_PLAIN_LOG_FORMAT =
  "%{time:2006-01-02 15:04:05.000 MST} %{level:.4s} [%{module}] %{shortfunc} -> %{message}";

/**
 * The environment a Fabric node process gets: the config dir, a log spec and format, and
 * PATH/HOME so the peer can run the external builder scripts. Everything else is in the YAML file.
 */
export function fabricNodeEnv(opts: {
  configDir: string;
  logSpec?: string;
  logFormat?: string;
  extra?: Record<string, string>;
  base?: NodeJS.ProcessEnv;
}): Record<string, string> {
  const base = opts.base ?? process.env;
  return {
    PATH: base.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    ...(base.HOME ? { HOME: base.HOME } : {}),
    ...(base.TMPDIR ? { TMPDIR: base.TMPDIR } : {}),
    FABRIC_CFG_PATH: opts.configDir,
    FABRIC_LOGGING_SPEC: opts.logSpec ?? "info",
    FABRIC_LOGGING_FORMAT: opts.logFormat ?? FABRIC_PLAIN_LOG_FORMAT,
    ...opts.extra,
  };
}
