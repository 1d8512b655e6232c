import type { BesuDeployment } from "./besu-node.js";
import type { FabricDeployment } from "./fabric-node.js";
import type { NodeRow } from "./nodes.repo.js";
import type { NodeResponse } from "./nodes.schema.js";

export type Deployment = FabricDeployment | BesuDeployment | { kind?: undefined };

export function deploymentOf(row: NodeRow): Deployment {
  try {
    const d = JSON.parse(row.deployment) as Deployment;
    return d && typeof d === "object" ? d : {};
  } catch {
    return {};
  }
}

/** The node as the API shows it; private keys never leave the keys service. */
export function toNodeResponse(row: NodeRow): NodeResponse {
  const d = deploymentOf(row);
  const out: NodeResponse = {
    id: row.id,
    name: row.name,
    platform: row.platform as NodeResponse["platform"],
    nodeType: row.node_type as NodeResponse["nodeType"],
    status: row.status as NodeResponse["status"],
    ...(row.error_message ? { errorMessage: row.error_message } : {}),
    endpoint: row.endpoint ?? "",
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (d.kind === "fabric") {
    const common = {
      organizationId: d.organizationId,
      mspId: d.mspId,
      listenAddress: d.listenAddress,
      externalEndpoint: d.externalEndpoint,
      operationsAddress: d.operationsAddress,
      domainNames: d.domainNames,
      mode: d.mode ?? "service",
      ...(d.mode === "docker" ? { dockerEngine: d.engine ?? "local" } : {}),
      version: d.version,
      signKeyId: d.signKeyId,
      tlsKeyId: d.tlsKeyId,
      signCert: d.signCert,
      tlsCert: d.tlsCert,
      signCaCert: d.signCaCert,
      tlsCaCert: d.tlsCaCert,
    };
    if (d.role === "peer") {
      out.fabricPeer = {
        ...common,
        chaincodeAddress: d.chaincodeAddress ?? "",
        eventsAddress: d.eventsAddress ?? "",
        addressOverrides: d.addressOverrides,
      };
    } else {
      out.fabricOrderer = { ...common, adminAddress: d.adminAddress ?? "" };
    }
  }
  if (d.kind === "besu") {
    out.besuNode = {
      ...d.props,
      networkId: d.networkId,
      keyId: d.keyId,
      enodeUrl: d.enodeUrl,
      mode: d.mode ?? "service",
    };
  }
  return out;
}
