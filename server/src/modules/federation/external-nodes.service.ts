import { nowIso } from "../../db/db.js";
import { NotFoundError, UpstreamError } from "../../http/errors.js";
import type { FederationClient } from "./federation.client.js";
import type { ConnectionRow } from "./federation.repo.js";
import type {
  ExternalBesuNode,
  ExternalFabricNode,
  ExternalOrganization,
  PeerNodesResponse,
  SyncResponse,
} from "./federation.schema.js";
import type { FederationService } from "./federation.service.js";
import { remoteRefusal } from "./federation.service.js";
import type {
  ExternalBesuRow,
  ExternalFabricNodeRow,
  ExternalNodesRepo,
  ExternalOrgRow,
} from "./external-nodes.repo.js";
import {
  wireBesuNode,
  wireFabricNode,
  wireInventory,
  wireOrganization,
  type WireFabricNode,
  type WireInventory,
} from "./federation.wire.js";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" ? (v as Json) : {});
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const num = (v: unknown): number => (typeof v === "number" ? v : 0);

const orgDto = (r: ExternalOrgRow): ExternalOrganization => ({
  id: r.id,
  externalNodeId: r.connection_id,
  mspId: r.msp_id,
  name: r.name,
  signCertificate: r.sign_certificate,
  tlsCertificate: r.tls_certificate,
});
const fabricDto = (r: ExternalFabricNodeRow): ExternalFabricNode => ({
  id: r.id,
  externalNodeId: r.connection_id,
  name: r.name,
  mspId: r.msp_id,
  externalEndpoint: r.external_endpoint,
  signCertificate: r.sign_certificate,
  tlsCertificate: r.tls_certificate,
  tlsCaCertificate: r.tls_ca_certificate,
  version: r.version,
});
const besuDto = (r: ExternalBesuRow): ExternalBesuNode => ({
  id: r.id,
  externalNodeId: r.connection_id,
  name: r.name,
  enodeUrl: r.enode_url,
  rpcUrl: r.rpc_url,
  p2pHost: r.p2p_host,
  p2pPort: r.p2p_port,
  metricsEnabled: r.metrics_enabled === 1,
  metricsPort: r.metrics_port,
  version: r.version,
});

/**
 * External nodes: what this console serves to connected consoles (public certificates and
 * endpoints of its organizations and nodes, never keys, never an orderer's admin address), the
 * live fetch and the sync of another console's, and the synced records.
 */
export function createExternalNodesService(deps: {
  repo: ExternalNodesRepo;
  federation: Pick<FederationService, "usableConnection" | "touch">;
  client: FederationClient;
}) {
  const { repo } = deps;

  /** This console's inventory. Entries that are incomplete (a node still being created) are left out. */
  async function inventory(): Promise<WireInventory> {
    const out: WireInventory = { organizations: [], fabric_peers: [], fabric_orderers: [], besu_nodes: [] };
    for (const o of await repo.localOrganizations()) {
      const item = wireOrganization.safeParse({
        id: o.id,
        mspId: o.msp_id,
        name: o.name,
        signCertificate: o.sign_cert,
        tlsCertificate: o.tls_cert,
      });
      if (item.success) out.organizations.push(item.data);
    }
    for (const n of await repo.localNodes()) {
      let d: Json;
      try {
        d = obj(JSON.parse(n.deployment));
      } catch {
        continue;
      }
      if (d.kind === "fabric") {
        const item = wireFabricNode.safeParse({
          id: n.id,
          name: n.name,
          mspId: str(d.mspId),
          externalEndpoint: str(d.externalEndpoint),
          signCertificate: str(d.signCert),
          tlsCertificate: str(d.tlsCert),
          tlsCaCertificate: str(d.tlsCaCert),
          version: str(d.version),
        });
        if (!item.success) continue;
        (n.node_type === "FABRIC_ORDERER" ? out.fabric_orderers : out.fabric_peers).push(item.data);
      } else if (d.kind === "besu") {
        const p = obj(d.props);
        const host = str(p.externalIp);
        const item = wireBesuNode.safeParse({
          id: n.id,
          name: n.name,
          enodeUrl: str(d.enodeUrl),
          rpcUrl: host ? `http://${host.includes(":") ? `[${host}]` : host}:${num(p.rpcPort)}` : "",
          p2pHost: host,
          p2pPort: num(p.p2pPort),
          metricsEnabled: p.metricsEnabled === true,
          metricsPort: num(p.metricsPort),
          version: str(p.version),
        });
        if (item.success) out.besu_nodes.push(item.data);
      }
    }
    return out;
  }

  /** Asks a connected console for its inventory (signed) and validates what comes back. */
  async function fetchFrom(peerNodeId: string): Promise<{ conn: ConnectionRow; inv: WireInventory }> {
    const conn = await deps.federation.usableConnection(peerNodeId);
    const reply = await deps.client.send({
      endpoint: conn.endpoint,
      to: conn.node_id,
      method: "GET",
      path: "/federation/nodes",
    });
    if (reply.status !== 200) throw remoteRefusal(`the console ${peerNodeId} refused to list its nodes`, reply);
    const parsed = wireInventory.safeParse(reply.data);
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      throw new UpstreamError(
        `the console ${peerNodeId} sent an invalid node list: ${i?.path.join(".") ?? "?"} ${i?.message ?? ""}`,
      );
    }
    await deps.federation.touch(peerNodeId);
    return { conn, inv: parsed.data };
  }

  const fabricValues = (conn: ConnectionRow, role: "peer" | "orderer", n: WireFabricNode) => ({
    connection_id: conn.id,
    source_node_id: conn.node_id,
    remote_id: n.id,
    role,
    name: n.name,
    msp_id: n.mspId,
    external_endpoint: n.externalEndpoint,
    sign_certificate: n.signCertificate,
    tls_certificate: n.tlsCertificate,
    tls_ca_certificate: n.tlsCaCertificate,
    version: n.version,
  });

  return {
    inventory,

    /** The other console's nodes as it lists them now (ids are its own; externalNodeId is the connection). */
    async live(peerNodeId: string): Promise<PeerNodesResponse> {
      const { conn, inv } = await fetchFrom(peerNodeId);
      const fabric = (n: WireFabricNode): ExternalFabricNode => ({ ...n, externalNodeId: conn.id });
      return {
        organizations: inv.organizations.map((o) => ({ ...o, externalNodeId: conn.id })),
        fabric_peers: inv.fabric_peers.map(fabric),
        fabric_orderers: inv.fabric_orderers.map(fabric),
        besu_nodes: inv.besu_nodes.map((b) => ({ ...b, externalNodeId: conn.id })),
      };
    },

    /** Pulls the other console's inventory into the external tables in one transaction. */
    async sync(peerNodeId: string): Promise<SyncResponse> {
      const { conn, inv } = await fetchFrom(peerNodeId);
      const now = nowIso();
      const src = conn.node_id;
      return repo.transaction(async (trx) => {
        const orgs = await repo.syncOrganizations(
          src,
          inv.organizations.map((o) => ({
            connection_id: conn.id,
            source_node_id: src,
            remote_id: o.id,
            msp_id: o.mspId,
            name: o.name,
            sign_certificate: o.signCertificate,
            tls_certificate: o.tlsCertificate,
          })),
          now,
          trx,
        );
        const peers = await repo.syncFabricNodes(
          src,
          "peer",
          inv.fabric_peers.map((n) => fabricValues(conn, "peer", n)),
          now,
          trx,
        );
        const orderers = await repo.syncFabricNodes(
          src,
          "orderer",
          inv.fabric_orderers.map((n) => fabricValues(conn, "orderer", n)),
          now,
          trx,
        );
        const besu = await repo.syncBesuNodes(
          src,
          inv.besu_nodes.map((b) => ({
            connection_id: conn.id,
            source_node_id: src,
            remote_id: b.id,
            name: b.name,
            enode_url: b.enodeUrl,
            rpc_url: b.rpcUrl,
            p2p_host: b.p2pHost,
            p2p_port: b.p2pPort,
            metrics_enabled: b.metricsEnabled ? 1 : 0,
            metrics_port: b.metricsPort,
            version: b.version,
          })),
          now,
          trx,
        );
        return {
          organizations_added: orgs.added,
          organizations_deleted: orgs.deleted,
          fabric_peers_added: peers.added,
          fabric_peers_deleted: peers.deleted,
          fabric_orderers_added: orderers.added,
          fabric_orderers_deleted: orderers.deleted,
          besu_nodes_added: besu.added,
          besu_nodes_deleted: besu.deleted,
          errors: [],
        };
      });
    },

    organizations: async (): Promise<ExternalOrganization[]> => (await repo.listOrganizations()).map(orgDto),
    peers: async (): Promise<ExternalFabricNode[]> => (await repo.listFabricNodes("peer")).map(fabricDto),
    orderers: async (): Promise<ExternalFabricNode[]> => (await repo.listFabricNodes("orderer")).map(fabricDto),
    besuNodes: async (): Promise<ExternalBesuNode[]> => (await repo.listBesuNodes()).map(besuDto),

    async remove(kind: "organization" | "peer" | "orderer" | "besu", id: number): Promise<void> {
      const ok =
        kind === "organization"
          ? await repo.remove("external_fabric_organizations", id)
          : kind === "besu"
            ? await repo.remove("external_besu_nodes", id)
            : await repo.remove("external_fabric_nodes", id, kind);
      if (!ok) throw new NotFoundError(`external ${kind === "besu" ? "Besu node" : `Fabric ${kind}`} ${id} not found`);
    },
  };
}

export type ExternalNodesService = ReturnType<typeof createExternalNodesService>;
