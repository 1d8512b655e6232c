import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import {
  allExternalNodesResponse,
  externalBesuNode,
  externalFabricOrderer,
  externalFabricPeer,
  externalIdParams,
  externalOrganization,
  messageResponse,
} from "./federation.schema.js";
import type { ExternalNodesService } from "./external-nodes.service.js";

const tags = ["ExternalNodes"];

/** /external-nodes: organizations and nodes synced from connected consoles (upstream's DTOs). */
export function registerExternalNodesRoutes(app: FastifyInstance, svc: ExternalNodesService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/external-nodes",
    {
      config: { access: "FEDERATION_READ" },
      schema: {
        operationId: "listAllExternalNodes",
        tags,
        summary: "List all external nodes (all types)",
        response: { 200: allExternalNodesResponse },
      },
    },
    async () => ({
      fabric_peers: await svc.peers(),
      fabric_orderers: await svc.orderers(),
      besu_nodes: await svc.besuNodes(),
    }),
  );
  const kinds = [
    ["fabric-organizations", "organization", "FabricOrganization", "Fabric organizations", externalOrganization],
    ["fabric-peers", "peer", "FabricPeer", "Fabric peers", externalFabricPeer],
    ["fabric-orderers", "orderer", "FabricOrderer", "Fabric orderers", externalFabricOrderer],
    ["besu-nodes", "besu", "BesuNode", "Besu nodes", externalBesuNode],
  ] as const;
  for (const [path, kind, opName, label, item] of kinds) {
    const list =
      kind === "organization"
        ? svc.organizations
        : kind === "peer"
          ? svc.peers
          : kind === "orderer"
            ? svc.orderers
            : svc.besuNodes;
    r.get(
      `/external-nodes/${path}`,
      {
        config: { access: "FEDERATION_READ" },
        schema: {
          operationId: `listExternal${opName}s`,
          tags,
          summary: `List external ${label}`,
          response: { 200: lazySchema(() => z.array(item)) },
        },
      },
      async () => list(),
    );
    r.delete(
      `/external-nodes/${path}/:id`,
      {
        config: { access: "FEDERATION_MANAGE", audit: "external_node.delete" },
        schema: {
          operationId: `deleteExternal${opName}`,
          tags,
          summary: `Delete an external ${label.replace(/s$/, "")} (a later sync brings it back if its console still has it)`,
          params: externalIdParams,
          response: { 200: messageResponse },
        },
      },
      async (req) => {
        req.auditInfo.resource = `external_${kind}:${req.params.id}`;
        await svc.remove(kind, req.params.id);
        return { message: `external ${label.replace(/s$/, "")} ${req.params.id} deleted` };
      },
    );
  }
}
