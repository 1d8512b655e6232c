import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { computeConfigUpdate, evaluateUpdatePolicies } from "../../fabric/configtx/index.js";
import { ConflictError } from "../../http/errors.js";
import { dbId, lazySchema } from "../../http/schema-helpers.js";
import { applyOperation, type FabricChange } from "./fabric-networks.change.js";
import type { ConfigOperation, ConfigOperationInput } from "./fabric-networks.change.schema.js";
import { libraryInput, type FabricContext } from "./fabric-networks.context.js";
import { idParams, tags } from "./fabric-networks.routes.js";

/**
 * What adding an org needs from governance when this console's orgs can't sign the update alone.
 * Governance depends on this module's change service, so it is bound after both are registered.
 */
export interface OrgProposals {
  create(
    input: { network_id: number; proposal_type: string; operations: ConfigOperationInput[] },
    by: string,
  ): Promise<{ id: string; policy: { missing: string[]; summary: string } }>;
  sign(id: string, mspId: string, by: string): Promise<unknown>;
}

export const addOrganizationBody = lazySchema(() =>
  z.object({ organizationId: dbId().describe("An organization this console holds, to add to the channel") }).strict(),
);

export const addOrganizationResponse = lazySchema(() =>
  z.object({
    outcome: z
      .enum(["applied", "proposed"])
      .describe(
        "applied: the config update is on the chain; proposed: the channel's policy needs orgs this console does not hold, so a governance proposal was created and signed by this console's orgs",
      ),
    mspId: z.string().describe("The organization's MSP id"),
    signedBy: z.array(z.string()).describe("MSP ids of this console's orgs that signed"),
    missing: z.array(z.string()).describe("MSP ids whose signatures the policy still needs (empty when applied)"),
    policy: z.string().describe("The modification policy's verdict, e.g. '1 of 2 orgs signed'"),
    transactionId: z.string().optional().describe("Config update tx id (applied)"),
    configBlockNumber: z.number().int().optional().describe("Number of the new config block (applied)"),
    proposalId: z.string().optional().describe("The governance proposal to share and sign (proposed)"),
  }),
);
export type AddOrganizationResponse = z.infer<typeof addOrganizationResponse>;

/**
 * Adds one of this console's organizations to a channel's application orgs: the add_org update is
 * computed against the current config, and when the admins of the channel orgs this console holds
 * satisfy its modification policy they sign and submit it; otherwise it becomes a governance
 * proposal (signed here by those orgs) that the other orgs' consoles sign.
 */
export function createAddOrganization(deps: {
  ctx: Pick<FabricContext, "network" | "org">;
  change: Pick<FabricChange, "readCurrent" | "heldOrgs" | "updateConfig">;
  proposals: () => OrgProposals | undefined;
}) {
  const { ctx, change } = deps;
  return async function addOrganization(
    networkId: number,
    organizationId: number,
    by: string,
  ): Promise<AddOrganizationResponse> {
    const network = await ctx.network(networkId);
    const org = await ctx.org(organizationId, "organizationId");
    const op: ConfigOperation = {
      type: "add_org",
      payload: { msp_id: org.mspId, root_certs: [org.signCaCert], tls_root_certs: [org.tlsCaCert] },
    };
    const { current } = await change.readCurrent(network);
    const app = current.getChannelGroup()?.getGroupsMap().get("Application");
    if (app?.getGroupsMap().has(org.mspId)) {
      throw new ConflictError(
        `organizationId: organization ${org.mspId} is already a member of channel '${network.name}'`,
        { field: "organizationId" },
      );
    }
    const update = libraryInput("", () => computeConfigUpdate(network.name, current, applyOperation(current, op, 0)));
    const held = await change.heldOrgs(current);
    const heldMsps = held.map((h) => h.mspId);
    const verdict = evaluateUpdatePolicies(current, update, heldMsps);
    if (verdict.satisfied) {
      const res = await change.updateConfig(
        network.id,
        [op],
        held.map((h) => h.row.id),
        by,
      );
      return {
        outcome: "applied",
        mspId: org.mspId,
        signedBy: heldMsps,
        missing: [],
        policy: verdict.summary,
        transactionId: res.id,
        configBlockNumber: res.configBlockNumber,
      };
    }
    const proposals = deps.proposals();
    if (!proposals) throw new Error("governance is not wired");
    const p = await proposals.create({ network_id: network.id, proposal_type: "add_org", operations: [op] }, by);
    for (const msp of heldMsps) await proposals.sign(p.id, msp, by);
    return {
      outcome: "proposed",
      mspId: org.mspId,
      signedBy: heldMsps,
      missing: verdict.missing,
      policy: verdict.summary,
      proposalId: p.id,
    };
  };
}

/** POST /networks/fabric/{id}/organizations (a product addition: upstream has no such route). */
export function registerAddOrganizationRoute(
  app: FastifyInstance,
  addOrganization: ReturnType<typeof createAddOrganization>,
): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    "/networks/fabric/:id/organizations",
    {
      config: { access: "NETWORK_UPDATE", audit: "fabric_network.add_organization" },
      schema: {
        operationId: "addFabricNetworkOrganization",
        tags,
        summary: "Add one of this console's organizations to the channel (a config update, or a proposal)",
        description:
          "Signed and submitted by the admins of the channel's orgs this console holds when they satisfy the channel's modification policy; otherwise a governance proposal is created, signed by those orgs, for the other orgs to sign. 409 when the organization is already a member.",
        params: idParams,
        body: addOrganizationBody,
        response: { 200: addOrganizationResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `network:${req.params.id}`;
      const res = await addOrganization(req.params.id, req.body.organizationId, req.principal?.username ?? "");
      req.auditInfo.details = {
        organizationId: req.body.organizationId,
        outcome: res.outcome,
        ...(res.proposalId ? { proposalId: res.proposalId } : {}),
      };
      return res;
    },
  );
}
