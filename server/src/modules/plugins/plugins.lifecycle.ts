import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { nowIso } from "../../db/db.js";
import { ConflictError, errorMessage } from "../../http/errors.js";
import type { DeploymentStatus, PluginStatus } from "./plugins.schema.js";
import type { PluginsDeps, PluginState } from "./plugins.state.js";

/**
 * Stopping, resuming and deleting plugins, and what happens to their processes when one gives up
 * or the console restarts.
 */
export function createPluginLifecycle(
  deps: Pick<PluginsDeps, "repo" | "processes" | "compose" | "bus" | "log">,
  state: PluginState,
  deployNow: (name: string, values: unknown) => Promise<DeploymentStatus>,
) {
  const { repo } = deps;
  const { must, docOf, composeFile, serial } = state;

  async function stopNow(name: string, final: PluginStatus = "stopped"): Promise<void> {
    const row = await must(name);
    const doc = docOf(row);
    await repo.update(name, { status: "stopping", updated_at: nowIso() });
    try {
      if (doc.spec.dockerCompose) {
        if (existsSync(composeFile(name)) && (await deps.compose.available()).ok)
          await deps.compose.down(name, composeFile(name));
      } else await state.stopProcesses(name, await state.readRun(name), doc);
      await state.removeSecrets(name);
      await rm(state.runFile(name), { force: true });
    } catch (err) {
      await repo.update(name, { status: "error", error: `stop failed: ${errorMessage(err)}`, updated_at: nowIso() });
      throw err;
    }
    const now = nowIso();
    await repo.update(name, { status: final, stopped_at: now, updated_at: now });
    deps.bus.publish("plugin.status", { name, status: final });
  }

  return {
    async remove(name: string): Promise<void> {
      return serial(name, async () => {
        const row = await must(name);
        if (row.status !== "not-deployed" && row.status !== "stopped") await stopNow(name).catch(() => undefined);
        await state.stopProcesses(name, await state.readRun(name), docOf(row));
        await rm(state.pluginDir(name), { recursive: true, force: true });
        await repo.remove(name);
        deps.bus.publish("plugin.status", { name, status: "deleted" });
      });
    },
    async stop(name: string): Promise<DeploymentStatus> {
      return serial(name, async () => {
        const row = await must(name);
        if (row.status === "not-deployed") throw new ConflictError(`plugin '${name}' has not been deployed`);
        if (row.status !== "stopped") await stopNow(name);
        return state.status(await must(name));
      });
    },
    async resume(name: string): Promise<Record<string, string>> {
      return serial(name, async () => {
        const row = await must(name);
        if (row.status === "running") return { status: "running", message: `plugin '${name}' is already running` };
        const params = state.paramsOf(row);
        if (!params)
          throw new ConflictError(`plugin '${name}' has never been deployed; deploy it with its parameters first`);
        if (row.status === "error") await stopNow(name, "stopped").catch(() => undefined);
        await deployNow(name, params);
        return { status: "running", message: `plugin '${name}' resumed with the parameters of its last deploy` };
      });
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
        const run = await state.readRun(row.name);
        const doc = docOf(row);
        if (doc.spec.dockerCompose) continue;
        try {
          if (row.status === "deploying") {
            for (const p of run?.processes ?? []) await deps.processes.adopt(row.name, p);
            await state.stopProcesses(row.name, run, doc);
            await state.removeSecrets(row.name);
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
