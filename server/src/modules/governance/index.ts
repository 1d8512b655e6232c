import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";
import type { FabricChange } from "../fabric-networks/fabric-networks.change.js";
import type { FabricContext } from "../fabric-networks/fabric-networks.context.js";
import type { SignedRoutes } from "../federation/federation.inbound.routes.js";
import { createGovernanceRepo } from "./governance.repo.js";
import { registerGovernanceRoutes } from "./governance.routes.js";
import { registerChaincodeProposalRoutes } from "./chaincode-proposals.routes.js";
import { AppError } from "../../http/errors.js";
import { createGovernanceService, type GovernanceService } from "./governance.service.js";
import { governanceInboundRoutes } from "./governance.inbound.js";
import { createGovernanceSharing, type FederationPlumbing } from "./governance.share.js";

/**
 * Channel config-update proposals signed across consoles (docs/governance.md). Federation is
 * registered after this module (it needs the inbound routes), so its plumbing is bound late.
 */
export function registerGovernanceModule(
  api: FastifyInstance,
  ctx: Pick<AppContext, "db" | "bus">,
  deps: { change: FabricChange; fabric: Pick<FabricContext, "network" | "orgByMspId"> },
): { service: GovernanceService; inbound: SignedRoutes; bindFederation(f: FederationPlumbing): void } {
  const repo = createGovernanceRepo(ctx.db);
  let federation: FederationPlumbing | undefined;
  const sharing = createGovernanceSharing({
    repo,
    federation: () => {
      if (!federation) throw new Error("federation is not wired");
      return federation;
    },
    networkIdByChannel: async (name) => (await repo.fabricNetworkByName(name))?.id ?? null,
    // Without a running node of the channel, a received proposal is accepted as sent.
    channelConfig: (id) =>
      deps.fabric
        .network(id)
        .then((n) => deps.change.newestConfig(n))
        .catch(() => null),
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
  // Contract first: the chaincode-proposal service lands in the next commits.
  const pending = (): never => {
    throw new AppError("chaincode proposals are not built yet", 501, "NOT_IMPLEMENTED");
  };
  registerChaincodeProposalRoutes(api, {
    create: pending,
    list: pending,
    get: pending,
    share: pending,
    accept: pending,
  });
  return {
    service,
    inbound: governanceInboundRoutes(sharing),
    bindFederation: (f) => {
      federation = f;
    },
  };
}
