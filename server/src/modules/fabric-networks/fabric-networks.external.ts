import { InputError, NotFoundError } from "../../http/errors.js";
import type { ExternalNodesRepo } from "../federation/external-nodes.repo.js";
import type { ConfigOperation, ConfigOperationInput } from "./fabric-networks.change.schema.js";

/**
 * Organizations and orderers synced from other consoles (docs/federation.md, "External nodes"), used
 * where a channel takes them: an org added by a config update, the orderer a channel is imported from.
 * Only public material is read: certificates and addresses.
 */
export function createExternalRefs(
  repo: Pick<ExternalNodesRepo, "organizationById" | "fabricNodeById" | "orderersOf">,
) {
  async function organization(id: number, field: string) {
    const org = await repo.organizationById(id);
    if (!org) throw new NotFoundError(`${field}: no external organization with id ${id}`);
    return org;
  }

  return {
    /**
     * The operations with `external_organization_id` replaced by the organization's MSP id, sign CA
     * and TLS CA certificates; `add_orderer_org` without `orderer_endpoints` gets its orderers'
     * external endpoints. Operations given with certificates are returned as they are.
     */
    async resolveOperations(ops: ConfigOperationInput[]): Promise<ConfigOperation[]> {
      const out: ConfigOperation[] = [];
      for (const [i, o] of ops.entries()) {
        if ((o.type !== "add_org" && o.type !== "add_orderer_org") || !("external_organization_id" in o.payload)) {
          out.push(o as ConfigOperation);
          continue;
        }
        const field = `body.operations[${i}].payload`;
        const org = await organization(o.payload.external_organization_id, `${field}.external_organization_id`);
        const certs = { msp_id: org.msp_id, root_certs: [org.sign_certificate], tls_root_certs: [org.tls_certificate] };
        if (o.type === "add_org") {
          out.push({ type: "add_org", payload: certs });
          continue;
        }
        let endpoints = o.payload.orderer_endpoints;
        if (!endpoints) {
          endpoints = (await repo.orderersOf(org)).map((n) => n.external_endpoint).filter((e) => e !== "");
          if (endpoints.length === 0) {
            throw new InputError(
              `${field}.orderer_endpoints: external organization ${org.msp_id} has no synced orderers; give orderer_endpoints`,
            );
          }
        }
        out.push({ type: "add_orderer_org", payload: { ...certs, orderer_endpoints: endpoints.slice(0, 20) } });
      }
      return out;
    },

    /** An external orderer's endpoint and the TLS CA certificate that issued its TLS certificate. */
    async orderer(id: number, field: string): Promise<{ url: string; tlsCaCert: string }> {
      const node = await repo.fabricNodeById(id, "orderer");
      if (!node) throw new NotFoundError(`${field}: no external orderer with id ${id}`);
      if (!node.external_endpoint) throw new InputError(`${field}: external orderer ${node.name} has no endpoint`);
      return { url: node.external_endpoint, tlsCaCert: node.tls_ca_certificate };
    },
  };
}

export type ExternalRefs = ReturnType<typeof createExternalRefs>;
