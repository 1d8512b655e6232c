import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { nowIso } from "../../db/db.js";
import { AppError, ConflictError, InputError, errorMessage } from "../../http/errors.js";
import { checkPort } from "../../runtime/index.js";
import { checkParameterValues, PluginFormatError } from "./plugin-format.js";
import {
  CONTAINER_DIR,
  checkComposeValues,
  renderCompose,
  renderMetrics,
  renderProcesses,
  templateContext,
} from "./plugins.render.js";
import type { DeploymentStatus } from "./plugins.schema.js";
import { formatError, type PluginsDeps, type PluginState, type RunRecord } from "./plugins.state.js";
import { nodeImageTag } from "./plugins.runtime.js";

/**
 * Deploying a plugin: values checked and bound, files written for it, then its processes started
 * (or its compose project brought up). A deploy that fails leaves nothing running or on disk.
 */
export function createPluginDeploy(
  deps: Pick<PluginsDeps, "repo" | "xsource" | "processes" | "compose" | "builtinsDir" | "bus">,
  state: PluginState,
) {
  const { repo } = deps;
  const { must, docOf, pluginDir, secretsDir, runFile, composeFile, writeAtomic } = state;

  /** Deploys `name` now (the caller holds its turn in `state.serial`). */
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
      checkComposeValues(checked);
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
      await state.removeSecrets(name);
      await mkdir(secretsDir(name), { recursive: true, mode: 0o700 });
      for (const f of resolved.files) {
        const file = join(secretsDir(name), f.rel);
        await mkdir(dirname(file), { recursive: true, mode: 0o700 });
        await writeFile(file, f.content, { mode: 0o600 });
        await chmod(file, 0o600);
      }
      const runtime = { node: process.execPath, builtins: deps.builtinsDir(), dir: runDir, nodeImage: nodeImageTag() };
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
          await deps.compose.prepareImages(text, process.execPath);
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
        const procs = renderProcesses(doc, ctx, runDir);
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
      const run = await state.readRun(name);
      await state.stopProcesses(name, run, doc).catch(() => undefined);
      await state.removeSecrets(name).catch(() => undefined);
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
    return state.status(await must(name));
  }

  return {
    deployNow,
    deploy(name: string, values: unknown): Promise<DeploymentStatus> {
      return state.serial(name, () => deployNow(name, values));
    },
  };
}
