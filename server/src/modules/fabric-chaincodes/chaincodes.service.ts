import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { nowIso } from "../../db/db.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import type { EventBus } from "../../events/bus.js";
import {
  CHAINCODE_NAME_RE,
  validateDefinition,
  type CollectionInput,
  type DefinitionInput,
} from "../../fabric/chaincode/definition.js";
import {
  approveForMyOrg,
  checkCommitReadiness,
  commitDefinition,
  installChaincode,
  queryChaincodeDefinition,
  queryInstalledChaincodes,
  TransactionInvalidError,
} from "../../fabric/chaincode/lifecycle.js";
import { buildCcaasPackage } from "../../fabric/chaincode/package.js";
import { BroadcastError } from "../../fabric/broadcast.js";
import { ProposalError } from "../../fabric/peer-client.js";
import { AppError, ConflictError, errorMessage, InputError, NotFoundError, UpstreamError } from "../../http/errors.js";
import {
  ChaincodeBuildError,
  chaincodeServerEnv,
  copySourceDir,
  detectSourceType,
  extractArchive,
} from "../../runtime/chaincode-source.js";
import {
  dialAddress,
  libraryInput,
  type FabricContext,
  type FabricNodeInfo,
} from "../fabric-networks/fabric-networks.context.js";
import { common } from "@hyperledger/fabric-protos";
import { channelSummary } from "../../fabric/configtx/read.js";
import { configFromBlock } from "../../fabric/deliver.js";
import type { GrpcEndpoint } from "../../fabric/grpc-connection.js";
import type { FabricNetworksRepo } from "../fabric-networks/fabric-networks.repo.js";
import type { KeysService } from "../keys/keys.service.js";
import type { ChaincodeRow, ChaincodesRepo, DefinitionRow } from "./chaincodes.repo.js";
import type { ChaincodeRuntime } from "./chaincodes.runtime.js";
import type {
  ChaincodeResponse,
  CreateDefinitionBody,
  DefinitionResponse,
  StatusResponse,
  UpdateDefinitionBody,
} from "./chaincodes.schema.js";

export interface ChaincodesDeps {
  repo: ChaincodesRepo;
  keys: Pick<KeysService, "createKey" | "row" | "exportPrivateKeyPem" | "removeOwned">;
  ctx: FabricContext;
  networks: Pick<FabricNetworksRepo, "members">;
  runtime: ChaincodeRuntime;
  bus: Pick<EventBus, "publish">;
  /** A free port for a chaincode server (not used by nodes nor `alsoReserved`). */
  freePort(preferred: number, alsoReserved: number[]): Promise<number>;
  /** `<dataDir>/chaincodes`. */
  dir: string;
  /** Whether a Docker engine answers here (docker_image needs one). */
  dockerAvailable?: () => boolean;
  /** Peers of an org synced from other consoles (external nodes), to endorse a commit with. */
  externalPeers?: (mspId: string) => Promise<GrpcEndpoint[]>;
}

const json = <T>(s: string, fallback: T): T => {
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
};

/** The default: a Docker engine's socket or DOCKER_HOST. */
export function dockerEngineAvailable(): boolean {
  return Boolean(process.env.DOCKER_HOST) || existsSync("/var/run/docker.sock");
}

/**
 * Fabric chaincodes and the lifecycle of their definitions on this console's peers: package
 * (ccaas), install, approve per org, commit, and run the chaincode server as a supervised process.
 */
export function createChaincodesService(deps: ChaincodesDeps) {
  const { repo, ctx, runtime } = deps;
  const defDir = (id: number): string => join(deps.dir, String(id));

  function chaincodeResponse(row: ChaincodeRow, defs: DefinitionRow[]): ChaincodeResponse {
    const mine = defs.filter((d) => d.chaincode_id === row.id);
    const latest = mine.at(-1);
    return {
      id: row.id,
      name: row.name,
      network_id: row.network_id,
      network_name: row.network_name,
      network_platform: row.network_platform,
      created_at: row.created_at,
      definitions_count: mine.length,
      latest_definition: latest
        ? {
            id: latest.id,
            version: latest.version,
            sequence: latest.sequence,
            deploy_status: latest.deploy_status as DefinitionResponse["deploy_status"],
          }
        : null,
    };
  }

  function definitionResponse(d: DefinitionRow): DefinitionResponse {
    return {
      id: d.id,
      chaincode_id: d.chaincode_id,
      version: d.version,
      sequence: d.sequence,
      endorsement_policy: d.endorsement_policy,
      docker_image: d.docker_image,
      chaincode_address: d.chaincode_address,
      created_at: d.created_at,
      init_required: d.init_required === 1,
      collections: json(d.collections, []),
      source_type: d.source_type as DefinitionResponse["source_type"],
      source_path: d.source_path,
      tls: d.tls === 1,
      package_id: d.package_id,
      environment_variables: json(d.environment, {}),
      deploy_status: d.deploy_status as DefinitionResponse["deploy_status"],
      deploy_error: d.deploy_error,
      updated_at: d.updated_at,
    };
  }

  async function chaincode(id: number): Promise<ChaincodeRow> {
    const row = await repo.byId(id);
    if (!row) throw new NotFoundError(`chaincode ${id} not found`);
    return row;
  }

  async function definition(id: number): Promise<{ def: DefinitionRow; cc: ChaincodeRow }> {
    const def = await repo.definition(id);
    if (!def) throw new NotFoundError(`chaincode definition ${id} not found`);
    return { def, cc: await chaincode(def.chaincode_id) };
  }

  const lifecycleInput = (cc: ChaincodeRow, d: DefinitionRow): DefinitionInput => ({
    name: cc.name,
    version: d.version,
    sequence: d.sequence,
    endorsementPolicy: d.endorsement_policy,
    initRequired: d.init_required === 1,
    collections: json<CollectionInput[]>(d.collections, []),
  });

  async function event(definitionId: number, type: string, data: Record<string, unknown>): Promise<void> {
    await repo.insertEvent({
      definition_id: definitionId,
      event_type: type,
      event_data: JSON.stringify(data),
      created_at: nowIso(),
    });
  }

  /** Peers and orderers of the chaincode's channel that have joined it, with their node info. */
  async function channelNodes(networkId: number): Promise<{ peers: FabricNodeInfo[]; orderers: FabricNodeInfo[] }> {
    const members = (await deps.networks.members(networkId)).filter((m) => m.status === "joined");
    const infos = await Promise.all(
      members.map(async (m) => {
        const n = await ctx.tryNode(m.node_id);
        return n ? ctx.toInfo(n) : undefined;
      }),
    );
    const ok = infos.filter((i): i is FabricNodeInfo => Boolean(i));
    return { peers: ok.filter((i) => i.role === "peer"), orderers: ok.filter((i) => i.role === "orderer") };
  }

  /** A peer of the channel by id (400 naming `field` when it is not a joined peer). */
  async function channelPeer(cc: ChaincodeRow, peerId: number, field: string): Promise<FabricNodeInfo> {
    const n = await ctx.node(peerId, field);
    if (n.role !== "peer") throw new InputError(`${field}: node '${n.name}' is not a peer`, { field });
    const { peers } = await channelNodes(cc.network_id);
    if (!peers.some((p) => p.id === peerId)) {
      throw new InputError(`${field}: peer '${n.name}' has not joined channel '${cc.network_name}'`, { field });
    }
    return n;
  }

  /**
   * Where to send lifecycle transactions: a joined orderer of this console, else (a channel joined
   * through another console) the orderer endpoints and TLS CAs the channel's genesis block publishes.
   */
  async function ordererEndpoint(cc: ChaincodeRow): Promise<GrpcEndpoint> {
    const { orderers } = await channelNodes(cc.network_id);
    const o = orderers.find((x) => x.status === "RUNNING") ?? orderers[0];
    if (o) return ctx.grpcEndpoint(o);
    const row = await ctx.network(cc.network_id);
    const fromBlock = (() => {
      try {
        const summary = channelSummary(configFromBlock(common.Block.deserializeBinary(ctx.genesisOf(row))));
        const org = summary.orderer.find((x) => x.endpoints.length > 0);
        return org ? { address: dialAddress(org.endpoints[0]!), tlsRootCert: org.tlsCaCerts.join("\n") } : undefined;
      } catch {
        return undefined;
      }
    })();
    if (!fromBlock) throw new ConflictError(`channel '${cc.network_name}' has no joined orderer on this console`);
    return fromBlock;
  }

  /** Any running joined peer of the channel (for reads), preferring `mspId`'s. */
  async function readPeer(cc: ChaincodeRow, mspId?: string): Promise<FabricNodeInfo | undefined> {
    const { peers } = await channelNodes(cc.network_id);
    const running = peers.filter((p) => p.status === "RUNNING");
    return running.find((p) => p.mspId === mspId) ?? running[0];
  }

  async function adminOf(n: FabricNodeInfo) {
    return (await ctx.org(n.organizationId, "organizationId")).admin();
  }

  /** What the channel has committed under this chaincode's name (undefined: nothing yet, or no peer to ask). */
  async function committed(cc: ChaincodeRow, via?: FabricNodeInfo) {
    const p = via ?? (await readPeer(cc));
    if (!p) return undefined;
    return queryChaincodeDefinition(ctx.grpcEndpoint(p), await adminOf(p), cc.network_name, cc.name);
  }

  /** Turns peer/orderer failures into the API's errors, keeping the node's own words. */
  function fabricFailure(what: string, err: unknown): never {
    if (err instanceof AppError) throw err;
    if (err instanceof ProposalError) throw new InputError(`${what}: ${err.peerMessage || err.message}`);
    if (err instanceof TransactionInvalidError) throw new ConflictError(`${what}: ${err.message}`);
    if (err instanceof BroadcastError) throw new UpstreamError(`${what}: ${err.message}`);
    throw new UpstreamError(`${what}: ${errorMessage(err)}`);
  }

  /**
   * The chaincode server's TLS key, issued once by the TLS CA of the first org of this console
   * with a peer on the channel (server auth, the address's host as SAN).
   */
  async function tlsIdentity(cc: ChaincodeRow, d: DefinitionRow): Promise<{ keyId: number; caCert: string }> {
    let keyId = d.tls_key_id;
    if (!keyId) {
      const { peers } = await channelNodes(cc.network_id);
      const first = peers[0];
      if (!first)
        throw new ConflictError(
          `tls: channel '${cc.network_name}' has no peer of this console to issue the chaincode's TLS certificate`,
        );
      const org = await ctx.org(first.organizationId, "organizationId");
      const host = d.chaincode_address.slice(0, d.chaincode_address.lastIndexOf(":"));
      const isIp = /^[\d.]+$|:/.test(host);
      const key = await deps.keys.createKey({
        name: `chaincode-${cc.name}-${d.id}-tls`,
        description: `TLS of the chaincode server of ${cc.name} ${d.version} (definition ${d.id})`,
        spec: { algorithm: "EC", curve: "P-256" },
        providerId: org.row.provider_id,
        exportable: true,
        certificate: {
          subject: { commonName: `${cc.name}.chaincode`, organization: [org.mspId] },
          sans: {
            dnsNames: [...new Set(["localhost", ...(isIp ? [] : [host])])],
            ipAddresses: [...new Set(["127.0.0.1", ...(isIp ? [host] : [])])],
          },
          validForMs: 365 * 86_400_000,
          extKeyUsage: ["serverAuth"],
          signingKeyId: org.row.tls_root_key_id,
        },
      });
      keyId = key.id;
      await repo.updateDefinition(d.id, { tls_key_id: keyId, updated_at: nowIso() });
      d.tls_key_id = keyId;
    }
    const key = await deps.keys.row(keyId);
    const ca = key.signing_key_id ? await deps.keys.row(key.signing_key_id) : undefined;
    return { keyId, caCert: ca?.certificate ?? "" };
  }

  /** Builds (deterministically) the ccaas package of a definition and records its id. */
  async function packageOf(cc: ChaincodeRow, d: DefinitionRow): Promise<{ bytes: Buffer; packageId: string }> {
    const label = `${cc.name}_${d.version}`.replace(/[^A-Za-z0-9_.+-]/g, "_");
    const tls = d.tls === 1 ? await tlsIdentity(cc, d) : undefined;
    const pkg = buildCcaasPackage({
      label,
      connection: {
        address: d.chaincode_address,
        dial_timeout: "10s",
        tls_required: Boolean(tls),
        ...(tls ? { client_auth_required: false, root_cert: tls.caCert } : {}),
      },
    });
    if (d.package_id !== pkg.packageId) {
      await repo.updateDefinition(d.id, { package_id: pkg.packageId, updated_at: nowIso() });
      d.package_id = pkg.packageId;
    }
    await mkdir(defDir(d.id), { recursive: true });
    await writeFile(join(defDir(d.id), "package.tar.gz"), pkg.bytes);
    return { bytes: pkg.bytes, packageId: pkg.packageId };
  }

  /** Writes the server's TLS key and certificate (0600) for the process to read. */
  async function tlsFiles(d: DefinitionRow): Promise<{ keyFile: string; certFile: string } | undefined> {
    if (d.tls !== 1 || !d.tls_key_id) return undefined;
    const dir = join(defDir(d.id), "tls");
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const key = await deps.keys.row(d.tls_key_id);
    const keyFile = join(dir, "server.key");
    const certFile = join(dir, "server.crt");
    await writeFile(keyFile, await deps.keys.exportPrivateKeyPem(d.tls_key_id), { mode: 0o600 });
    await writeFile(certFile, key.certificate ?? "", { mode: 0o644 });
    return { keyFile, certFile };
  }

  /** Copies a source directory or executable from this host into the definition's folder. */
  async function importSourcePath(
    definitionId: number,
    path: string,
    type: string | undefined,
  ): Promise<{
    type: "node" | "go" | "executable";
    path: string;
  }> {
    const st = await stat(path).catch(() => undefined);
    if (!st) throw new InputError(`source_path: ${path} does not exist on this host`, { field: "source_path" });
    const dest = join(defDir(definitionId), "src");
    await rm(dest, { recursive: true, force: true });
    await mkdir(dest, { recursive: true });
    if (st.isFile()) {
      if (type && type !== "executable") {
        throw new InputError(`source_path: ${path} is a file; a ${type} source must be a directory`, {
          field: "source_path",
        });
      }
      await copySourceDir(path, join(dest, "chaincode"));
      return { type: "executable", path: join(dest, "chaincode") };
    }
    await copySourceDir(path, dest);
    const found = (type && type !== "auto" ? type : await detectSourceType(dest)) as
      "node" | "go" | "executable" | undefined;
    if (!found) {
      throw new InputError(`source_path: ${path} holds no package.json, go.mod or single executable`, {
        field: "source_path",
      });
    }
    return { type: found, path: dest };
  }

  async function assertNextSequence(cc: ChaincodeRow, sequence: number, field = "sequence"): Promise<void> {
    const c = await committed(cc).catch(() => undefined);
    const next = (c?.sequence ?? 0) + 1;
    if (sequence !== next) {
      throw new InputError(
        `${field}: channel '${cc.network_name}' has ${c ? `sequence ${c.sequence} committed` : "no definition committed"} for '${cc.name}'; the next definition must use sequence ${next}, not ${sequence}`,
        { field, nextSequence: next },
      );
    }
  }

  async function chooseAddress(requested: string | undefined): Promise<string> {
    if (requested) return requested;
    const used = (await repo.allDefinitions())
      .map((d) => Number(d.chaincode_address.split(":").pop()))
      .filter((p) => Number.isInteger(p));
    return `127.0.0.1:${await deps.freePort(9100, used)}`;
  }

  /** Builds (or, when `built`, only locates) a definition's runnable; records the build on its timeline. */
  async function buildDefinition(
    def: DefinitionRow,
    user: string,
    opts: { built: boolean; logFile?: string },
  ): Promise<{ command: string; args: string[]; cwd: string }> {
    if (def.source_type === "none" || !def.source_path) {
      throw new InputError("source_type: this definition has no source yet; upload an archive or give source_path", {
        field: "source_type",
      });
    }
    const kind = def.source_type as "node" | "go" | "executable";
    if (opts.built) {
      const found = await runtime
        .build(def.id, {
          type: kind,
          srcDir: def.source_path,
          logFile: join(defDir(def.id), "build.log"),
          built: true,
        })
        .catch(() => undefined);
      if (found) return found;
    }
    await repo.updateDefinition(def.id, { deploy_status: "building", deploy_error: null, updated_at: nowIso() });
    await event(def.id, "build", { status: "started", user, source_type: def.source_type });
    const buildLog = opts.logFile ?? join(defDir(def.id), "build.log");
    try {
      const run = await runtime.build(def.id, { type: kind, srcDir: def.source_path, logFile: buildLog });
      await event(def.id, "build", { status: "success", user });
      await repo.updateDefinition(def.id, { deploy_status: "none", updated_at: nowIso() });
      return run;
    } catch (err) {
      const log = err instanceof ChaincodeBuildError ? err.log : "";
      await repo.updateDefinition(def.id, {
        deploy_status: "error",
        deploy_error: errorMessage(err),
        updated_at: nowIso(),
      });
      await event(def.id, "build", { status: "failed", user, error: errorMessage(err), log });
      throw new InputError(`source: ${errorMessage(err)}`, { field: "source", buildLog: log });
    }
  }

  return {
    async list(): Promise<{ chaincodes: ChaincodeResponse[] }> {
      const rows = await repo.list();
      const defs = await repo.definitionsOf(rows.map((r) => r.id));
      return { chaincodes: rows.map((r) => chaincodeResponse(r, defs)) };
    },
    async get(id: number): Promise<ChaincodeResponse> {
      const row = await chaincode(id);
      return chaincodeResponse(row, await repo.definitionsOf([id]));
    },
    async create(body: { name: string; network_id: number }): Promise<ChaincodeResponse> {
      if (!CHAINCODE_NAME_RE.test(body.name)) {
        throw new InputError(
          `name: "${body.name}" is not a valid chaincode name: letters and digits, joined by single '-' or '_'`,
          { field: "name" },
        );
      }
      const network = await ctx.network(body.network_id).catch((err: unknown) => {
        if (err instanceof NotFoundError) {
          throw new InputError(`network_id: Fabric network ${body.network_id} not found`, { field: "network_id" });
        }
        throw err;
      });
      try {
        const id = await repo.insert({ name: body.name, network_id: network.id, created_at: nowIso() });
        return this.get(id);
      } catch (err) {
        if (isUniqueViolation(err)) {
          throw new ConflictError(`name: chaincode '${body.name}' already exists on channel '${network.name}'`, {
            field: "name",
          });
        }
        throw err;
      }
    },
    async remove(id: number): Promise<{ message: string }> {
      const cc = await chaincode(id);
      const defs = await repo.definitionsOf([id]);
      for (const d of defs) await runtime.stop(d.id);
      await repo.delete(id);
      const tlsKeys = defs.flatMap((d) => (d.tls_key_id ? [d.tls_key_id] : []));
      if (tlsKeys.length) await deps.keys.removeOwned(tlsKeys);
      for (const d of defs) await rm(defDir(d.id), { recursive: true, force: true });
      return { message: `chaincode '${cc.name}' deleted` };
    },

    async listDefinitions(chaincodeId: number): Promise<{ definitions: DefinitionResponse[] }> {
      await chaincode(chaincodeId);
      return { definitions: (await repo.definitionsOf([chaincodeId])).map(definitionResponse) };
    },
    async getDefinition(chaincodeId: number, definitionId: number) {
      const { def } = await definition(definitionId);
      if (def.chaincode_id !== chaincodeId) {
        throw new NotFoundError(`chaincode ${chaincodeId} has no definition ${definitionId}`);
      }
      const events = await this.timeline(definitionId);
      return { definition: definitionResponse(def), events };
    },
    async createDefinition(chaincodeId: number, body: CreateDefinitionBody): Promise<DefinitionResponse> {
      const cc = await chaincode(chaincodeId);
      if (body.chaincode_id !== undefined && body.chaincode_id !== chaincodeId) {
        throw new InputError(`chaincode_id: ${body.chaincode_id} differs from the path's ${chaincodeId}`, {
          field: "chaincode_id",
        });
      }
      const input: DefinitionInput = {
        name: cc.name,
        version: body.version,
        sequence: body.sequence,
        endorsementPolicy: body.endorsement_policy ?? "",
        initRequired: body.init_required ?? false,
        collections: (body.collections ?? []) as CollectionInput[],
      };
      libraryInput("", () => validateDefinition(input));
      await assertNextSequence(cc, body.sequence);
      if (body.source_type === "docker" && !body.docker_image) {
        throw new InputError("docker_image: required when source_type is docker", { field: "docker_image" });
      }
      const address = await chooseAddress(body.chaincode_address);
      const now = nowIso();
      let row: DefinitionRow;
      try {
        row = await repo.insertDefinition({
          chaincode_id: chaincodeId,
          version: body.version,
          sequence: body.sequence,
          endorsement_policy: input.endorsementPolicy,
          init_required: input.initRequired ? 1 : 0,
          collections: JSON.stringify(input.collections),
          docker_image: body.docker_image ?? "",
          chaincode_address: address,
          source_type: body.source_type ?? (body.source_path ? "none" : body.docker_image ? "docker" : "none"),
          source_path: null,
          tls: body.tls ? 1 : 0,
          tls_key_id: null,
          package_id: null,
          environment: JSON.stringify(body.environment_variables ?? {}),
          deploy_status: "none",
          deploy_error: null,
          created_at: now,
          updated_at: now,
        });
      } catch (err) {
        if (isUniqueViolation(err)) {
          throw new ConflictError(
            `sequence: chaincode '${cc.name}' already has a definition with sequence ${body.sequence}`,
            {
              field: "sequence",
            },
          );
        }
        throw err;
      }
      if (body.source_path) {
        try {
          const src = await importSourcePath(row.id, body.source_path, body.source_type);
          await repo.updateDefinition(row.id, { source_type: src.type, source_path: src.path });
        } catch (err) {
          // Nothing half-done: a definition whose source can't be read is not kept.
          await repo.deleteDefinition(row.id);
          await rm(defDir(row.id), { recursive: true, force: true });
          throw err;
        }
      }
      await event(row.id, "created", { status: "success", version: body.version, sequence: body.sequence });
      return definitionResponse((await repo.definition(row.id)) as DefinitionRow);
    },
    async updateDefinition(definitionId: number, body: UpdateDefinitionBody): Promise<DefinitionResponse> {
      const { def, cc } = await definition(definitionId);
      const c = await committed(cc).catch(() => undefined);
      if (c && c.sequence >= def.sequence) {
        throw new ConflictError(
          `definition ${definitionId} (sequence ${def.sequence}) is already committed on channel '${cc.network_name}'; create a definition with sequence ${c.sequence + 1} instead`,
        );
      }
      const input: DefinitionInput = {
        name: cc.name,
        version: body.version,
        sequence: body.sequence,
        endorsementPolicy: body.endorsement_policy ?? def.endorsement_policy,
        initRequired: body.init_required ?? def.init_required === 1,
        collections: (body.collections ?? json(def.collections, [])) as CollectionInput[],
      };
      libraryInput("", () => validateDefinition(input));
      if (body.sequence !== def.sequence) await assertNextSequence(cc, body.sequence);
      const address = body.chaincode_address ?? def.chaincode_address;
      const changesPackage = address !== def.chaincode_address || body.version !== def.version;
      try {
        await repo.updateDefinition(definitionId, {
          version: body.version,
          sequence: body.sequence,
          endorsement_policy: input.endorsementPolicy,
          init_required: input.initRequired ? 1 : 0,
          collections: JSON.stringify(input.collections),
          docker_image: body.docker_image ?? def.docker_image,
          chaincode_address: address,
          tls: body.tls === undefined ? def.tls : body.tls ? 1 : 0,
          environment: body.environment_variables ? JSON.stringify(body.environment_variables) : def.environment,
          ...(changesPackage ? { package_id: null } : {}),
          ...(body.source_type && body.source_type !== def.source_type && !body.source_path
            ? { source_type: body.source_type }
            : {}),
          updated_at: nowIso(),
        });
      } catch (err) {
        if (isUniqueViolation(err)) {
          throw new ConflictError(
            `sequence: chaincode '${cc.name}' already has a definition with sequence ${body.sequence}`,
            {
              field: "sequence",
            },
          );
        }
        throw err;
      }
      if (body.source_path) {
        const src = await importSourcePath(definitionId, body.source_path, body.source_type);
        await repo.updateDefinition(definitionId, { source_type: src.type, source_path: src.path });
      }
      await event(definitionId, "updated", { status: "success", version: body.version, sequence: body.sequence });
      return definitionResponse((await repo.definition(definitionId)) as DefinitionRow);
    },
    async deleteDefinition(definitionId: number): Promise<{ message: string }> {
      const { def } = await definition(definitionId);
      await runtime.stop(def.id);
      await repo.deleteDefinition(def.id);
      if (def.tls_key_id) await deps.keys.removeOwned([def.tls_key_id]);
      await rm(defDir(def.id), { recursive: true, force: true });
      return { message: `definition ${definitionId} deleted` };
    },
    /** Stores uploaded source (an archive) for a definition. */
    async uploadSource(
      definitionId: number,
      body: unknown,
      type: "auto" | "node" | "go" | "executable",
      user: string,
    ): Promise<DefinitionResponse> {
      const { def } = await definition(definitionId);
      if (body && typeof body === "object" && !Buffer.isBuffer(body)) {
        const path = (body as { source_path?: unknown }).source_path;
        if (typeof path !== "string" || path === "") {
          throw new InputError(
            "body.source_path: give a directory or executable path, or send the archive as application/octet-stream",
            {
              field: "body.source_path",
            },
          );
        }
        const src = await importSourcePath(def.id, path, type === "auto" ? undefined : type);
        await repo.updateDefinition(def.id, { source_type: src.type, source_path: src.path, updated_at: nowIso() });
        await event(def.id, "source", { status: "success", user, type: src.type, from: path });
        return definitionResponse((await repo.definition(def.id)) as DefinitionRow);
      }
      if (!Buffer.isBuffer(body) || body.length === 0) {
        throw new InputError("body: send the archive (tar.gz, tar or zip) or executable as application/octet-stream", {
          field: "body",
        });
      }
      const archive = body;
      const staging = join(defDir(def.id), "src.new");
      await rm(staging, { recursive: true, force: true });
      await mkdir(staging, { recursive: true });
      try {
        if (type === "executable") {
          await writeFile(join(staging, "chaincode"), archive, { mode: 0o755 });
        } else {
          await extractArchive(archive, staging).catch((err: unknown) => {
            throw new InputError(`body: ${errorMessage(err)}`, { field: "body" });
          });
        }
        const found = type === "auto" ? await detectSourceType(staging) : type;
        if (!found) {
          throw new InputError("body: the archive holds no package.json, go.mod or single executable", {
            field: "body",
          });
        }
        const dest = join(defDir(def.id), "src");
        await rm(dest, { recursive: true, force: true });
        await rename(staging, dest);
        const path = found === "executable" && type === "executable" ? join(dest, "chaincode") : dest;
        await repo.updateDefinition(def.id, { source_type: found, source_path: path, updated_at: nowIso() });
        await event(def.id, "source", { status: "success", user, type: found, bytes: archive.length });
      } finally {
        await rm(staging, { recursive: true, force: true });
      }
      return definitionResponse((await repo.definition(def.id)) as DefinitionRow);
    },

    async install(definitionId: number, peerIds: number[], user: string): Promise<Record<string, string>> {
      const { def, cc } = await definition(definitionId);
      const peers = await Promise.all(peerIds.map((id, i) => channelPeer(cc, id, `peer_ids[${i}]`)));
      const pkg = await packageOf(cc, def);
      const failures: string[] = [];
      await Promise.all(
        peers.map(async (p) => {
          const started = Date.now();
          try {
            const r = await installChaincode(ctx.grpcEndpoint(p), await adminOf(p), pkg.bytes);
            await event(def.id, "install", {
              status: "success",
              user,
              peer_id: p.id,
              peer_name: p.name,
              msp_id: p.mspId,
              package_id: r.packageId,
              already_installed: r.alreadyInstalled,
              duration_ms: Date.now() - started,
            });
          } catch (err) {
            const message = err instanceof ProposalError ? err.peerMessage : errorMessage(err);
            failures.push(`${p.name}: ${message}`);
            await event(def.id, "install", {
              status: "failed",
              user,
              peer_id: p.id,
              peer_name: p.name,
              msp_id: p.mspId,
              error: message,
            });
          }
        }),
      );
      if (failures.length) {
        throw new UpstreamError(
          `install failed on ${failures.length} of ${peers.length} peers: ${failures.join("; ")}`,
          {
            packageId: pkg.packageId,
          },
        );
      }
      return { status: "success", message: `installed on ${peers.length} peer(s)`, package_id: pkg.packageId };
    },

    async approve(definitionId: number, peerId: number, user: string): Promise<Record<string, string>> {
      const { def, cc } = await definition(definitionId);
      const p = await channelPeer(cc, peerId, "peer_id");
      const orderer = await ordererEndpoint(cc);
      const pkg = await packageOf(cc, def);
      const signer = await adminOf(p);
      const started = Date.now();
      try {
        const { txId } = await approveForMyOrg({
          peer: ctx.grpcEndpoint(p),
          orderer,
          signer,
          channelId: cc.network_name,
          definition: lifecycleInput(cc, def),
          packageId: pkg.packageId,
        });
        await event(def.id, "approve", {
          status: "success",
          user,
          peer_id: p.id,
          peer_name: p.name,
          msp_id: p.mspId,
          tx_id: txId,
          duration_ms: Date.now() - started,
        });
        return { status: "success", message: `approved for ${p.mspId}`, transaction_id: txId, msp_id: p.mspId };
      } catch (err) {
        await event(def.id, "approve", {
          status: "failed",
          user,
          peer_id: p.id,
          msp_id: p.mspId,
          error: err instanceof ProposalError ? err.peerMessage : errorMessage(err),
        });
        return fabricFailure(`approve for ${p.mspId}`, err);
      }
    },

    async commit(definitionId: number, peerId: number, user: string): Promise<Record<string, string>> {
      const { def, cc } = await definition(definitionId);
      const p = await channelPeer(cc, peerId, "peer_id");
      const orderer = await ordererEndpoint(cc);
      const signer = await adminOf(p);
      const input = lifecycleInput(cc, def);
      const c = await committed(cc, p).catch(() => undefined);
      if (c && c.sequence >= def.sequence) {
        throw new ConflictError(
          `sequence ${def.sequence} of '${cc.name}' is already committed on '${cc.network_name}'`,
        );
      }
      const approvals = await checkCommitReadiness(ctx.grpcEndpoint(p), signer, cc.network_name, input).catch(
        (err: unknown) => fabricFailure("check commit readiness", err),
      );
      const orgs = Object.keys(approvals);
      const missing = orgs.filter((o) => !approvals[o]);
      const needed = Math.floor(orgs.length / 2) + 1;
      if (orgs.length - missing.length < needed) {
        const message = `not enough approvals to commit: ${orgs.length - missing.length} of ${orgs.length} orgs approved, ${needed} needed (the channel's LifecycleEndorsement is a majority by default); not approved: ${missing.join(", ")}`;
        await event(def.id, "commit", { status: "failed", user, error: message, approvals });
        throw new ConflictError(message, { approvals, missing });
      }
      const { peers } = await channelNodes(cc.network_id);
      const endorsers: { mspId: string; endpoint: GrpcEndpoint }[] = [
        { mspId: p.mspId, endpoint: ctx.grpcEndpoint(p) },
      ];
      for (const org of orgs) {
        if (!approvals[org] || endorsers.some((e) => e.mspId === org)) continue;
        const q = peers.find((x) => x.mspId === org && x.status === "RUNNING");
        // An org whose peers run on another console: its peer synced from there (docs/governance.md).
        const endpoint = q ? ctx.grpcEndpoint(q) : (await deps.externalPeers?.(org))?.[0];
        if (endpoint) endorsers.push({ mspId: org, endpoint });
      }
      const started = Date.now();
      try {
        const { txId } = await commitDefinition({
          peers: endorsers.map((e) => e.endpoint),
          orderer,
          signer,
          channelId: cc.network_name,
          definition: input,
        });
        await event(def.id, "commit", {
          status: "success",
          user,
          peer_id: p.id,
          msp_id: p.mspId,
          endorsed_by: endorsers.map((e) => e.mspId),
          tx_id: txId,
          duration_ms: Date.now() - started,
        });
        deps.bus.publish("chaincode.committed", {
          chaincode_id: cc.id,
          chaincode_name: cc.name,
          version: def.version,
          sequence: def.sequence,
          network_id: cc.network_id,
        });
        return { status: "success", message: `committed sequence ${def.sequence}`, transaction_id: txId };
      } catch (err) {
        await event(def.id, "commit", {
          status: "failed",
          user,
          peer_id: p.id,
          error: err instanceof ProposalError ? err.peerMessage : errorMessage(err),
        });
        return fabricFailure("commit", err);
      }
    },

    /**
     * Builds a definition's source (npm install + build, go build) without running it, so a caller can
     * learn of a compile error before anything reaches the channel. `logFile` also receives the output.
     */
    async build(definitionId: number, user: string, opts: { logFile?: string } = {}): Promise<void> {
      const { def } = await definition(definitionId);
      await buildDefinition(def, user, { built: false, ...(opts.logFile ? { logFile: opts.logFile } : {}) });
    },

    async deploy(
      definitionId: number,
      env: Record<string, string> | undefined,
      user: string,
      opts: { built?: boolean } = {},
    ) {
      const { def, cc } = await definition(definitionId);
      if (def.source_type === "docker" || (def.source_type === "none" && def.docker_image)) {
        const message = (deps.dockerAvailable ?? dockerEngineAvailable)()
          ? `docker_image: the Docker runtime is not available in this version; upload the chaincode source (node, go or executable) to run it as a process`
          : `docker_image: running '${def.docker_image}' needs a Docker engine and none was found (no /var/run/docker.sock, DOCKER_HOST unset); upload the chaincode source (node, go or executable) to run it as a process`;
        throw new InputError(message, { field: "docker_image" });
      }
      if (def.source_type === "none" || !def.source_path) {
        throw new InputError("source_type: this definition has no source yet; upload an archive or give source_path", {
          field: "source_type",
        });
      }
      const installed = (await repo.events(def.id)).some(
        (e) => e.event_type === "install" && json<{ status?: string }>(e.event_data, {}).status === "success",
      );
      const pkg = await packageOf(cc, def);
      if (!installed) {
        throw new ConflictError(
          `install definition ${definitionId} on a peer before deploying it: the chaincode server's id is the installed package id (${pkg.packageId})`,
        );
      }
      const environment = { ...json<Record<string, string>>(def.environment, {}), ...(env ?? {}) };
      if (env) await repo.updateDefinition(def.id, { environment: JSON.stringify(environment) });
      const run = await buildDefinition(def, user, { built: opts.built === true });
      const args =
        def.source_type === "node"
          ? [...run.args, "--chaincode-address", def.chaincode_address, "--chaincode-id", pkg.packageId]
          : run.args;
      const tls = await tlsFiles(def);
      const base: Record<string, string> = {};
      for (const k of ["PATH", "HOME", "TMPDIR", "LANG", "TZ"]) {
        const v = process.env[k];
        if (v !== undefined) base[k] = v;
      }
      const childEnv = {
        ...base,
        ...environment,
        ...chaincodeServerEnv({
          ccid: pkg.packageId,
          address: def.chaincode_address,
          ...(tls ? { tls } : {}),
        }),
      };
      await runtime.stop(def.id);
      const state = await runtime
        .start({
          definitionId: def.id,
          command: run.command,
          args,
          env: childEnv,
          cwd: run.cwd,
          address: def.chaincode_address,
        })
        .catch(async (err: unknown) => {
          const tail = (await runtime.tail(def.id, 30)).join("\n");
          await repo.updateDefinition(def.id, {
            deploy_status: "error",
            deploy_error: errorMessage(err),
            updated_at: nowIso(),
          });
          await event(def.id, "deploy", { status: "failed", user, error: errorMessage(err), log: tail });
          throw new InputError(`the chaincode server did not start: ${errorMessage(err)}`, { log: tail });
        });
      await runtime.settle(def.id);
      await repo.updateDefinition(def.id, { deploy_status: "running", deploy_error: null, updated_at: nowIso() });
      await event(def.id, "deploy", {
        status: "success",
        user,
        pid: state.pid,
        address: def.chaincode_address,
        package_id: pkg.packageId,
      });
      return {
        status: "success",
        message: `chaincode server running at ${def.chaincode_address}`,
        pid: String(state.pid ?? ""),
      };
    },

    async undeploy(definitionId: number, user: string): Promise<Record<string, string>> {
      const { def } = await definition(definitionId);
      await runtime.stop(def.id);
      await repo.updateDefinition(def.id, { deploy_status: "stopped", deploy_error: null, updated_at: nowIso() });
      await event(def.id, "undeploy", { status: "success", user });
      return { status: "success", message: "chaincode server stopped" };
    },

    async dockerInfo(definitionId: number) {
      const { def } = await definition(definitionId);
      const s = runtime.state(def.id);
      if (!s?.pid) throw new NotFoundError(`definition ${definitionId} has no running chaincode server`);
      const running = s.status === "RUNNING";
      const started = s.startedAt ? Math.floor(Date.parse(s.startedAt) / 1000) : 0;
      let command = "";
      try {
        command = (JSON.parse(await readFile(join(defDir(def.id), "run.json"), "utf8")) as { command: string }).command;
      } catch {
        // not recorded
      }
      return {
        id: String(s.pid),
        name: s.id,
        image: command,
        state: running ? "running" : s.status === "STOPPED" ? "exited" : s.status.toLowerCase(),
        status: `${s.status}${s.restarts ? ` (${s.restarts} restarts)` : ""}`,
        docker_status: s.status.toLowerCase(),
        created: started,
        ports: [def.chaincode_address],
      };
    },

    async logFile(definitionId: number): Promise<string> {
      const { def } = await definition(definitionId);
      return runtime.logFile(def.id);
    },

    async timeline(definitionId: number) {
      await definition(definitionId);
      return (await repo.events(definitionId)).map((e) => ({
        id: e.id,
        definition_id: e.definition_id,
        event_type: e.event_type,
        event_data: json<unknown>(e.event_data, e.event_data),
        created_at: e.created_at,
      }));
    },

    /** Where the definition stands, read from the peers: installed where, approved by whom, what is committed. */
    async status(definitionId: number): Promise<StatusResponse> {
      const { def, cc } = await definition(definitionId);
      const pkg = await packageOf(cc, def);
      const label = pkg.packageId.split(":")[0] ?? "";
      const { peers } = await channelNodes(cc.network_id);
      const peerStates = await Promise.all(
        peers.map(async (p) => {
          const base = { peer_id: p.id, peer_name: p.name, msp_id: p.mspId, status: p.status };
          if (p.status !== "RUNNING")
            return { ...base, installed: false, package_ids: [], error: `peer is ${p.status}` };
          try {
            const installed = await queryInstalledChaincodes(ctx.grpcEndpoint(p), await adminOf(p));
            const ids = installed.filter((i) => i.label === label).map((i) => i.packageId);
            return { ...base, installed: ids.includes(pkg.packageId), package_ids: ids };
          } catch (err) {
            return { ...base, installed: false, package_ids: [], error: errorMessage(err) };
          }
        }),
      );
      const reader = await readPeer(cc);
      let orgs: StatusResponse["orgs"] = [];
      let committedDef: StatusResponse["committed"] = null;
      let readinessError: string | undefined;
      if (reader) {
        const signer = await adminOf(reader);
        const c = await queryChaincodeDefinition(ctx.grpcEndpoint(reader), signer, cc.network_name, cc.name).catch(
          () => undefined,
        );
        if (c) committedDef = { sequence: c.sequence, version: c.version, endorsement_policy: c.endorsementPolicy };
        if (c && c.sequence >= def.sequence) {
          orgs = Object.entries(c.sequence === def.sequence ? c.approvals : {}).map(([msp_id, approved]) => ({
            msp_id,
            approved,
          }));
        } else {
          try {
            const a = await checkCommitReadiness(
              ctx.grpcEndpoint(reader),
              signer,
              cc.network_name,
              lifecycleInput(cc, def),
            );
            orgs = Object.entries(a).map(([msp_id, approved]) => ({ msp_id, approved }));
          } catch (err) {
            readinessError = err instanceof ProposalError ? err.peerMessage : errorMessage(err);
          }
        }
      } else {
        readinessError = `no running peer of channel '${cc.network_name}' to ask`;
      }
      const s = runtime.state(def.id);
      return {
        definition_id: def.id,
        channel: cc.network_name,
        package_id: pkg.packageId,
        peers: peerStates,
        orgs,
        committed: committedDef,
        next_sequence: (committedDef?.sequence ?? 0) + 1,
        ...(readinessError ? { readiness_error: readinessError } : {}),
        deploy: {
          status: ((await repo.definition(def.id))?.deploy_status ??
            def.deploy_status) as StatusResponse["deploy"]["status"],
          pid: s?.pid ?? null,
          restarts: s?.restarts ?? 0,
          error: def.deploy_error,
        },
      };
    },

    /**
     * Each org's approval of a definition, read from a running peer of the channel here
     * (CheckCommitReadiness, or the committed definition's approvals), and the committed sequence.
     * `{}` and null when no peer here can answer.
     */
    async approvals(definitionId: number): Promise<{ approvals: Record<string, boolean>; committed: number | null }> {
      const { def, cc } = await definition(definitionId);
      const reader = await readPeer(cc);
      if (!reader) return { approvals: {}, committed: null };
      try {
        const c = await committed(cc, reader);
        if (c && c.sequence >= def.sequence) {
          return { approvals: c.sequence === def.sequence ? c.approvals : {}, committed: c.sequence };
        }
        const a = await checkCommitReadiness(
          ctx.grpcEndpoint(reader),
          await adminOf(reader),
          cc.network_name,
          lifecycleInput(cc, def),
        );
        return { approvals: a, committed: c?.sequence ?? 0 };
      } catch {
        return { approvals: {}, committed: null };
      }
    },

    /** The committed sequence of a chaincode on a channel, read from one peer. */
    async sequence(peerId: number, chaincodeName: string, channelName: string) {
      const p = await ctx.node(peerId, "peerId");
      if (p.role !== "peer") throw new InputError(`peerId: node '${p.name}' is not a peer`, { field: "peerId" });
      try {
        const c = await queryChaincodeDefinition(ctx.grpcEndpoint(p), await adminOf(p), channelName, chaincodeName);
        return {
          chaincode_name: chaincodeName,
          channel_name: channelName,
          sequence: c?.sequence ?? 0,
          status: "success",
          message: c ? `version ${c.version} is committed` : "no definition committed",
        };
      } catch (err) {
        return fabricFailure("query the committed definition", err);
      }
    },

    /** MSP ids named by the endorsement policy of the chaincode's newest definition (for error messages). */
    async policyOrgs(chaincodeId: number): Promise<string[]> {
      const defs = await repo.definitionsOf([chaincodeId]);
      const policy = defs.at(-1)?.endorsement_policy ?? "";
      return [
        ...new Set(
          [...policy.matchAll(/['"]([A-Za-z0-9.-]+)\.(?:member|peer|admin|client|orderer)['"]/g)].map(
            (m) => m[1] as string,
          ),
        ),
      ];
    },
    // Used by the calls service.
    chaincode,

    /** The sequence committed on the channel for a chaincode (0: none yet). @throws when no peer can be asked */
    async committedSequence(chaincodeId: number): Promise<number> {
      const cc = await chaincode(chaincodeId);
      if (!(await readPeer(cc))) {
        throw new ConflictError(`channel '${cc.network_name}' has no running joined peer on this console to ask`);
      }
      return (await committed(cc))?.sequence ?? 0;
    },
    readPeer,
    channelNodes,
    /** For the networks module: names a chaincode that still runs on this network. */
    async networkUsage(networkId: number): Promise<string | null> {
      const [cc] = await repo.list(networkId);
      return cc ? `chaincode '${cc.name}'` : null;
    },
    /** For the keys module: names the definition whose chaincode server uses this TLS key. */
    async keyUsage(keyId: number): Promise<string | null> {
      const d = (await repo.allDefinitions()).find((x) => x.tls_key_id === keyId);
      if (!d) return null;
      const cc = await repo.byId(d.chaincode_id);
      return `chaincode '${cc?.name ?? d.chaincode_id}' version ${d.version} (TLS key of its server)`;
    },
    close(): void {
      runtime.close();
    },
  };
}

export type ChaincodesService = ReturnType<typeof createChaincodesService>;
