import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import { nowIso } from "../../db/db.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import type { EventBus } from "../../events/bus.js";
import { AppError, ConflictError, InputError, NotFoundError, errorMessage } from "../../http/errors.js";
import { checkPort, findExecutable } from "../../runtime/index.js";
import type { PluginCatalogue } from "./catalogue.js";
import {
  checkParameterValues,
  describeProblem,
  parsePluginJson,
  parsePluginYaml,
  pluginToYaml,
  PluginFormatError,
  type PluginDoc,
  type PluginProblem,
} from "./plugin-format.js";
import type { PluginRow, PluginsRepo } from "./plugins.repo.js";
import { checkHealth, type Compose, type PluginProcesses, type RenderedProcess } from "./plugins.runtime.js";
import type { DeploymentStatus, PluginResponse, PluginStatus, ServiceStatus } from "./plugins.schema.js";
import { renderTemplate } from "./template.js";
import type { PluginFile, XSourceResolver } from "./x-source.js";

/** Where containers see the files bound for them. */
const CONTAINER_DIR = "/etc/chainlaunch";
const SECRET_ENV = /pass|secret|token|key|credential/i;

/**
 * The template context of a deploy: bound values, the files they point at (mounted read-only into
 * containers for compose), the console's runtime paths and the plugin's name.
 */
export function templateContext(
  name: string,
  resolved: { values: Record<string, unknown>; files: PluginFile[] },
  secrets: string,
  runtime: { node: string; builtins: string; dir: string },
): Record<string, unknown> {
  return {
    parameters: resolved.values,
    runtime,
    plugin: { name },
    volumeMounts: resolved.files.map((f) => ({
      Source: join(secrets, f.rel),
      Target: `${CONTAINER_DIR}/${f.rel}`,
      ReadOnly: true,
    })),
  };
}

/** The docker-compose.yml a compose plugin deploys with (x-source paths are container paths). */
export function renderCompose(
  doc: PluginDoc,
  name: string,
  resolved: { values: Record<string, unknown>; files: PluginFile[] },
  secrets: string,
  runtime: { node: string; builtins: string; dir: string },
): string {
  return renderTemplate(doc.spec.dockerCompose?.contents ?? "", templateContext(name, resolved, secrets, runtime));
}

export type PluginInput = { yaml: string } | { json: unknown };

/** A metrics endpoint of a deployed plugin, rendered: what the managed Prometheus scrapes. */
export interface PluginMetricsTarget {
  job: string;
  service: string;
  target: string;
  path: string;
  interval?: string;
}

interface RunRecord {
  processes: RenderedProcess[];
  startedAt: string;
  metrics?: PluginMetricsTarget[];
}

const formatError = (err: PluginFormatError, prefix = ""): InputError =>
  new InputError(`${prefix}${err.problems.map(describeProblem).join("; ")}`, { errors: err.problems });

/**
 * Plugins: definitions (YAML in upstream's format, plus `spec.processes`), deployments bound to
 * the console's resources, and their processes or compose projects. One operation per plugin at a
 * time; the status column decides races between consoles' requests on both databases.
 */
export function createPluginsService(deps: {
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
}) {
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

  function parse(input: PluginInput): { doc: PluginDoc; source: string } {
    try {
      if ("yaml" in input) return { doc: parsePluginYaml(input.yaml), source: input.yaml };
      const doc = parsePluginJson(input.json);
      return { doc, source: pluginToYaml(doc) };
    } catch (err) {
      if (err instanceof PluginFormatError) throw formatError(err);
      throw err;
    }
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

  /** Renders a process of the plugin; problems name the field and the rendered value. */
  function render(doc: PluginDoc, ctx: Record<string, unknown>, runDir: string): RenderedProcess[] {
    const r = (s: string | number): string => renderTemplate(String(s), ctx);
    const portOf = (s: string | number, field: string): number => {
      const text = r(s).trim();
      const n = Number(text);
      if (!/^\d+$/.test(text) || n < 1 || n > 65535)
        throw new InputError(`${field}: '${text}' is not a port`, { field });
      return n;
    };
    return (doc.spec.processes ?? []).map((p, i) => {
      const base = `spec.processes[${i}]`;
      let command = r(p.command).trim();
      if (!isAbsolute(command)) {
        const found = findExecutable(command, { envVar: "PATH", value: undefined }, process.env.PATH);
        if (!("path" in found))
          throw new InputError(`${base}.command: '${command}' is not on this host's PATH`, {
            field: `${base}.command`,
          });
        command = found.path;
      } else if (!existsSync(command)) {
        throw new InputError(`${base}.command: ${command} does not exist on this host`, { field: `${base}.command` });
      }
      const cwd = p.workingDir ? r(p.workingDir) : runDir;
      const h = p.healthCheck;
      return {
        name: p.name,
        command,
        args: (p.args ?? []).map(r),
        env: Object.fromEntries(Object.entries(p.env ?? {}).map(([k, v]) => [k, r(v)])),
        cwd,
        ports: (p.ports ?? []).map((x, j) => ({
          name: x.name,
          port: portOf(x.port, `${base}.ports[${j}].port`),
          protocol: x.protocol ?? "tcp",
        })),
        ...(h
          ? {
              health: {
                type: h.type,
                host: h.host ? r(h.host) : "127.0.0.1",
                port: portOf(h.port, `${base}.healthCheck.port`),
                path: h.path ? r(h.path) : "/",
                timeoutSeconds: h.timeoutSeconds ?? 60,
              },
            }
          : {}),
      };
    });
  }

  /** The plugin's metrics endpoints with their templates rendered (scraped on loopback). */
  function renderMetrics(doc: PluginDoc, name: string, ctx: Record<string, unknown>): PluginMetricsTarget[] {
    return (doc.spec.metrics?.endpoints ?? []).map((m, i) => {
      const field = `spec.metrics.endpoints[${i}].port`;
      const port = renderTemplate(String(m.port), ctx).trim();
      if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535)
        throw new InputError(`${field}: '${port}' is not a port`, { field });
      const service = m.service ?? doc.spec.processes?.[0]?.name ?? "app";
      return {
        job: m.jobName ?? `plugin-${name}-${service}`,
        service,
        target: `127.0.0.1:${port}`,
        path: m.path ? renderTemplate(m.path, ctx) : "/metrics",
        ...(m.interval ? { interval: m.interval } : {}),
      };
    });
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

  async function deployNow(name: string, values: unknown): Promise<DeploymentStatus> {
    const row = await must(name);
    const doc = docOf(row);
    if (["running", "deploying", "stopping"].includes(row.status))
      throw new ConflictError(`plugin '${name}' is ${row.status}; stop it before deploying again`);
    let checked: Record<string, unknown>;
    try {
      checked = checkParameterValues(doc, values);
    } catch (err) {
      if (err instanceof PluginFormatError) throw formatError(err);
      throw err;
    }
    const compose = !!doc.spec.dockerCompose;
    if (compose) {
      const avail = await deps.compose.available();
      if (!avail.ok) {
        await repo.update(name, {
          status: "error",
          error: avail.reason,
          parameters: JSON.stringify(checked),
          updated_at: nowIso(),
        });
        throw new AppError(avail.reason, 400, "DOCKER_UNAVAILABLE", { field: "spec.dockerCompose" });
      }
    }
    const previous = row.status;
    const won = await repo.transition(name, [previous], {
      status: "deploying",
      parameters: JSON.stringify(checked),
      error: null,
      updated_at: nowIso(),
    });
    if (!won) throw new ConflictError(`plugin '${name}' changed meanwhile; try again`);
    deps.bus.publish("plugin.status", { name, status: "deploying" });

    const runDir = join(pluginDir(name), "run");
    const started: string[] = [];
    let phase: "prepare" | "start" = "prepare";
    try {
      await mkdir(runDir, { recursive: true, mode: 0o700 });
      const resolved = await deps.xsource.resolve(doc, checked, (rel) =>
        compose ? `${CONTAINER_DIR}/${rel}` : join(secretsDir(name), rel),
      );
      await removeSecrets(name);
      await mkdir(secretsDir(name), { recursive: true, mode: 0o700 });
      for (const f of resolved.files) {
        const file = join(secretsDir(name), f.rel);
        await mkdir(dirname(file), { recursive: true, mode: 0o700 });
        await writeFile(file, f.content, { mode: 0o600 });
        await chmod(file, 0o600);
      }
      const runtime = { node: process.execPath, builtins: deps.builtinsDir(), dir: runDir };
      const ctx = templateContext(name, resolved, secretsDir(name), runtime);
      if (compose) {
        const text = renderCompose(doc, name, resolved, secretsDir(name), runtime);
        const metrics = renderMetrics(doc, name, ctx);
        await writeAtomic(composeFile(name), text);
        await writeAtomic(
          runFile(name),
          JSON.stringify({ processes: [], startedAt: nowIso(), metrics } satisfies RunRecord),
        );
        phase = "start";
        try {
          await deps.compose.up(name, composeFile(name));
        } catch (err) {
          await deps.compose.down(name, composeFile(name)).catch(() => undefined);
          const stderr = ((err as { stderr?: string }).stderr ?? "").trim();
          throw new InputError(
            `docker compose up failed: ${stderr.split("\n").slice(-3).join(" ") || errorMessage(err)}`,
            {
              log: stderr.split("\n").slice(-40),
            },
          );
        }
      } else {
        const procs = render(doc, ctx, runDir);
        for (const p of procs)
          for (const port of new Set([...p.ports.map((x) => x.port), ...(p.health ? [p.health.port] : [])])) {
            const conflict = await checkPort(port);
            if (conflict)
              throw new ConflictError(
                `port ${port} of process '${p.name}' is ${conflict.reason === "in-use" ? "in use" : "reserved"}`,
                {
                  field: "parameters",
                  port,
                },
              );
          }
        const metrics = renderMetrics(doc, name, ctx);
        await writeAtomic(
          runFile(name),
          JSON.stringify({ processes: procs, startedAt: nowIso(), metrics } satisfies RunRecord),
        );
        phase = "start";
        for (const p of procs) {
          started.push(p.name);
          const st = await deps.processes.start(name, p);
          if (st.status !== "RUNNING") {
            const log = await deps.processes.tail(name, p.name, 40);
            throw new InputError(
              `process '${p.name}' did not start: ${(st.errorMessage ?? st.status).split("\n")[0]}`,
              {
                service: p.name,
                log,
              },
            );
          }
        }
      }
    } catch (err) {
      // Nothing stays running or on disk: stop what started, remove the bound files.
      const run = await readRun(name);
      await stopProcesses(name, run, doc).catch(() => undefined);
      await removeSecrets(name).catch(() => undefined);
      await rm(runFile(name), { force: true }).catch(() => undefined);
      if (phase === "prepare") {
        await repo.update(name, { status: previous, updated_at: nowIso() });
      } else {
        const details = err instanceof AppError ? (err.details as { log?: string[] } | undefined) : undefined;
        const log = details?.log;
        await repo.update(name, {
          status: "error",
          error: `${errorMessage(err)}${log?.length ? `\n--- last log lines ---\n${log.join("\n")}` : ""}`,
          updated_at: nowIso(),
        });
        deps.bus.publish("plugin.status", { name, status: "error" });
      }
      throw err;
    }
    const now = nowIso();
    await repo.update(name, { status: "running", error: null, started_at: now, stopped_at: null, updated_at: now });
    deps.bus.publish("plugin.status", { name, status: "running" });
    return status(await must(name));
  }

  async function stopNow(name: string, final: PluginStatus = "stopped"): Promise<void> {
    const row = await must(name);
    const doc = docOf(row);
    await repo.update(name, { status: "stopping", updated_at: nowIso() });
    try {
      if (doc.spec.dockerCompose) {
        if (existsSync(composeFile(name)) && (await deps.compose.available()).ok)
          await deps.compose.down(name, composeFile(name));
      } else await stopProcesses(name, await readRun(name), doc);
      await removeSecrets(name);
      await rm(runFile(name), { force: true });
    } catch (err) {
      await repo.update(name, { status: "error", error: `stop failed: ${errorMessage(err)}`, updated_at: nowIso() });
      throw err;
    }
    const now = nowIso();
    await repo.update(name, { status: final, stopped_at: now, updated_at: now });
    deps.bus.publish("plugin.status", { name, status: final });
  }

  /** The catalogue in upstream's registry shape, with whether each plugin is installed here. */
  async function available(opts: { refresh?: boolean }) {
    const cat = await deps.catalogue.list(opts);
    const installed = new Set((await repo.list()).map((r) => r.name));
    return {
      ...cat,
      plugins: cat.plugins.map((p) => ({
        ...p,
        installed: installed.has(p.name),
        created: cat.last_updated,
        updated: cat.last_updated,
        downloads: 0,
        rating: 0,
        labels: Object.fromEntries(p.tags.map((t) => [t, "true"])),
      })),
    };
  }

  return {
    async list(): Promise<PluginResponse[]> {
      return Promise.all((await repo.list()).map((r) => toResponse(r)));
    },
    async get(name: string): Promise<PluginResponse> {
      return toResponse(await must(name), true);
    },
    validate(yaml: string): { valid: boolean; errors: PluginProblem[]; plugin?: PluginResponse } {
      try {
        const doc = parsePluginYaml(yaml);
        return {
          valid: true,
          errors: [],
          plugin: {
            ...(doc as unknown as PluginResponse),
            deploymentStatus: { status: "not-deployed", projectName: doc.metadata.name, services: [] },
          },
        };
      } catch (err) {
        if (err instanceof PluginFormatError) return { valid: false, errors: err.problems };
        throw err;
      }
    },
    async create(input: PluginInput): Promise<PluginResponse> {
      const { doc, source } = parse(input);
      const now = nowIso();
      try {
        await repo.insert({
          name: doc.metadata.name,
          source,
          definition: JSON.stringify(doc),
          status: "not-deployed",
          parameters: null,
          error: null,
          started_at: null,
          stopped_at: null,
          created_at: now,
          updated_at: now,
        });
      } catch (err) {
        if (isUniqueViolation(err))
          throw new ConflictError(`metadata.name: a plugin named '${doc.metadata.name}' already exists`, {
            field: "metadata.name",
          });
        throw err;
      }
      return toResponse(await must(doc.metadata.name));
    },
    /** Changes the definition; a running deployment keeps what it was started with until it is deployed again. */
    async update(name: string, input: PluginInput): Promise<PluginResponse> {
      const { doc, source } = parse(input);
      if (doc.metadata.name !== name)
        throw new InputError(
          `metadata.name: '${doc.metadata.name}' differs from the plugin being updated ('${name}'); names can't change`,
          {
            field: "metadata.name",
          },
        );
      return serial(name, async () => {
        await must(name);
        await repo.update(name, { source, definition: JSON.stringify(doc), updated_at: nowIso() });
        return toResponse(await must(name));
      });
    },
    async remove(name: string): Promise<void> {
      return serial(name, async () => {
        const row = await must(name);
        if (row.status !== "not-deployed" && row.status !== "stopped") await stopNow(name).catch(() => undefined);
        await stopProcesses(name, await readRun(name), docOf(row));
        await rm(pluginDir(name), { recursive: true, force: true });
        await repo.remove(name);
        deps.bus.publish("plugin.status", { name, status: "deleted" });
      });
    },
    deploy(name: string, values: unknown): Promise<DeploymentStatus> {
      return serial(name, () => deployNow(name, values));
    },
    async stop(name: string): Promise<DeploymentStatus> {
      return serial(name, async () => {
        const row = await must(name);
        if (row.status === "not-deployed") throw new ConflictError(`plugin '${name}' has not been deployed`);
        if (row.status !== "stopped") await stopNow(name);
        return status(await must(name));
      });
    },
    async resume(name: string): Promise<Record<string, string>> {
      return serial(name, async () => {
        const row = await must(name);
        if (row.status === "running") return { status: "running", message: `plugin '${name}' is already running` };
        const params = paramsOf(row);
        if (!params)
          throw new ConflictError(`plugin '${name}' has never been deployed; deploy it with its parameters first`);
        if (row.status === "error") await stopNow(name, "stopped").catch(() => undefined);
        await deployNow(name, params);
        return { status: "running", message: `plugin '${name}' resumed with the parameters of its last deploy` };
      });
    },
    async deploymentStatus(name: string): Promise<DeploymentStatus> {
      return status(await must(name));
    },
    async services(name: string): Promise<ServiceStatus[]> {
      const row = await must(name);
      const doc = docOf(row);
      const run = await readRun(name);
      if (doc.spec.dockerCompose) {
        if (!existsSync(composeFile(name)) || !(await deps.compose.available()).ok) return [];
        const ps = await deps.compose.ps(name, composeFile(name));
        return ps.map((c) => ({
          name: String(c.Service ?? c.Name ?? ""),
          image: String(c.Image ?? ""),
          state: String(c.State ?? ""),
          running: c.State === "running",
          health: String(c.Health ?? ""),
          ports: String(c.Ports ?? "")
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
          last_error: "",
          started_at: "",
          created_at: String(c.CreatedAt ?? ""),
          containers: [String(c.ID ?? "")],
          config: {},
          environment: {},
          depends_on: [],
          volumes: [],
        }));
      }
      return Promise.all(
        (doc.spec.processes ?? []).map(async (def) => {
          const p = run?.processes.find((x) => x.name === def.name);
          const st = deps.processes.state(name, def.name);
          const running = st?.status === "RUNNING";
          const health = !p?.health
            ? ""
            : running
              ? (await checkHealth(p))
                ? "healthy"
                : "unhealthy"
              : st?.status === "STARTING"
                ? "starting"
                : "";
          return {
            name: def.name,
            image: p?.command ?? def.command,
            state: st ? st.status.toLowerCase() : row.status === "not-deployed" ? "not-deployed" : "stopped",
            running,
            health,
            ports: (p?.ports ?? []).map((x) => String(x.port)),
            last_error: st?.errorMessage ?? (row.status === "error" ? (row.error ?? "") : ""),
            started_at: st?.startedAt ?? "",
            created_at: run?.startedAt ?? "",
            containers: st?.pid ? [String(st.pid)] : [],
            config: p ? { command: p.command, args: p.args, working_dir: p.cwd } : { command: def.command },
            environment: Object.fromEntries(
              Object.entries(p?.env ?? {}).map(([k, v]) => [k, SECRET_ENV.test(k) ? "********" : v]),
            ),
            depends_on: [],
            volumes: [],
          };
        }),
      );
    },
    async logs(name: string, service: string, tail: number): Promise<string> {
      const row = await must(name);
      const doc = docOf(row);
      if (doc.spec.dockerCompose) {
        if (!existsSync(composeFile(name)))
          throw new NotFoundError(`plugin '${name}' has no compose project (deploy it first)`);
        const avail = await deps.compose.available();
        if (!avail.ok) throw new AppError(avail.reason, 400, "DOCKER_UNAVAILABLE");
        return deps.compose.logs(name, composeFile(name), service, tail);
      }
      if (!(doc.spec.processes ?? []).some((p) => p.name === service))
        throw new NotFoundError(`plugin '${name}' has no service '${service}'`);
      return (await deps.processes.tail(name, service, tail)).join("\n");
    },
    available: (opts: { refresh?: boolean } = {}) => available(opts),
    sourceOptions: (type: Parameters<XSourceResolver["options"]>[0]) => deps.xsource.options(type),
    /** The metrics endpoints of running plugins, for the managed Prometheus's scrape config. */
    async scrapeTargets(): Promise<(PluginMetricsTarget & { plugin: string })[]> {
      const out: (PluginMetricsTarget & { plugin: string })[] = [];
      for (const row of await repo.list()) {
        if (row.status !== "running") continue;
        for (const m of (await readRun(row.name))?.metrics ?? []) out.push({ ...m, plugin: row.name });
      }
      return out;
    },
    /** A process gave up after crash restarts: the plugin is in error, with why. */
    async gaveUp(name: string, service: string, message: string): Promise<void> {
      const row = await repo.byName(name);
      if (row?.status !== "running") return;
      await repo.update(name, {
        status: "error",
        error: `process '${service}' failed: ${message}`,
        updated_at: nowIso(),
      });
      deps.bus.publish("plugin.status", { name, status: "error" });
    },
    /**
     * After a console restart: adopts the processes of running plugins (never a duplicate), starts
     * the ones that died meanwhile, and ends a deploy the previous console did not finish.
     */
    async resumeAll(): Promise<void> {
      for (const row of await repo.wanted()) {
        const run = await readRun(row.name);
        const doc = docOf(row);
        if (doc.spec.dockerCompose) continue;
        try {
          if (row.status === "deploying") {
            for (const p of run?.processes ?? []) await deps.processes.adopt(row.name, p);
            await stopProcesses(row.name, run, doc);
            await removeSecrets(row.name);
            await repo.update(row.name, {
              status: "error",
              error: "the console stopped during the deploy; deploy it again",
              updated_at: nowIso(),
            });
            continue;
          }
          for (const p of run?.processes ?? []) {
            const adopted = await deps.processes.adopt(row.name, p);
            if (!adopted.adopted && row.status === "running") await deps.processes.start(row.name, p);
          }
        } catch (err) {
          deps.log.warn({ err, plugin: row.name }, "could not resume a plugin");
        }
      }
    },
  };
}

export type PluginsService = ReturnType<typeof createPluginsService>;
