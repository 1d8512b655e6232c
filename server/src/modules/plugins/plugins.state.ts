import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { EventBus } from "../../events/bus.js";
import { InputError, NotFoundError } from "../../http/errors.js";
import type { PluginCatalogue } from "./catalogue.js";
import { describeProblem, type PluginDoc, type PluginFormatError } from "./plugin-format.js";
import type { PluginRow, PluginsRepo } from "./plugins.repo.js";
import type { Compose, PluginProcesses, RenderedProcess } from "./plugins.runtime.js";
import type { DeploymentStatus, PluginResponse, PluginStatus } from "./plugins.schema.js";
import type { XSourceResolver } from "./x-source.js";

/** What the plugin service is built from (wired in index.ts). */
export interface PluginsDeps {
  repo: PluginsRepo;
  xsource: XSourceResolver;
  processes: PluginProcesses;
  compose: Compose;
  catalogue: PluginCatalogue;
  /** `<data>/plugins`: one folder per plugin. */
  dir: string;
  /** Folder of the built-in programs (fabric-rest-gateway.js). */
  builtinsDir: () => string;
  bus: Pick<EventBus, "publish">;
  log: Pick<FastifyBaseLogger, "warn" | "info">;
}

/** A metrics endpoint of a deployed plugin, rendered: what the managed Prometheus scrapes. */
export interface PluginMetricsTarget {
  job: string;
  service: string;
  target: string;
  path: string;
  interval?: string;
}

/** What a deploy started (`<plugin>/run.json`): adopted again after a console restart. */
export interface RunRecord {
  processes: RenderedProcess[];
  startedAt: string;
  metrics?: PluginMetricsTarget[];
}

export const formatError = (err: PluginFormatError, prefix = ""): InputError =>
  new InputError(`${prefix}${err.problems.map(describeProblem).join("; ")}`, { errors: err.problems });

/**
 * What every verb of the plugin service shares: the plugin's folders, its row, its run record, one
 * operation per plugin at a time, and the response shapes.
 */
export function createPluginState(deps: PluginsDeps) {
  const { repo } = deps;
  const pluginDir = (name: string): string => join(deps.dir, name);
  const secretsDir = (name: string): string => join(pluginDir(name), "secrets");
  const runFile = (name: string): string => join(pluginDir(name), "run.json");
  const composeFile = (name: string): string => join(pluginDir(name), "docker-compose.yml");
  const queues = new Map<string, Promise<unknown>>();

  /** One operation per plugin at a time in this console. */
  function serial<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const next = (queues.get(name) ?? Promise.resolve()).catch(() => undefined).then(fn);
    queues.set(name, next);
    return next;
  }

  async function must(name: string): Promise<PluginRow> {
    const row = await repo.byName(name);
    if (!row) throw new NotFoundError(`plugin '${name}' not found`);
    return row;
  }
  const docOf = (row: PluginRow): PluginDoc => JSON.parse(row.definition) as PluginDoc;
  const paramsOf = (row: PluginRow): Record<string, unknown> | undefined =>
    row.parameters ? (JSON.parse(row.parameters) as Record<string, unknown>) : undefined;

  async function readRun(name: string): Promise<RunRecord | undefined> {
    try {
      return JSON.parse(await readFile(runFile(name), "utf8")) as RunRecord;
    } catch {
      return undefined;
    }
  }
  async function writeAtomic(file: string, text: string): Promise<void> {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(`${file}.tmp`, text, { mode: 0o600 });
    await rename(`${file}.tmp`, file);
  }

  async function status(row: PluginRow): Promise<DeploymentStatus> {
    const doc = docOf(row);
    const run = await readRun(row.name);
    // What was started (run.json), else what the definition would start.
    const procs =
      run?.processes ??
      (doc.spec.processes ?? []).map((p) => ({
        name: p.name,
        command: p.command,
        ports: [] as RenderedProcess["ports"],
      }));
    const services: DeploymentStatus["services"] = procs.map((p) => {
      const st = deps.processes.state(row.name, p.name);
      return {
        name: p.name,
        image: p.command,
        status: st ? st.status.toLowerCase() : row.status === "running" ? "unknown" : "stopped",
        createdAt: st?.startedAt ?? run?.startedAt ?? "",
        ports: p.ports.map((x) => ({ hostPort: String(x.port), containerPort: String(x.port), protocol: x.protocol })),
      };
    });
    return {
      status: row.status as PluginStatus,
      ...(row.parameters ? { parameters: paramsOf(row) } : {}),
      projectName: row.name,
      services,
      ...(row.started_at ? { startedAt: row.started_at } : {}),
      ...(row.stopped_at ? { stoppedAt: row.stopped_at } : {}),
      ...(row.error ? { error: row.error } : {}),
    };
  }

  async function toResponse(row: PluginRow, withYaml = false): Promise<PluginResponse> {
    const doc = docOf(row);
    return {
      ...(doc as unknown as Omit<PluginResponse, "deploymentStatus">),
      deploymentStatus: await status(row),
      ...(withYaml ? { yaml: row.source } : {}),
    };
  }

  async function removeSecrets(name: string): Promise<void> {
    await rm(secretsDir(name), { recursive: true, force: true });
  }

  async function stopProcesses(name: string, run: RunRecord | undefined, doc: PluginDoc): Promise<void> {
    const names = new Set([
      ...(run?.processes ?? []).map((p) => p.name),
      ...(doc.spec.processes ?? []).map((p) => p.name),
    ]);
    for (const service of names) await deps.processes.stop(name, service);
  }

  return {
    pluginDir,
    secretsDir,
    runFile,
    composeFile,
    serial,
    must,
    docOf,
    paramsOf,
    readRun,
    writeAtomic,
    status,
    toResponse,
    removeSecrets,
    stopProcesses,
  };
}

export type PluginState = ReturnType<typeof createPluginState>;
