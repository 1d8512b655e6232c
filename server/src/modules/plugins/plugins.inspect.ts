import { existsSync } from "node:fs";
import { AppError, NotFoundError } from "../../http/errors.js";
import { checkHealth } from "./plugins.runtime.js";
import type { DeploymentStatus, PluginResponse, ServiceStatus } from "./plugins.schema.js";
import type { PluginMetricsTarget, PluginsDeps, PluginState } from "./plugins.state.js";
import type { XSourceResolver } from "./x-source.js";

const SECRET_ENV = /pass|secret|token|key|credential/i;

/** Reading plugins: definitions, deployment status, services, logs, the catalogue and scrape targets. */
export function createPluginInspect(
  deps: Pick<PluginsDeps, "repo" | "processes" | "compose" | "catalogue" | "xsource">,
  state: PluginState,
) {
  const { repo } = deps;
  const { must, docOf, composeFile } = state;

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
      return Promise.all((await repo.list()).map((r) => state.toResponse(r)));
    },
    async get(name: string): Promise<PluginResponse> {
      return state.toResponse(await must(name), true);
    },
    async deploymentStatus(name: string): Promise<DeploymentStatus> {
      return state.status(await must(name));
    },
    async services(name: string): Promise<ServiceStatus[]> {
      const row = await must(name);
      const doc = docOf(row);
      const run = await state.readRun(name);
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
        for (const m of (await state.readRun(row.name))?.metrics ?? []) out.push({ ...m, plugin: row.name });
      }
      return out;
    },
  };
}
