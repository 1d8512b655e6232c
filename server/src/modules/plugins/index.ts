import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { findShippedDir } from "../../runtime/shipped.js";
import type { Sandbox } from "../../runtime/sandbox.js";
import type { AppContext } from "../context.js";
import type { FabricContext } from "../fabric-networks/fabric-networks.context.js";
import type { KeysService } from "../keys/keys.service.js";
import type { NodesService } from "../nodes/nodes.service.js";
import type { SettingsService } from "../settings/settings.service.js";
import { createCatalogue } from "./catalogue.js";
import { createPluginsRepo } from "./plugins.repo.js";
import { registerPluginsRoutes } from "./plugins.routes.js";
import type { DockerRuntime } from "../../runtime/docker/index.js";
import { createCompose, createPluginProcesses } from "./plugins.runtime.js";
import { createPluginsService, type PluginsService } from "./plugins.service.js";
import { createXSourceResolver } from "./x-source.js";
import { organizationOfKey } from "../organizations/organizations.repo.js";

export const GATEWAY_PROGRAM = "fabric-rest-gateway.js";

/**
 * The built-in programs plugins run (`builtins/` beside the running bundle or dist): set
 * CHAINLAUNCH_BUILTINS_DIR to use others. Found lazily, so a console without them still serves.
 */
export function findBuiltinsDir(configured: string | undefined): string {
  if (configured) return configured;
  const found = findShippedDir(
    [process.argv[1] ? dirname(process.argv[1]) : undefined, dirname(fileURLToPath(import.meta.url))],
    "builtins",
    GATEWAY_PROGRAM,
    5,
  );
  if (found) return found;
  return join(dirname(process.argv[1] ?? "."), "builtins");
}

export interface PluginsModule {
  service: PluginsService;
  /** Detaches from plugin processes (they keep running). */
  close(): void;
}

/**
 * Wires plugins: definitions and deployments in the database, folders under `<dataDir>/plugins`,
 * processes under their own supervisor (adopted again after a console restart), compose projects on
 * the console's Docker engine (docker compose v2 or docker-compose v1), and the catalogue.
 */
export function registerPluginsModule(
  api: FastifyInstance,
  ctx: Pick<AppContext, "db" | "bus" | "log" | "config">,
  deps: {
    fabric: Pick<FabricContext, "node" | "org" | "network">;
    keys: Pick<KeysService, "row" | "exportPrivateKeyPem">;
    nodes: Pick<NodesService, "get">;
    settings: Pick<SettingsService, "get">;
    sandbox: Sandbox;
    /** The console's Docker engine: compose plugins run there. */
    docker?: DockerRuntime;
  },
): PluginsModule {
  const dir = join(ctx.config.dataDir, "plugins");
  const processes = createPluginProcesses({
    stateDir: join(dir, ".runtime"),
    sandbox: deps.sandbox,
    dir,
    builtinsDir: () => findBuiltinsDir(ctx.config.builtinsDir),
    // Called only after a start or adoption, which go through `service` (defined below by then).
    onGaveUp: (plugin, svc, message) => {
      void service
        .gaveUp(plugin, svc, message)
        .catch((err: unknown) => ctx.log.warn({ err, plugin }, "recording a plugin failure failed"));
    },
  });
  const service = createPluginsService({
    repo: createPluginsRepo(ctx.db),
    xsource: createXSourceResolver({
      db: ctx.db,
      keyOwner: (keyId) => organizationOfKey(ctx.db, keyId),
      fabric: deps.fabric,
      keys: deps.keys,
      nodes: deps.nodes,
    }),
    processes,
    compose: createCompose({ path: process.env.PATH, docker: deps.docker }),
    catalogue: createCatalogue({ registries: async () => (await deps.settings.get()).config.pluginRegistries }),
    dir,
    builtinsDir: () => findBuiltinsDir(ctx.config.builtinsDir),
    bus: ctx.bus,
    log: ctx.log,
  });
  registerPluginsRoutes(api, service);
  void service.resumeAll().catch((err: unknown) => ctx.log.warn({ err }, "resuming plugins failed"));
  return { service, close: () => processes.close() };
}
