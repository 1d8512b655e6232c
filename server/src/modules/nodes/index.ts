import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { createFabricBinaryResolver } from "../../runtime/index.js";
import type { BesuNetworksService } from "../besu-networks/besu-networks.service.js";
import type { AppContext } from "../context.js";
import type { KeysService } from "../keys/keys.service.js";
import { createExternalNodesRepo } from "../federation/external-nodes.repo.js";
import { createOrganizationsRepo } from "../organizations/organizations.repo.js";
import type { SettingsService } from "../settings/settings.service.js";
import { createBesuBinaryResolver, downloadBesuRelease, downloadJavaRuntime } from "./besu-binary.js";
import { NotFoundError } from "../../http/errors.js";
import { createNodeDefaults, type NodeDefaultsService } from "./nodes.defaults.js";
import { createDeploymentModes } from "./nodes.deployment-modes.js";
import { createNodeHealth, type NodeHealth } from "./nodes.health.js";
import { registerNodeLookupRoutes } from "./nodes.lookup.routes.js";
import { createBesuReadiness } from "./besu-readiness.js";
import { registerBesuReadinessRoutes } from "./besu-readiness.routes.js";
import { createNodeLogReader } from "./node-logs.js";
import { registerNodeLogRoutes } from "./node-logs.routes.js";
import { createNodeObserver } from "./nodes.observe.js";
import { registerNodeObserveRoutes } from "./nodes.observe.routes.js";
import { deploymentOf } from "./nodes.mapping.js";
import { createNodesRepo } from "./nodes.repo.js";
import { registerNodesRoutes } from "./nodes.routes.js";
import type { DockerRuntime } from "../../runtime/docker/index.js";
import { createNodeRuntime } from "./nodes.runtime.js";
import { createNodesService, type NodesService } from "./nodes.service.js";

export interface NodesModule {
  service: NodesService;
  /** Free ports and addresses for new nodes. */
  defaults: NodeDefaultsService;
  /** The nodes' health: the poller's stored checks and on-demand probes (the monitoring routes). */
  health: NodeHealth;
  /** Settles once the nodes an earlier console left running are adopted (or started again). */
  adopted: Promise<void>;
  /** Detaches from every node (they keep running) and stops the health poller. */
  close(): void;
}

/**
 * Wires the nodes module: one supervisor for the app (state in `<dataDir>/runtime`), adoption of
 * the nodes an earlier console left running, the health poller and the routes. Keys a node uses
 * can't be deleted while it exists.
 */
export function registerNodesModule(
  api: FastifyInstance,
  ctx: Pick<AppContext, "db" | "bus" | "log" | "config">,
  deps: {
    keys: KeysService;
    besuNetworks: Pick<BesuNetworksService, "get">;
    settings: Pick<SettingsService, "get">;
    docker?: DockerRuntime;
    /** Settles when the registered Docker engines are known: containers on them are adopted after. */
    dockerReady?: Promise<void>;
  },
): NodesModule {
  const env = ctx.config;
  const repo = createNodesRepo(ctx.db);
  // The downtime grace: settings' nodeDowntimeGraceSeconds when set, else CHAINLAUNCH_DOWNTIME_GRACE_SECONDS.
  let graceMs = env.downtimeGraceMs;
  const readGrace = async (): Promise<void> => {
    const seconds = (await deps.settings.get()).config.nodeDowntimeGraceSeconds;
    graceMs = seconds === undefined ? env.downtimeGraceMs : seconds * 1000;
  };
  // Read alongside adoption, not before it: nodes are adopted at once, outage timers wait for this.
  const graceReady = readGrace().catch(() => undefined);
  const unsubscribe = ctx.bus.subscribe((e) => {
    if (e.type === "settings.updated") void readGrace().catch(() => undefined);
  });
  const runtime = createNodeRuntime({
    repo,
    bus: ctx.bus,
    log: ctx.log,
    stateDir: join(ctx.config.dataDir, "runtime"),
    downtimeGraceMs: () => graceMs,
    graceReady,
    ...(deps.docker ? { docker: deps.docker } : {}),
  });
  const service = createNodesService({
    repo,
    runtime,
    keys: deps.keys,
    orgs: createOrganizationsRepo(ctx.db),
    besuNetworks: deps.besuNetworks,
    settings: deps.settings,
    fabricBins: createFabricBinaryResolver({
      configuredDir: env.fabricBinDir,
      ...(env.fabricDownload ? {} : { downloader: null }),
    }),
    besuBins: createBesuBinaryResolver({
      configured: env.besuBin,
      downloader: env.besuDownload ? downloadBesuRelease : null,
      javaDownloader: env.besuDownload ? downloadJavaRuntime : null,
    }),
    dataDir: ctx.config.dataDir,
    images: { fabric: env.fabricImage, besu: env.besuImage },
    bus: ctx.bus,
    ...(deps.docker ? { docker: deps.docker } : {}),
    externalEnodes: async (ids) => {
      const rows = await createExternalNodesRepo(ctx.db).besuNodesByIds(ids);
      return rows.map((r) => ({ id: r.id, enodeUrl: r.enode_url }));
    },
  });
  const health = createNodeHealth({ repo, settings: deps.settings, bus: ctx.bus });
  deps.keys.addUsageChecker((keyId) => service.keyUsage(keyId));
  registerNodesRoutes(api, service, async (id) => {
    const row = await repo.byId(id);
    return row ? (((deploymentOf(row) as { env?: Record<string, string> }).env ?? {}) as Record<string, string>) : {};
  });
  registerNodeLookupRoutes(api, {
    bySlug: async (slug) => {
      const row = await repo.bySlug(slug);
      if (!row) throw new NotFoundError(`node with slug '${slug}' not found`);
      return service.get(row.id);
    },
    modes: createDeploymentModes(deps.docker ? { docker: deps.docker } : {}),
  });
  const defaults = createNodeDefaults({ repo, settings: deps.settings });
  const observer = createNodeObserver({ repo });
  registerNodeObserveRoutes(api, { observer, health, defaults });
  registerNodeLogRoutes(api, createNodeLogReader({ logFile: observer.logFile }));
  registerBesuReadinessRoutes(
    api,
    createBesuReadiness({ configured: env.besuBin, downloader: env.besuDownload ? downloadBesuRelease : null }),
  );
  health.start();
  const adopted = (deps.dockerReady ?? Promise.resolve())
    .then(() => service.adoptAll())
    .catch((err: unknown) => ctx.log.error({ err }, "adopting running nodes failed"));
  return {
    service,
    adopted,
    defaults,
    health,
    close() {
      unsubscribe();
      health.stop();
      runtime.close();
    },
  };
}
