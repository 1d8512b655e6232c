import type { FastifyInstance } from "fastify";
import { createDockerRuntime } from "../runtime/docker/index.js";
import { sandboxFromConfig } from "../runtime/sandbox.js";
import { registerAlertsModule } from "./alerts/index.js";
import { registerApiKeysRoutes } from "./api-keys/api-keys.routes.js";
import { registerKeyProvidersModule } from "./key-providers/index.js";
import { registerKeysModule } from "./keys/index.js";
import { registerBesuNetworksModule } from "./besu-networks/index.js";
import { registerNodesModule } from "./nodes/index.js";
import { registerMonitoringRoutes } from "./monitoring/monitoring.routes.js";
import { registerDockerEnginesModule } from "./docker-engines/index.js";
import { registerFabricNetworksModule } from "./fabric-networks/index.js";
import { registerChaincodesModule } from "./fabric-chaincodes/index.js";
import { registerProjectsModule } from "./chaincode-projects/index.js";
import { registerOperationsModule } from "./operations/index.js";
import { registerOrganizationsModule } from "./organizations/index.js";
import { registerBackupsModule } from "./backups/index.js";
import { registerMetricsModule } from "./metrics/index.js";
import { registerPluginsModule } from "./plugins/index.js";
import { registerGovernanceModule } from "./governance/index.js";
import { registerFederationModule } from "./federation/index.js";
import { registerNotificationProvidersModule } from "./notification-providers/index.js";
import { registerAuditRoutes } from "./audit/audit.routes.js";
import { registerAuthRoutes } from "./auth/auth.routes.js";
import type { AppContext } from "./context.js";
import { createNotificationsRepo } from "./notifications/notifications.repo.js";
import { registerNotificationsRoutes } from "./notifications/notifications.routes.js";
import { createNotificationsService } from "./notifications/notifications.service.js";
import { registerWsRoute } from "./notifications/ws.routes.js";
import { createBesuBulk, registerBesuBulkRoutes } from "./besu-bulk/besu-bulk.js";
import { registerNodeRpcModule } from "./node-rpc/index.js";
import { registerSettingsRoutes } from "./settings/settings.routes.js";
import { createSettingsService } from "./settings/settings.service.js";
import { registerSystemRoutes } from "./system/system.routes.js";
import { registerUsersRoutes } from "./users/users.routes.js";
import { registerTroubleshootingModule } from "./troubleshooting/index.js";
import { registerMcpModule } from "./mcp/index.js";
import { registerTemplatesModule } from "./templates/index.js";
import { createUsersService } from "./users/users.service.js";
import { createWsHub } from "../events/ws-hub.js";

/** Handles to module services that the app keeps for shutdown or tests. */
export interface Modules {
  /** Stops timers and loops; waits for work that would still write to the database. */
  stop(): Promise<void>;
  /** The module whose stop is being awaited ("" before and after), for a close that hangs. */
  stopping(): string;
}

/**
 * Registers every feature module's routes under /api/v1. A new module adds one block here:
 * build its services from `ctx`, then register its routes.
 */
export function registerModules(api: FastifyInstance, ctx: AppContext): Modules {
  registerSystemRoutes(api);
  registerAuthRoutes(api, ctx);

  const users = createUsersService({
    users: ctx.usersRepo,
    revokeSessions: (id, reason) => ctx.auth.revokeAll(id, undefined, reason),
  });
  registerUsersRoutes(api, users);

  registerApiKeysRoutes(api, ctx.apiKeys);
  registerAuditRoutes(api, ctx.audit);
  const settings = createSettingsService({ db: ctx.db, bus: ctx.bus });
  registerSettingsRoutes(api, settings);

  const providers = registerKeyProvidersModule(api, {
    db: ctx.db,
    dataDir: ctx.config.dataDir,
    masterKeyEnv: ctx.config.masterKey,
  });
  const keys = registerKeysModule(api, { db: ctx.db, providers });
  const orgs = registerOrganizationsModule(api, { db: ctx.db, keys });
  registerTroubleshootingModule(api, { settings, orgs });
  registerMcpModule(api, ctx);
  const besuNetworks = registerBesuNetworksModule(api, { db: ctx.db, keys });
  // Mode "docker": the local engine (none configured means mode docker is a 400) and the engines an
  // admin registered, known once the master key is loaded (their TLS keys); nodes are adopted after.
  const docker = createDockerRuntime({ host: ctx.config.dockerHost, dataDir: ctx.config.dataDir });
  let enginesLoaded: () => void = () => undefined;
  const enginesReady = new Promise<void>((resolve) => (enginesLoaded = resolve));
  const nodes = registerNodesModule(api, ctx, { keys, besuNetworks, settings, docker, dockerReady: enginesReady });
  const engines = registerDockerEnginesModule(api, ctx, {
    docker,
    masterKey: () => providers.masterKey().key,
    usage: (engine) => nodes.service.engineUsage(engine),
  });
  api.addHook("onReady", async () => {
    await engines
      .load()
      .catch((err: unknown) => ctx.log.error({ err }, "loading the registered Docker engines failed"));
    enginesLoaded();
  });
  registerMonitoringRoutes(api, nodes.health);
  registerTemplatesModule(api, ctx);
  registerNodeRpcModule(api, nodes.service, keys);
  const fabricNetworks = registerFabricNetworksModule(api, {
    db: ctx.db,
    keys,
    nodes: nodes.service,
    dataDir: ctx.config.dataDir,
  });
  nodes.service.addUsageChecker((nodeId) => fabricNetworks.nodeUsage(nodeId));
  // One execution boundary for every program built or run from user code (chaincode, projects, plugins).
  const sandbox = sandboxFromConfig(ctx.config, ctx.log);
  // Long work (project runs, chaincode steps, backups) reports its phases here, live and after a reload.
  const operations = registerOperationsModule(api, ctx);
  const chaincodes = registerChaincodesModule(api, ctx, {
    operations,
    sandbox,
    docker,
    fabric: fabricNetworks.ctx,
    keys,
    defaults: nodes.defaults,
  });
  const projects = registerProjectsModule(api, ctx, chaincodes, sandbox, operations);
  fabricNetworks.addUsageChecker((networkId) => projects.networkUsage(networkId));
  fabricNetworks.addUsageChecker((networkId) => chaincodes.service.networkUsage(networkId));
  keys.addUsageChecker((keyId) => chaincodes.service.keyUsage(keyId));
  const backups = registerBackupsModule(api, ctx, {
    masterKey: providers.masterKey,
    nodes: nodes.service,
    nodesAdopted: nodes.adopted,
  });
  const metrics = registerMetricsModule(api, ctx, { docker });
  const plugins = registerPluginsModule(api, ctx, {
    sandbox,
    docker,
    fabric: fabricNetworks.ctx,
    keys,
    nodes: nodes.service,
    settings,
  });
  // Plugins' metrics endpoints are scraped by the managed Prometheus beside the nodes.
  metrics.service.addJobSource(async () =>
    (await plugins.service.scrapeTargets()).map((m) => ({
      job: m.job,
      nodeId: 0,
      nodeName: m.plugin,
      nodeType: "PLUGIN",
      platform: "PLUGIN",
      target: m.target,
      path: m.path,
      labels: { plugin: m.plugin, service: m.service },
      source: "plugin" as const,
      ...(m.interval ? { interval: m.interval } : {}),
    })),
  );
  registerNotificationProvidersModule(api, ctx, { masterKey: providers.masterKey });
  const governance = registerGovernanceModule(api, ctx, {
    change: fabricNetworks.change,
    fabric: fabricNetworks.ctx,
    chaincodes: chaincodes.service,
  });
  const federation = registerFederationModule(api, ctx, {
    masterKey: providers.masterKey,
    settings,
    fabric: fabricNetworks,
    besu: besuNetworks,
    keys,
    metrics: metrics.service,
    inbound: [governance.inbound],
    governance: governance.upstream,
  });
  governance.bindFederation(federation.plumbing);
  fabricNetworks.bindProposals(governance.service);
  metrics.bindFederation(federation.metrics);
  registerBesuBulkRoutes(
    api,
    createBesuBulk({ keys, networks: besuNetworks, nodes: nodes.service, defaults: nodes.defaults, bus: ctx.bus }),
  );
  besuNetworks.addUsageChecker(async (networkId) => {
    const { items } = await nodes.service.list({ networkId }, 1, 1);
    return items[0] ? `node '${items[0].name}'` : null;
  });
  orgs.addUsageChecker(async (organizationId) => {
    const { items } = await nodes.service.list({ organizationId }, 1, 1);
    return items[0] ? `node '${items[0].name}'` : null;
  });

  const hub = createWsHub();
  ctx.auth.onSignedOut((e) => hub.close(e));
  const notifications = createNotificationsService({ repo: createNotificationsRepo(ctx.db), bus: ctx.bus, hub });
  const unsubscribe = notifications.start();
  registerNotificationsRoutes(api, notifications);
  registerWsRoute(api, hub, ctx.config.allowedOrigins);
  const alerts = registerAlertsModule(api, ctx, { settings });

  let stopping = "";
  return {
    stopping: () => stopping,
    async stop() {
      // A step that takes long is named in the log (a close that hangs says where).
      const timed = async (name: string, fn: () => Promise<void>) => {
        stopping = name;
        const started = Date.now();
        const slow = setTimeout(
          () => ctx.log.warn({ step: name }, "closing: still waiting for a module to stop"),
          5000,
        );
        try {
          await fn();
        } finally {
          clearTimeout(slow);
          if (Date.now() - started > 5000) ctx.log.warn({ step: name, ms: Date.now() - started }, "closing: slow stop");
        }
      };
      await timed("alerts", () => alerts.close());
      await timed("federation", () => federation.close());
      unsubscribe();
      backups.close();
      nodes.close();
      chaincodes.close();
      plugins.close();
    },
  };
}
