import type { ExternalRefs } from "./fabric-networks.external.js";
import { ConfigtxInputError } from "../../fabric/configtx/index.js";
import { CryptoInputError } from "../../crypto/errors.js";
import type { GrpcEndpoint } from "../../fabric/grpc-connection.js";
import { createSigningIdentity, type SigningIdentity } from "../../fabric/identity.js";
import type { OsnAdminEndpoint } from "../../fabric/osnadmin.js";
import { ConflictError, InputError, NotFoundError } from "../../http/errors.js";
import type { KeysService } from "../keys/keys.service.js";
import type { NodeResponse } from "../nodes/nodes.schema.js";
import type { NodesService } from "../nodes/nodes.service.js";
import type { OrgKeys } from "../organizations/organization-pki.service.js";
import type { OrganizationRow, OrganizationsRepo } from "../organizations/organizations.repo.js";
import type { FabricNetworksRepo, NetworkRow } from "./fabric-networks.repo.js";

/** What the Fabric networks services need from the rest of the console. */
export interface FabricNetworksDeps {
  repo: FabricNetworksRepo;
  nodes: Pick<NodesService, "get" | "peerOffline">;
  orgs: Pick<OrganizationsRepo, "byId" | "byMspId">;
  keys: Pick<KeysService, "row" | "exportPrivateKeyPem">;
  pki: Pick<OrgKeys, "crl">;
  /** Orderers synced from other consoles, to import a channel from. */
  external: Pick<ExternalRefs, "orderer">;
}

/** A Fabric node as the channel code needs it. */
export interface FabricNodeInfo {
  id: number;
  name: string;
  role: "peer" | "orderer";
  status: string;
  organizationId: number;
  mspId: string;
  version: string;
  /** host:port others dial (what goes into the channel config). */
  endpoint: string;
  adminAddress: string;
  tlsCert: string;
  tlsCaCert: string;
  signCert: string;
}

/** An organization this console holds, with its CAs and admin identities. */
export interface OrgMaterial {
  row: OrganizationRow;
  mspId: string;
  signCaCert: string;
  tlsCaCert: string;
  admin(): Promise<SigningIdentity>;
  adminTls(): Promise<{ certPem: string; keyPem: string }>;
}

/** Wildcard listen hosts are dialled on loopback. */
export function dialAddress(address: string): string {
  const i = address.lastIndexOf(":");
  const host = address.slice(0, i);
  const h = host === "0.0.0.0" || host === "::" || host === "[::]" || host === "" ? "127.0.0.1" : host;
  return `${h}:${address.slice(i + 1)}`;
}

export function splitHostPort(address: string): { host: string; port: number } {
  const i = address.lastIndexOf(":");
  return { host: address.slice(0, i).replace(/^\[|\]$/g, ""), port: Number(address.slice(i + 1)) };
}

/** Runs library code, turning its named input errors into named 400s under `prefix`. */
export function libraryInput<T>(prefix: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ConfigtxInputError || err instanceof CryptoInputError) {
      throw new InputError(`${prefix}${err.field}: ${err.message}`, { field: `${prefix}${err.field}` });
    }
    throw err;
  }
}

/** How many loaded admin identities (and TLS pairs) are kept: a few per organization. */
const LOADED_MAX = 64;

/**
 * What a key row's loaded form depends on: its id, its key pair (fingerprint, provider and
 * reference) and its certificate, with `updated_at` (a renewal sets it). The key pair of an id never
 * changes; a renewed certificate, or a row that is not the same key any more, gives another version.
 */
function versionOf(k: {
  id: number;
  sha256_fingerprint: string;
  provider_id: number;
  provider_key_ref: string | null;
  certificate: string | null;
  updated_at: string;
}): string {
  return [k.id, k.sha256_fingerprint, k.provider_id, k.provider_key_ref ?? "", k.updated_at, k.certificate ?? ""].join(
    "\n",
  );
}

/**
 * `make()` once per version: loading an admin identity decrypts its private key and parses the key
 * and certificate (a few ms of CPU), which every join, config read and channel change did again.
 * The key row is still read on each use, so a deleted key fails and a renewal is seen at once.
 */
function loaded<T>(cache: Map<string, Promise<T>>, version: string, make: () => Promise<T>): Promise<T> {
  let hit = cache.get(version);
  if (hit) return hit;
  hit = make();
  cache.set(version, hit);
  hit.catch(() => cache.delete(version));
  // Oldest first (insertion order): drop what exceeds the bound.
  for (const key of cache.keys()) {
    if (cache.size <= LOADED_MAX) break;
    cache.delete(key);
  }
  return hit;
}

/** Node, org and identity lookups shared by the create/join, inspect and change services. */
export function createFabricContext(deps: FabricNetworksDeps) {
  const { repo, nodes, orgs, keys } = deps;
  const signers = new Map<string, Promise<SigningIdentity>>();
  const tlsPairs = new Map<string, Promise<{ certPem: string; keyPem: string }>>();

  async function network(id: number): Promise<NetworkRow> {
    const row = await repo.byId(id);
    if (!row) throw new NotFoundError(`Fabric network ${id} not found`);
    return row;
  }

  function toInfo(n: NodeResponse): FabricNodeInfo | undefined {
    const p = n.fabricPeer ?? n.fabricOrderer;
    if (n.platform !== "FABRIC" || !p) return undefined;
    return {
      id: n.id,
      name: n.name,
      role: n.nodeType === "FABRIC_ORDERER" ? "orderer" : "peer",
      status: n.status,
      organizationId: p.organizationId,
      mspId: p.mspId,
      version: p.version,
      endpoint: p.externalEndpoint || n.endpoint,
      adminAddress: n.fabricOrderer?.adminAddress ?? "",
      tlsCert: p.tlsCert ?? "",
      tlsCaCert: p.tlsCaCert ?? "",
      signCert: p.signCert ?? "",
    };
  }

  /** A Fabric node by id; `field` names the input for the 400 when it is missing or not Fabric. */
  async function node(id: number, field: string): Promise<FabricNodeInfo> {
    const n = await nodes.get(id).catch((err: unknown) => {
      if (err instanceof NotFoundError) throw new InputError(`${field}: node ${id} not found`, { field });
      throw err;
    });
    const info = toInfo(n);
    if (!info) throw new InputError(`${field}: node '${n.name}' is not a Fabric peer or orderer`, { field });
    return info;
  }

  async function tryNode(id: number): Promise<NodeResponse | undefined> {
    return nodes.get(id).catch(() => undefined);
  }

  async function org(id: number, field: string): Promise<OrgMaterial> {
    const row = await orgs.byId(id);
    if (!row) throw new InputError(`${field}: organization ${id} not found`, { field });
    return material(row);
  }

  async function material(row: OrganizationRow): Promise<OrgMaterial> {
    const [sign, tls] = await Promise.all([keys.row(row.sign_key_id), keys.row(row.tls_root_key_id)]);
    const need = (keyId: number | null, what: string): number => {
      if (!keyId) throw new InputError(`organization ${row.msp_id} has no ${what}`);
      return keyId;
    };
    return {
      row,
      mspId: row.msp_id,
      signCaCert: sign.certificate ?? "",
      tlsCaCert: tls.certificate ?? "",
      async admin() {
        const id = need(row.admin_sign_key_id, "admin signing identity");
        const k = await keys.row(id);
        return loaded(signers, `${row.msp_id}\n${versionOf(k)}`, async () =>
          createSigningIdentity({
            mspId: row.msp_id,
            certPem: k.certificate ?? "",
            privateKey: await keys.exportPrivateKeyPem(id),
          }),
        );
      },
      async adminTls() {
        const id = need(row.admin_tls_key_id, "admin TLS identity");
        const k = await keys.row(id);
        return loaded(tlsPairs, versionOf(k), async () => ({
          certPem: k.certificate ?? "",
          keyPem: await keys.exportPrivateKeyPem(id),
        }));
      },
    };
  }

  async function orgByMspId(mspId: string): Promise<OrgMaterial | undefined> {
    const row = await orgs.byMspId(mspId);
    return row ? material(row) : undefined;
  }

  function grpcEndpoint(n: FabricNodeInfo): GrpcEndpoint {
    return { address: dialAddress(n.endpoint), tlsRootCert: n.tlsCaCert };
  }

  async function osnEndpoint(n: FabricNodeInfo): Promise<OsnAdminEndpoint> {
    const tls = await (await org(n.organizationId, "organizationId")).adminTls();
    return {
      address: dialAddress(n.adminAddress),
      tlsRootCert: n.tlsCaCert,
      clientCert: tls.certPem,
      clientKey: tls.keyPem,
    };
  }

  /** 409 naming `field` when a network (of either platform) already has this name. */
  async function assertNameFree(name: string, field: string): Promise<void> {
    if (await repo.byName(name)) {
      throw new ConflictError(`${field}: a network named '${name}' already exists`, { field });
    }
  }

  /** The genesis block of a network, as bytes. */
  function genesisOf(row: NetworkRow): Uint8Array {
    if (!row.genesis) throw new InputError(`network '${row.name}' has no genesis block`);
    return Buffer.from(row.genesis, "base64");
  }

  return { network, node, tryNode, toInfo, org, orgByMspId, grpcEndpoint, osnEndpoint, genesisOf, assertNameFree };
}

export type FabricContext = ReturnType<typeof createFabricContext>;
