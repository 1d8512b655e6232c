import type { DB } from "../../db/db.js";
import { InputError, NotFoundError, errorMessage } from "../../http/errors.js";
import type { FabricContext } from "../fabric-networks/fabric-networks.context.js";
import type { KeysService } from "../keys/keys.service.js";
import type { NodesService } from "../nodes/nodes.service.js";
import type { PluginDoc, XSource } from "./plugin-format.js";

/** A file a bound value needs on disk: `rel` under the plugin's secrets folder. */
export interface PluginFile {
  rel: string;
  content: string;
  /** A private key: mode 0600 and never shown. */
  secret: boolean;
}

export interface SourceOption {
  value: unknown;
  label: string;
  description?: string;
}

export interface XSourceDeps {
  /** For the pickers' lists. */
  db: DB;
  /** The organization a key belongs to (its organization_keys link or the org's own key columns). */
  keyOwner(keyId: number): Promise<number | undefined>;
  fabric: Pick<FabricContext, "node" | "org" | "network">;
  keys: Pick<KeysService, "row" | "exportPrivateKeyPem">;
  nodes: Pick<NodesService, "get">;
}

const idOf = (v: unknown, field: string): number => {
  const n = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > 2 ** 31 - 1)
    throw new InputError(`${field}: must be the id of a console resource`, { field });
  return n;
};

/**
 * Binds `x-source` parameters to the console's own peers, keys, organizations, networks and Besu
 * nodes: ids in, the fields a plugin's templates read out (upstream's names), and the files
 * (certificates, and a key as 0600) they point at. `pathFor` maps a file to where the plugin sees it:
 * a host path for processes, a container path for compose.
 */
export function createXSourceResolver(deps: XSourceDeps) {
  async function peer(id: number, field: string, name: string, pathFor: (rel: string) => string, files: PluginFile[]) {
    const n = await deps.fabric.node(id, field);
    if (n.role !== "peer") throw new InputError(`${field}: node '${n.name}' is not a Fabric peer`, { field });
    const rel = `${name}/peer-${n.id}-tls-ca.pem`;
    files.push({ rel, content: n.tlsCaCert, secret: false });
    return {
      ID: n.id,
      Name: n.name,
      ExternalEndpoint: n.endpoint,
      MspID: n.mspId,
      OrgID: n.organizationId,
      TLSCACert: n.tlsCaCert,
      TLSCACertPath: pathFor(rel),
      TLSCertPath: pathFor(rel),
    };
  }

  async function key(
    raw: unknown,
    field: string,
    name: string,
    pathFor: (rel: string) => string,
    files: PluginFile[],
    fabric: boolean,
  ) {
    const obj = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : { keyId: raw };
    const keyId = idOf(obj.keyId, `${field}.keyId`);
    const row = await deps.keys.row(keyId).catch((err: unknown) => {
      if (err instanceof NotFoundError) throw new InputError(`${field}.keyId: key ${keyId} not found`, { field });
      throw err;
    });
    if (!row.certificate) throw new InputError(`${field}.keyId: key '${row.name}' has no certificate`, { field });
    let orgId: number | undefined;
    let mspId: string | undefined;
    if (fabric) {
      const owner = await deps.keyOwner(keyId);
      orgId = obj.orgId === undefined ? owner : idOf(obj.orgId, `${field}.orgId`);
      if (orgId === undefined || owner !== orgId)
        throw new InputError(`${field}: key '${row.name}' is not a key of organization ${orgId ?? "(none)"}`, {
          field,
        });
      mspId = (await deps.fabric.org(orgId, `${field}.orgId`)).mspId;
    }
    let pem: string;
    try {
      pem = await deps.keys.exportPrivateKeyPem(keyId);
    } catch (err) {
      throw new InputError(
        `${field}: the private key of '${row.name}' can't be written for a plugin (${errorMessage(err)})`,
        { field },
      );
    }
    files.push({ rel: `${name}/cert.pem`, content: row.certificate, secret: false });
    files.push({ rel: `${name}/key.pem`, content: pem, secret: true });
    return {
      KeyID: keyId,
      ...(fabric ? { OrgID: orgId, MspID: mspId } : {}),
      Name: row.name,
      Algorithm: row.algorithm,
      Certificate: row.certificate,
      CertPath: pathFor(`${name}/cert.pem`),
      KeyPath: pathFor(`${name}/key.pem`),
    };
  }

  async function org(id: number, field: string, name: string, pathFor: (rel: string) => string, files: PluginFile[]) {
    const o = await deps.fabric.org(id, field);
    files.push({ rel: `${name}/sign-ca.pem`, content: o.signCaCert, secret: false });
    files.push({ rel: `${name}/tls-ca.pem`, content: o.tlsCaCert, secret: false });
    return {
      ID: o.row.id,
      MspID: o.mspId,
      Name: o.row.name,
      SignCACert: o.signCaCert,
      TLSCACert: o.tlsCaCert,
      SignCACertPath: pathFor(`${name}/sign-ca.pem`),
      TLSCACertPath: pathFor(`${name}/tls-ca.pem`),
    };
  }

  async function network(
    id: number,
    field: string,
    name: string,
    pathFor: (rel: string) => string,
    files: PluginFile[],
  ) {
    const row = await deps.fabric.network(id).catch((err: unknown) => {
      if (err instanceof NotFoundError) throw new InputError(`${field}: network ${id} not found`, { field });
      throw err;
    });
    if (row.platform !== "FABRIC")
      throw new InputError(`${field}: network '${row.name}' is not a Fabric network`, { field });
    const members = await deps.db
      .selectFrom("network_nodes")
      .select("node_id")
      .where("network_id", "=", id)
      .where("role", "=", "orderer")
      .orderBy("node_id")
      .execute();
    const orderers = [];
    for (const m of members) {
      const n = await deps.fabric.node(m.node_id, field);
      const rel = `${name}/orderer-${n.id}-tls-ca.pem`;
      files.push({ rel, content: n.tlsCaCert, secret: false });
      orderers.push({
        ID: n.id,
        Name: n.name,
        Endpoint: n.endpoint,
        MspID: n.mspId,
        TLSCACert: n.tlsCaCert,
        TLSCACertPath: pathFor(rel),
      });
    }
    return { ID: row.id, Name: row.name, ChannelName: row.name, Orderers: orderers };
  }

  async function besu(id: number, field: string) {
    const n = await deps.nodes.get(id).catch((err: unknown) => {
      if (err instanceof NotFoundError) throw new InputError(`${field}: node ${id} not found`, { field });
      throw err;
    });
    const b = n.besuNode;
    if (!b) throw new InputError(`${field}: node '${n.name}' is not a Besu node`, { field });
    const host = b.rpcHost === "0.0.0.0" ? "127.0.0.1" : b.rpcHost;
    return { ID: n.id, Name: n.name, RPCURL: `http://${host}:${b.rpcPort}`, Enode: b.enodeUrl };
  }

  async function one(
    source: XSource,
    raw: unknown,
    field: string,
    name: string,
    pathFor: (rel: string) => string,
    files: PluginFile[],
  ) {
    switch (source) {
      case "fabric-peer":
        return peer(idOf(raw, field), field, name, pathFor, files);
      case "fabric-key":
        return key(raw, field, name, pathFor, files, true);
      case "key":
        return key(raw, field, name, pathFor, files, false);
      case "fabric-org":
        return org(idOf(raw, field), field, name, pathFor, files);
      case "fabric-network":
        return network(idOf(raw, field), field, name, pathFor, files);
      case "besu-node":
        return besu(idOf(raw, field), field);
    }
  }

  return {
    /**
     * The template values of checked parameters: x-source ids replaced by what they name. Array
     * properties bind each element (`peers: [1, 2]`).
     */
    async resolve(
      doc: PluginDoc,
      values: Record<string, unknown>,
      pathFor: (rel: string) => string,
    ): Promise<{ values: Record<string, unknown>; files: PluginFile[] }> {
      const files: PluginFile[] = [];
      const out: Record<string, unknown> = { ...values };
      for (const [name, prop] of Object.entries(doc.spec.parameters.properties ?? {})) {
        const source = prop["x-source"];
        const raw = values[name];
        if (!source || raw === undefined || raw === null) continue;
        const field = `parameters.${name}`;
        if (Array.isArray(raw)) {
          const items = [];
          for (const [i, item] of raw.entries())
            items.push(await one(source, item, `${field}[${i}]`, `${name}-${i}`, pathFor, files));
          out[name] = items;
        } else out[name] = await one(source, raw, field, name, pathFor, files);
      }
      return { values: out, files };
    },

    /** What a picker offers for one kind of source. */
    async options(source: XSource): Promise<SourceOption[]> {
      const db = deps.db;
      if (source === "fabric-peer" || source === "besu-node") {
        const rows = await db
          .selectFrom("nodes")
          .select(["id", "name", "node_type", "status", "endpoint"])
          .where("node_type", "=", source === "fabric-peer" ? "FABRIC_PEER" : "BESU_FULLNODE")
          .orderBy("name")
          .limit(1000)
          .execute();
        return rows.map((r) => ({
          value: r.id,
          label: r.name,
          description: `${r.status}${r.endpoint ? ` · ${r.endpoint}` : ""}`,
        }));
      }
      if (source === "fabric-org") {
        const rows = await db
          .selectFrom("fabric_organizations")
          .select(["id", "msp_id", "name"])
          .orderBy("msp_id")
          .limit(1000)
          .execute();
        return rows.map((r) => ({ value: r.id, label: r.msp_id, description: r.name }));
      }
      if (source === "fabric-network") {
        const rows = await db
          .selectFrom("networks")
          .select(["id", "name", "status"])
          .where("platform", "=", "FABRIC")
          .orderBy("name")
          .limit(1000)
          .execute();
        return rows.map((r) => ({ value: r.id, label: r.name, description: r.status }));
      }
      if (source === "fabric-key") {
        const orgs = await db
          .selectFrom("fabric_organizations")
          .select(["id", "msp_id", "admin_sign_key_id", "client_sign_key_id"])
          .orderBy("msp_id")
          .limit(1000)
          .execute();
        const links = await db
          .selectFrom("organization_keys")
          .select(["organization_id", "key_id", "role"])
          .where("purpose", "=", "sign")
          .execute();
        const pairs: { orgId: number; mspId: string; keyId: number; role: string }[] = [];
        for (const o of orgs) {
          const seen = new Set<number>();
          const add = (keyId: number | null, role: string): void => {
            if (!keyId || seen.has(keyId)) return;
            pairs.push({ orgId: o.id, mspId: o.msp_id, keyId, role });
            seen.add(keyId);
          };
          add(o.admin_sign_key_id, "admin");
          add(o.client_sign_key_id, "client");
          for (const l of links.filter((x) => x.organization_id === o.id)) add(l.key_id, l.role);
        }
        const names = new Map(
          pairs.length
            ? (
                await db
                  .selectFrom("keys")
                  .select(["id", "name"])
                  .where(
                    "id",
                    "in",
                    pairs.map((p) => p.keyId),
                  )
                  .execute()
              ).map((k) => [k.id, k.name] as const)
            : [],
        );
        return pairs.map((p) => ({
          value: { keyId: p.keyId, orgId: p.orgId },
          label: `${p.mspId} · ${names.get(p.keyId) ?? `key ${p.keyId}`}`,
          description: p.role,
        }));
      }
      const rows = await db
        .selectFrom("keys")
        .select(["id", "name", "algorithm"])
        .where("certificate", "is not", null)
        .where("is_ca", "=", 0)
        .orderBy("name")
        .limit(1000)
        .execute();
      return rows.map((r) => ({ value: r.id, label: r.name, description: r.algorithm }));
    },
  };
}

export type XSourceResolver = ReturnType<typeof createXSourceResolver>;
