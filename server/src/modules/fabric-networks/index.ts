import type { FastifyInstance } from "fastify";
import type { DB } from "../../db/db.js";
import type { KeysService } from "../keys/keys.service.js";
import type { NodesService } from "../nodes/nodes.service.js";
import { createOrganizationPki } from "../organizations/organization-pki.service.js";
import { createOrganizationsRepo } from "../organizations/organizations.repo.js";
import { registerFabricChannelRoutes } from "./fabric-networks.channel.routes.js";
import { createFabricChange, type FabricChange } from "./fabric-networks.change.js";
import { createFabricInspect } from "./fabric-networks.inspect.js";
import { createFabricNetworksRepo } from "./fabric-networks.repo.js";
import { registerFabricNetworksRoutes } from "./fabric-networks.routes.js";
import { createFabricNetworksService, type FabricNetworksService } from "./fabric-networks.service.js";
import { registerNodeChannelRoutes } from "./node-channels.js";
import { createExternalNodesRepo } from "../federation/external-nodes.repo.js";
import { createExternalRefs } from "./fabric-networks.external.js";
import { createNetworkConfig, registerNetworkConfigRoutes } from "./fabric-networks.network-config.js";
import { createFabricTx, registerFabricTxRoutes } from "./fabric-networks.tx.js";
import { createAddOrganization, registerAddOrganizationRoute, type OrgProposals } from "./fabric-networks.add-org.js";

/** Wires the Fabric networks module (channels on this console's peers and orderers). */
export function registerFabricNetworksModule(
  api: FastifyInstance,
  deps: { db: DB; keys: KeysService; nodes: Pick<NodesService, "get" | "peerOffline">; dataDir: string },
): FabricNetworksService & { change: FabricChange; bindProposals(p: OrgProposals): void } {
  const orgs = createOrganizationsRepo(deps.db);
  // Organizations and orderers synced from other consoles (federation), usable in config updates and imports.
  const external = createExternalRefs(createExternalNodesRepo(deps.db));
  const svc = createFabricNetworksService({
    repo: createFabricNetworksRepo(deps.db),
    nodes: deps.nodes,
    orgs,
    keys: deps.keys,
    pki: createOrganizationPki({ repo: orgs, keys: deps.keys }),
    external,
  });
  registerFabricNetworksRoutes(api, svc);
  const repo = createFabricNetworksRepo(deps.db);
  const inspect = createFabricInspect({ ctx: svc.ctx, repo });
  const change = createFabricChange({
    ctx: svc.ctx,
    repo,
    inspect,
    pki: createOrganizationPki({ repo: orgs, keys: deps.keys }),
    external,
  });
  registerFabricChannelRoutes(api, inspect, change);
  let proposals: OrgProposals | undefined;
  registerAddOrganizationRoute(api, createAddOrganization({ ctx: svc.ctx, change, proposals: () => proposals }));
  registerNodeChannelRoutes(api, svc.nodeChannels);
  registerFabricTxRoutes(api, createFabricTx({ ctx: svc.ctx, repo, inspect }));
  registerNetworkConfigRoutes(
    api,
    createNetworkConfig({ ctx: svc.ctx, repo, orgs, keys: deps.keys, dataDir: deps.dataDir }),
  );
  // Governance proposals compute, and submit, config updates through the same change path.
  // Adding an org the channel's policy needs other consoles for becomes a governance proposal.
  return Object.assign(svc, {
    change,
    bindProposals: (p: OrgProposals) => {
      proposals = p;
    },
  });
}
