import { nowIso } from "../../db/db.js";
import { ConflictError, InputError } from "../../http/errors.js";
import { besuKeyFileFromPem, writeBesuFiles, type BesuDeployment } from "./besu-node.js";
import { reissueFabricCertificates, writeFabricFiles, type FabricDeployment } from "./fabric-node.js";
import { deploymentOf, toNodeResponse } from "./nodes.mapping.js";
import type { NodePlanner } from "./nodes.plan.js";
import type { NodeRunner } from "./nodes.run.js";
import type {
  BesuNodeConfig,
  FabricOrdererConfig,
  FabricPeerConfig,
  NodeResponse,
  UpdateNodeBody,
} from "./nodes.schema.js";
import type { FabricConfig, NodesServiceDeps } from "./nodes.types.js";

/** Changes a node's name or config; a running node restarts with the new one. */
export type NodeUpdate = (id: number, body: UpdateNodeBody) => Promise<NodeResponse>;

/**
 * The update verb of the nodes service, in its own file: it merges the patch into the stored config,
 * re-plans the node against the other nodes' ports, reissues Fabric certificates when the names in
 * them change, rewrites the files and restarts a node that was meant to run.
 */
export function createNodeUpdater(deps: NodesServiceDeps, planner: NodePlanner, runner: NodeRunner): NodeUpdate {
  const { repo, keys } = deps;
  const { mustGet, orgCas, planFabric, planBesu, withExternalBootnodes } = planner;
  const { restartRow } = runner;

  async function update(id: number, body: UpdateNodeBody): Promise<NodeResponse> {
    const row = await mustGet(id);
    if (body.blockchainPlatform && body.blockchainPlatform !== row.platform) {
      throw new InputError(`blockchainPlatform: node ${id} is ${row.platform}`);
    }
    if (body.name && body.name !== row.name && (await repo.byName(body.name))) {
      throw new ConflictError(`name: a node named '${body.name}' already exists`);
    }
    const name = body.name ?? row.name;
    const d = deploymentOf(row);
    const rows = await repo.all();
    let next: FabricDeployment | BesuDeployment;
    let config: unknown;
    if (d.kind === "fabric") {
      const prefix = d.role === "peer" ? "fabricPeer" : "fabricOrderer";
      if ((d.role === "peer" ? body.fabricOrderer : body.fabricPeer) || body.besuNode) {
        throw new InputError(`${prefix}: node ${id} is a ${d.role}; send only ${prefix}`);
      }
      const patch = (body.fabricPeer ?? body.fabricOrderer ?? {}) as Partial<FabricPeerConfig & FabricOrdererConfig>;
      // The read shape echoed back: equal values pass, changes are refused by name.
      const same = (field: string, given: unknown, actual: unknown, why: string): void => {
        if (given !== undefined && given !== actual) throw new InputError(`${prefix}.${field}: ${why}`);
      };
      same("organizationId", patch.organizationId, d.organizationId, "a node cannot move to another organization");
      same("mspId", patch.mspId, d.mspId, `the node's MSP id is ${d.mspId} and cannot change`);
      same("type", patch.type, `fabric-${d.role}`, `node ${id} is a fabric-${d.role}`);
      same("name", patch.name, name, "rename a node with the top-level name");
      const current = JSON.parse(row.config) as FabricConfig & { ordererAddressOverrides?: unknown };
      const merged = {
        ...current,
        listenAddress: patch.listenAddress ?? d.listenAddress,
        externalEndpoint: patch.externalEndpoint ?? d.externalEndpoint,
        operationsListenAddress: patch.operationsListenAddress ?? d.operationsAddress,
        chaincodeAddress: patch.chaincodeAddress ?? d.chaincodeAddress,
        adminAddress: patch.adminAddress ?? d.adminAddress,
        version: patch.version ?? d.version,
        domainNames: patch.domainNames ?? d.domainNames,
        env: patch.env ?? d.env,
        addressOverrides: patch.addressOverrides ?? d.addressOverrides,
        ...(patch.ordererAddressOverrides ? { ordererAddressOverrides: patch.ordererAddressOverrides } : {}),
        ...(patch.certificateExpiration ? { certificateExpiration: patch.certificateExpiration } : {}),
        ...(patch.autoRenewalEnabled !== undefined ? { autoRenewalEnabled: patch.autoRenewalEnabled } : {}),
        ...(patch.autoRenewalDays ? { autoRenewalDays: patch.autoRenewalDays } : {}),
      };
      const plan = await planFabric(d.role, merged, prefix, rows, id);
      const cas = await orgCas(d.organizationId, undefined, prefix);
      next = {
        ...d,
        ...plan,
        domainNames: merged.domainNames,
        env: merged.env,
        ...(d.role === "peer" && "eventsAddress" in patch && patch.eventsAddress !== undefined
          ? { eventsAddress: patch.eventsAddress }
          : {}),
        addressOverrides: merged.addressOverrides,
        ordererAddressOverrides:
          d.role === "peer" ? (patch.ordererAddressOverrides ?? d.ordererAddressOverrides) : d.ordererAddressOverrides,
        signCaCert: cas.signCaCert,
        tlsCaCert: cas.tlsCaCert,
      };
      if (
        next.externalEndpoint !== d.externalEndpoint ||
        next.domainNames.join() !== d.domainNames.join() ||
        name !== row.name
      ) {
        Object.assign(next, await reissueFabricCertificates(keys, next, name, cas));
      }
      await writeFabricFiles(keys, next, row.slug);
      config = merged;
    } else if (d.kind === "besu") {
      if (body.fabricPeer || body.fabricOrderer) throw new InputError(`besuNode: node ${id} is a Besu node`);
      const { bootnodes, externalBootnodeIds, ...patch } = body.besuNode ?? {};
      const current = JSON.parse(row.config) as BesuNodeConfig;
      if (patch.networkId !== undefined && patch.networkId !== current.networkId) {
        throw new InputError("besuNode.networkId: a node cannot move to another network");
      }
      const bootNodes = externalBootnodeIds
        ? await withExternalBootnodes(
            bootnodes ?? current.bootNodes ?? [],
            externalBootnodeIds,
            "besuNode.externalBootnodeIds",
          )
        : bootnodes;
      const merged: BesuNodeConfig = { ...current, ...patch, ...(bootNodes ? { bootNodes } : {}) };
      const plan = await planBesu(merged, d.dir, rows, id);
      next = plan.d;
      await writeBesuFiles(next, {
        genesis: plan.genesis,
        keyFileContent: besuKeyFileFromPem(await keys.exportPrivateKeyPem(next.keyId)),
      });
      config = merged;
    } else {
      throw new ConflictError(`node ${id} has no deployment (its creation did not finish)`);
    }
    await repo.update(id, {
      name,
      config: JSON.stringify(config),
      deployment: JSON.stringify(next),
      endpoint: next.kind === "fabric" ? next.externalEndpoint : `${next.props.rpcHost}:${next.props.rpcPort}`,
      updated_at: nowIso(),
    });
    await repo.insertEvent({ node_id: id, type: "updated", data: JSON.stringify({ name }), created_at: nowIso() });
    const updated = await mustGet(id);
    deps.bus?.publish("node.updated", { node_id: id, node_name: name });
    if (row.status !== "STOPPED" && row.status !== "PENDING") void restartRow(updated).catch(() => undefined);
    return toNodeResponse(updated);
  }

  return update;
}
