import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";
import type { FabricChange } from "../fabric-networks/fabric-networks.change.js";
import type { FabricContext } from "../fabric-networks/fabric-networks.context.js";
import type { SignedRoutes } from "../federation/federation.inbound.routes.js";
import { createGovernanceRepo } from "./governance.repo.js";
import { registerGovernanceRoutes } from "./governance.routes.js";
import { registerChaincodeProposalRoutes } from "./chaincode-proposals.routes.js";
import { join } from "node:path";
import { createChaincodeProposalsRepo } from "./chaincode-proposals.repo.js";
import { createChaincodeProposals, type ProposalChaincodes } from "./chaincode-proposals.service.js";
import { createChaincodeProposalSharing } from "./chaincode-proposals.share.js";
import { createGovernanceService, type GovernanceService } from "./governance.service.js";
import { governanceInboundRoutes } from "./governance.inbound.js";
import { createGovernanceSharing, type FederationPlumbing } from "./governance.share.js";
import { createGovernanceUpstream, type GovernanceUpstream } from "./governance.upstream.js";

/**
 * Channel config-update proposals signed across consoles (docs/governance.md). Federation is
 * registered after this module (it needs the inbound routes), so its plumbing is bound late.
 */
export function registerGovernanceModule(
  api: FastifyInstance,
  ctx: Pick<AppContext, "db" | "bus" | "config">,
  deps: {
    change: FabricChange;
    fabric: Pick<FabricContext, "network" | "orgByMspId">;
    chaincodes: ProposalChaincodes;
  },
): {
  service: GovernanceService;
  inbound: SignedRoutes;
  /** The receivers and sender federation's upstream route set dispatches to. */
  upstream: GovernanceUpstream;
  bindFederation(f: FederationPlumbing): void;
} {
  const repo = createGovernanceRepo(ctx.db);
  let federation: FederationPlumbing | undefined;
  const federationOf = (): FederationPlumbing => {
    if (!federation) throw new Error("federation is not wired");
    return federation;
  };
  const networkIdByChannel = async (name: string): Promise<number | null> =>
    (await repo.fabricNetworkByName(name))?.id ?? null;
  // Without a running node of the channel, a received proposal is accepted as sent.
  const channelConfig = (id: number) =>
    deps.fabric
      .network(id)
      .then((n) => deps.change.newestConfig(n))
      .catch(() => null);
  const sharing = createGovernanceSharing({
    repo,
    federation: federationOf,
    networkIdByChannel,
    channelConfig,
    bus: ctx.bus,
  });
  const service = createGovernanceService({
    repo,
    change: deps.change,
    ctx: deps.fabric,
    onSubmitted: (p, txId) => sharing.notifySubmitted(p, txId),
    beforeWithdraw: (p, s) => sharing.withdrawShared(p, s),
  });
  registerGovernanceRoutes(api, service, sharing);
  const proposals = createChaincodeProposals({
    repo: createChaincodeProposalsRepo(ctx.db),
    chaincodes: deps.chaincodes,
    fabric: deps.fabric,
  });
  const ccSharing = createChaincodeProposalSharing({
    repo: createChaincodeProposalsRepo(ctx.db),
    proposals,
    federation: federationOf,
    networkIdByChannel,
    bus: ctx.bus,
    dir: join(ctx.config.dataDir, "governance", "chaincode"),
  });
  registerChaincodeProposalRoutes(api, {
    create: (body, user) => proposals.create(body, user),
    list: (networkId) => proposals.list(networkId),
    get: (id) => proposals.get(id),
    share: (id, recipients, user) => ccSharing.share(id, recipients, user),
    accept: (id, user) => proposals.accept(id, user),
    row: (id) => proposals.row(id),
  });
  return {
    service,
    inbound: governanceInboundRoutes(sharing, ccSharing),
    upstream: createGovernanceUpstream({ repo, sharing, chaincode: ccSharing, networkIdByChannel, channelConfig }),
    bindFederation: (f) => {
      federation = f;
    },
  };
}
