import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";
import type { BesuNetworksService } from "../besu-networks/besu-networks.service.js";
import type { FabricNetworksService } from "../fabric-networks/fabric-networks.service.js";
import type { KeysService } from "../keys/keys.service.js";
import type { PrometheusService } from "../metrics/prometheus.service.js";
import type { SettingsService } from "../settings/settings.service.js";
import { createExternalNodesRepo } from "./external-nodes.repo.js";
import { registerExternalNodesRoutes } from "./external-nodes.routes.js";
import { createExternalNodesService } from "./external-nodes.service.js";
import { createFederationClient, type FederationClient } from "./federation.client.js";
import { createIdentityService } from "./federation.identity.js";
import { registerFederationInboundRoutes, type SignedRoutes } from "./federation.inbound.routes.js";
import { createMetricsFederation, createPeerGrants, type MetricsFederation } from "./federation.metrics.js";
import { metricsInboundRoutes, registerMetricsFederationRoutes } from "./federation.metrics.routes.js";
import { createPingLoop } from "./federation.monitor.js";
import { createFederationRepo, type ConnectionRow } from "./federation.repo.js";
import { registerFederationRoutes } from "./federation.routes.js";
import { createFederationService, type FederationService } from "./federation.service.js";
import { createInboundVerifier } from "./federation.verify.js";
import { createKeySharing } from "./key-sharing.js";
import { createNetworkShares } from "./sharing.receive.js";
import { createSharingRepo } from "./sharing.repo.js";
import { registerSharingRoutes } from "./sharing.routes.js";
import { createNetworkShareSender } from "./sharing.send.js";
import type { GovernanceUpstream } from "../governance/governance.upstream.js";
import { createChaincodeSharing } from "./chaincode-sharing.js";
import { upstreamInboundRoutes } from "./upstream.inbound.js";
import { registerUpstreamRoutes } from "./upstream.routes.js";
import { createUpstreamNodeService } from "./upstream.service.js";
import { createConfigProposalSharing } from "./upstream.share.js";

export interface FederationModule {
  service: FederationService;
  /** The signed client and the connections, for modules that talk to connected consoles. */
  plumbing: {
    client: FederationClient;
    connections(): Promise<ConnectionRow[]>;
    connectionById(id: number): Promise<ConnectionRow | undefined>;
    connectionByNodeId(nodeId: string): Promise<ConnectionRow | undefined>;
  };
  /** Queries of connected consoles' node metrics (the metrics module's /metrics/connection/{id}/* routes). */
  metrics: MetricsFederation;
  close(): Promise<void>;
}

/**
 * Federation between consoles (docs/federation.md): identity, invitations, connections with a
 * live ping, the signed console-to-console routes, external nodes and metrics federation. The ping loop starts when
 * the app is ready (the master key is loaded then) and stops when it closes.
 */
export function registerFederationModule(
  api: FastifyInstance,
  ctx: Pick<AppContext, "db" | "dialect" | "log" | "config" | "bus">,
  deps: {
    masterKey: () => { key: Buffer };
    settings: Pick<SettingsService, "get">;
    fabric: Pick<FabricNetworksService, "get" | "importBlock">;
    besu: Pick<BesuNetworksService, "get" | "import">;
    keys: Pick<KeysService, "get">;
    metrics: Pick<PrometheusService, "federatedQuery" | "federatedLabelValues" | "status">;
    /** Governance's receivers and sender, for upstream's /pro/receive* and /pro/sharing/config-proposal. */
    governance?: GovernanceUpstream;
    /** Signed routes of other modules (governance), given the client to answer through. */
    inbound?: SignedRoutes[];
  },
): FederationModule {
  const repo = createFederationRepo(ctx.db);
  const identity = createIdentityService({
    repo,
    masterKey: deps.masterKey,
    settings: deps.settings,
    publicUrl: ctx.config.publicUrl,
  });
  const client = createFederationClient({ identity, timeoutMs: 15_000 });
  const peerGrants = createPeerGrants();
  const service = createFederationService({ repo, identity, client, peerGrants });
  const external = createExternalNodesService({ repo: createExternalNodesRepo(ctx.db), federation: service, client });
  const loop = createPingLoop({
    repo,
    client,
    pruneNonces: service.pruneNonces,
    onPeerGrant: peerGrants.set,
    intervalMs: ctx.config.federationPingMs,
    log: ctx.log,
  });
  const sharingRepo = createSharingRepo(ctx.db, ctx.dialect);
  const connections = () => repo.listConnections();
  const sharing = {
    sender: createNetworkShareSender({
      repo: sharingRepo,
      connections,
      client,
      fabric: deps.fabric,
      besu: deps.besu,
      bus: ctx.bus,
    }),
    shares: createNetworkShares({
      repo: sharingRepo,
      connections,
      myNodeId: service.nodeId,
      fabric: deps.fabric,
      besu: deps.besu,
      bus: ctx.bus,
      client,
      log: ctx.log,
    }),
    keys: createKeySharing({ repo: sharingRepo, connections, client, keys: deps.keys }),
  };
  registerFederationRoutes(api, service, external);
  registerExternalNodesRoutes(api, external);
  registerSharingRoutes(api, sharing);
  const metrics = createMetricsFederation({ repo, client, metrics: deps.metrics, peerGrants });
  registerMetricsFederationRoutes(api, metrics);
  // upstream's route set over the same services (docs/federation-upstream.md).
  const node = createUpstreamNodeService({ repo, identity, metrics: deps.metrics });
  const chaincodes = createChaincodeSharing({ repo: sharingRepo, connections, client });
  registerUpstreamRoutes(api, {
    node,
    chaincodes,
    proposals: createConfigProposalSharing({ governance: () => deps.governance, connections }),
    myNodeId: service.nodeId,
  });
  registerFederationInboundRoutes(
    api,
    service,
    external,
    createInboundVerifier({ repo, identity }),
    { networks: sharing.shares, keys: sharing.keys, answers: sharing.sender },
    [
      metricsInboundRoutes(metrics),
      upstreamInboundRoutes({
        svc: service,
        external,
        networks: sharing.shares,
        keys: sharing.keys,
        chaincodes,
        node,
        governance: deps.governance,
      }),
      ...(deps.inbound ?? []),
    ],
  );
  api.addHook("onReady", async () => loop.start());
  return {
    service,
    plumbing: {
      client,
      connections,
      connectionById: (id) => repo.connectionById(id),
      connectionByNodeId: (nodeId) => repo.connection(nodeId),
    },
    metrics,
    close: () => loop.stop(),
  };
}
