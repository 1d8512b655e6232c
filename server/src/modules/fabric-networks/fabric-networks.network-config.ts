import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { buildConnectionProfile, renderConnectionProfile } from "../../fabric/connection-profile.js";
import { NotFoundError } from "../../http/errors.js";
import type { KeysService } from "../keys/keys.service.js";
import type { OrganizationsRepo } from "../organizations/organizations.repo.js";
import { exportsDir, writeAdminMsp } from "./admin-msp.js";
import { channelOrderers, joinedNodes, storedChannelSummary } from "./channel-orderers.js";
import { dialAddress, type FabricContext } from "./fabric-networks.context.js";
import type { FabricNetworksRepo } from "./fabric-networks.repo.js";
import { idParams, tags } from "./fabric-networks.routes.js";

const params = lazySchema(() =>
  z
    .object({
      id: idParams.unwrap().shape.id,
      orgId: idParams.unwrap().shape.id.describe("Organization id"),
    })
    .strict(),
);

export interface NetworkConfigDeps {
  ctx: Pick<FabricContext, "network" | "org" | "tryNode" | "toInfo">;
  repo: Pick<FabricNetworksRepo, "members">;
  orgs: Pick<OrganizationsRepo, "byId">;
  keys: Pick<KeysService, "row" | "exportPrivateKeyPem">;
  dataDir: string;
}

/**
 * One org's connection profile for one channel (the YAML fabric-sdk-go and the Fabric SDKs read),
 * from what the console knows: the org's joined peers, the channel's orderers, and its admin. The
 * admin's MSP folder is written under `<dataDir>/exports/<MSP>-admin-network-config/msp` and the
 * profile names the key file by path: a private key never travels in a response.
 */
export function createNetworkConfig(deps: NetworkConfigDeps) {
  return async function networkConfig(
    networkId: number,
    orgId: number,
  ): Promise<{ yaml: string; mspId: string; keyFile: string }> {
    const network = await deps.ctx.network(networkId);
    if (!(await deps.orgs.byId(orgId))) throw new NotFoundError(`organization ${orgId} not found`);
    const org = await deps.ctx.org(orgId, "orgId");
    const peers = (await joinedNodes(deps.ctx, deps.repo, network.id, "peer")).filter(
      (p) => p.organizationId === orgId,
    );
    const orderers = await channelOrderers(deps.ctx, deps.repo, network);
    const inConfig = storedChannelSummary(network);
    const member =
      peers.length > 0 ||
      orderers.some((o) => o.mspId === org.mspId) ||
      [...(inConfig?.application ?? []), ...(inConfig?.orderer ?? [])].some((o) => o.mspId === org.mspId);
    if (!member) {
      throw new NotFoundError(`organization ${org.mspId} is not a member of network '${network.name}'`);
    }
    const msp = await writeAdminMsp(
      deps.keys,
      org,
      join(exportsDir(deps.dataDir), `${org.mspId}-admin-network-config`, "msp"),
    );
    const profile = buildConnectionProfile({
      name: `${network.name}-${org.mspId}`,
      channel: network.name,
      mspId: org.mspId,
      adminCertPem: msp.signCertPem,
      adminKeyPath: msp.keyFile,
      peers: peers.map((p) => ({ name: p.name, address: dialAddress(p.endpoint), tlsCaPem: p.tlsCaCert })),
      orgOrderers: orderers.filter((o) => o.mspId === org.mspId).map((o) => o.name),
      orderers: orderers.map((o) => ({ name: o.name, address: o.address, tlsCaPem: o.tlsCaPem })),
    });
    return { yaml: renderConnectionProfile(profile), mspId: org.mspId, keyFile: msp.keyFile };
  };
}

/**
 * GET .../organizations/:orgId/network-config, the path upstream's CLI (`network-config pull`) and
 * Terraform data source call, and .../config, the path upstream's OpenAPI document names for the
 * same handler. It writes the admin's key to the console host, so it needs what the MSP export
 * needs (ORGANIZATION_UPDATE) and is audited.
 */
export function registerNetworkConfigRoutes(
  app: FastifyInstance,
  networkConfig: ReturnType<typeof createNetworkConfig>,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const [suffix, operationId] of [
    ["network-config", "getFabricOrgNetworkConfig"],
    ["config", "getFabricOrgConfig"],
  ] as const) {
    r.get(
      `/networks/fabric/:id/organizations/:orgId/${suffix}`,
      {
        config: { access: "ORGANIZATION_UPDATE", audit: "fabric_network.network_config" },
        schema: {
          operationId,
          tags,
          summary: "An org's connection profile (network config) for the channel, as YAML",
          description:
            "The org's joined peers and the channel's orderers (grpcs URLs, TLS CAs, hostname overrides) and the org's admin user. The admin's MSP folder is written on the console host under <data>/exports; the profile inlines the admin certificate and names the key file by path (key.path), never holding the key.",
          params,
          produces: ["text/yaml"],
          response: { 200: lazySchema(() => z.string().describe("Connection profile (text/yaml)")) },
        },
      },
      async (req, reply) => {
        req.auditInfo.resource = `network:${req.params.id}`;
        req.auditInfo.details = { organizationId: req.params.orgId };
        const out = await networkConfig(req.params.id, req.params.orgId);
        req.auditInfo.details = { organizationId: req.params.orgId, mspId: out.mspId, keyFile: out.keyFile };
        return reply.type("text/yaml").send(out.yaml);
      },
    );
  }
}
