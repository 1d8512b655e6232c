import { dirname } from "node:path";
import type Docker from "dockerode";
import { ConflictError, errorMessage, InputError, NotFoundError } from "../../http/errors.js";
import { ensureFabricImage, ensureImage } from "../../runtime/docker/index.js";
import { proposeFabricNodePorts, type ProcessSpec } from "../../runtime/index.js";
import type { BesuNetworkResponse } from "../besu-networks/besu-networks.schema.js";
import type { KeyResponse } from "../keys/keys.schema.js";
import { BESU_VERSION, BesuBinaryError } from "./besu-binary.js";
import { besuContainerSpec, besuProcessSpec, planBesuNode, type BesuDeployment } from "./besu-node.js";
import { fabricProcessSpec, type FabricRole, type OrgCas } from "./fabric-node.js";
import { nodePlacement } from "./nodes.defaults.js";
import { deploymentOf } from "./nodes.mapping.js";
import type { NodeRow } from "./nodes.repo.js";
import type { BesuNodeConfig } from "./nodes.schema.js";
import type { FabricConfig, NodesServiceDeps } from "./nodes.types.js";
import {
  assertPortsFree,
  besuInput,
  defaultFabricVersion,
  hostPort,
  ownPorts,
  portOwners,
  resolveFabricBinary,
} from "./nodes.validation.js";

/** A Fabric node's resolved addresses, ports and binary, before anything is written. */
export interface FabricPlan {
  version: string;
  binary: string;
  listenAddress: string;
  operationsAddress: string;
  externalEndpoint: string;
  externalHost: string;
  chaincodeAddress: string | undefined;
  adminAddress: string | undefined;
  ports: number[];
  healthUrl: string;
}

/** A Besu node's deployment and the genesis of its network, before anything is written. */
export interface BesuPlan {
  d: BesuDeployment;
  genesis: string;
}

/** The checks and lookups that creation, update and the lifecycle verbs share. */
export interface NodePlanner {
  /** Ports claimed by creations that have not stored their deployment yet. */
  inFlight: Set<number>;
  mustGet(id: number): Promise<NodeRow>;
  orgCas(organizationId: number, mspId: string | undefined, prefix: string): Promise<OrgCas>;
  exposeHost(): Promise<string>;
  planFabric(
    role: FabricRole,
    cfg: FabricConfig & { chaincodeAddress?: string | undefined; adminAddress?: string | undefined },
    prefix: string,
    rows: NodeRow[],
    exceptId?: number,
  ): Promise<FabricPlan>;
  besuNetwork(networkId: number, prefix: string): Promise<BesuNetworkResponse>;
  besuKey(keyId: number, prefix: string): Promise<KeyResponse>;
  planBesu(cfg: BesuNodeConfig, dir: string, rows: NodeRow[], exceptId?: number): Promise<BesuPlan>;
  onEngine<T>(field: string, engine: string, use: (client: Docker) => Promise<T>): Promise<T>;
  fabricImage(plan: { version: string; binary: string }, field: string, engine?: string): Promise<string>;
  dockerImageReady(image: string, field: string): Promise<void>;
  specOf(row: NodeRow): Promise<{ spec: ProcessSpec; problem?: string }>;
  assertBesuRunnable(version: string | undefined): Promise<void>;
  withExternalBootnodes(bootnodes: string[], ids: number[], field: string): Promise<string[]>;
}

/**
 * The shared half of the nodes service: validation and planning with no side effects (addresses,
 * ports, binaries, org CAs, keys, Docker images) and the process spec of a stored node. Split out so
 * that create, update and the lifecycle verbs each live in a file of their own and share one
 * `inFlight` set of ports, which keeps two concurrent creations from claiming the same port.
 */
export function createNodePlanner(deps: NodesServiceDeps): NodePlanner {
  const { repo, runtime, keys } = deps;
  const inFlight = new Set<number>();

  async function mustGet(id: number): Promise<NodeRow> {
    const row = await repo.byId(id);
    if (!row) throw new NotFoundError(`node ${id} not found`);
    return row;
  }

  async function orgCas(organizationId: number, mspId: string | undefined, prefix: string): Promise<OrgCas> {
    const org = await deps.orgs.byId(organizationId);
    if (!org) throw new InputError(`${prefix}.organizationId: organization ${organizationId} not found`);
    if (mspId !== undefined && org.msp_id !== mspId) {
      throw new InputError(
        `${prefix}.mspId: '${mspId}' is not the MSP id of organization ${organizationId} ('${org.msp_id}')`,
      );
    }
    const [sign, tls] = await Promise.all([keys.row(org.sign_key_id), keys.row(org.tls_root_key_id)]);
    return {
      mspId: org.msp_id,
      providerId: org.provider_id,
      signCaKeyId: sign.id,
      tlsCaKeyId: tls.id,
      signCaCert: sign.certificate ?? "",
      tlsCaCert: tls.certificate ?? "",
    };
  }

  const placement = async () => nodePlacement((await deps.settings.get()).config);
  const exposeHost = async () => (await placement()).host;

  /** Resolves and checks a Fabric node's addresses, ports and binary. No side effects. */
  async function planFabric(
    role: FabricRole,
    cfg: FabricConfig & { chaincodeAddress?: string | undefined; adminAddress?: string | undefined },
    prefix: string,
    rows: NodeRow[],
    exceptId?: number,
  ) {
    const owners = portOwners(rows, exceptId);
    const needsProposal =
      !cfg.listenAddress ||
      !cfg.operationsListenAddress ||
      (role === "peer" ? !cfg.chaincodeAddress : !cfg.adminAddress);
    // The settings are read once, and only when an address is left to them.
    const placed = needsProposal || !cfg.externalEndpoint ? await placement() : undefined;
    // Proposed within the settings' port range, as GET /nodes/defaults proposes them (a template's empty
    // addresses land here): 7050/8443/9443 outside it would ignore the range the admin set.
    const proposed =
      placed && needsProposal
        ? await proposeFabricNodePorts(role, { reserved: [...owners.keys(), ...inFlight], range: placed.range })
        : undefined;
    const listenAddress = cfg.listenAddress || `0.0.0.0:${proposed?.listen}`;
    const listen = hostPort(listenAddress, `${prefix}.listenAddress`);
    const operationsAddress = cfg.operationsListenAddress || `0.0.0.0:${proposed?.operations}`;
    const ops = hostPort(operationsAddress, `${prefix}.operationsListenAddress`);
    const externalEndpoint = cfg.externalEndpoint || `${placed?.host}:${listen.port}`;
    const external = hostPort(externalEndpoint, `${prefix}.externalEndpoint`);
    const wanted = [
      { field: `${prefix}.listenAddress`, port: listen.port },
      { field: `${prefix}.operationsListenAddress`, port: ops.port },
    ];
    let chaincodeAddress: string | undefined;
    let adminAddress: string | undefined;
    if (role === "peer") {
      chaincodeAddress = cfg.chaincodeAddress || `0.0.0.0:${proposed?.chaincode}`;
      wanted.push({
        field: `${prefix}.chaincodeAddress`,
        port: hostPort(chaincodeAddress, `${prefix}.chaincodeAddress`).port,
      });
    } else {
      adminAddress = cfg.adminAddress || `0.0.0.0:${proposed?.admin}`;
      wanted.push({ field: `${prefix}.adminAddress`, port: hostPort(adminAddress, `${prefix}.adminAddress`).port });
    }
    await assertPortsFree(wanted, owners, inFlight, ownPorts(rows, exceptId));
    const version = cfg.version || (await defaultFabricVersion(deps.fabricBins, role));
    const bins = await resolveFabricBinary(deps.fabricBins, version, role, `${prefix}.version`);
    const opsHost = ops.host === "0.0.0.0" || ops.host === "::" ? "127.0.0.1" : ops.host;
    return {
      version,
      binary: bins.paths[role] as string,
      listenAddress,
      operationsAddress,
      externalEndpoint,
      externalHost: external.host,
      chaincodeAddress,
      adminAddress,
      ports: wanted.map((w) => w.port),
      healthUrl: `http://${opsHost}:${ops.port}/healthz`,
    };
  }

  async function besuNetwork(networkId: number, prefix: string) {
    try {
      return await deps.besuNetworks.get(networkId);
    } catch (err) {
      if (err instanceof NotFoundError)
        throw new InputError(`${prefix}.networkId: Besu network ${networkId} not found`);
      throw err;
    }
  }

  async function besuKey(keyId: number, prefix: string) {
    const key = await keys.get(keyId).catch((err: unknown) => {
      if (err instanceof NotFoundError) throw new InputError(`${prefix}.keyId: key ${keyId} not found`);
      throw err;
    });
    if (key.curve !== "secp256k1") {
      throw new InputError(
        `${prefix}.keyId: key ${keyId} is ${key.algorithm}${key.curve ? ` ${key.curve}` : ""}, not secp256k1`,
      );
    }
    if (!key.canUseInNodes) {
      throw new InputError(
        `${prefix}.keyId: key ${keyId} lives in key provider "${key.provider.name}" (${key.provider.type}), ` +
          "which never hands out private keys; besu reads its node key from disk, so use a key of the database provider",
      );
    }
    return key;
  }

  /** Builds a Besu deployment and checks its ports. No side effects. */
  async function planBesu(cfg: BesuNodeConfig, dir: string, rows: NodeRow[], exceptId?: number) {
    const net = await besuNetwork(cfg.networkId, "besuNode");
    const key = await besuKey(cfg.keyId, "besuNode");
    const d = besuInput("besuNode.", () =>
      planBesuNode({ dir, config: cfg, keyId: key.id, publicKeyPem: key.publicKey, chainId: net.chainId }),
    );
    d.networkId = net.id;
    const fields = ["besuNode.p2pPort", "besuNode.rpcPort", "besuNode.metricsPort"];
    await assertPortsFree(
      d.ports.map((port, i) => ({ field: fields[i] ?? "besuNode", port })),
      portOwners(rows, exceptId),
      inFlight,
      ownPorts(rows, exceptId),
    );
    return { d, genesis: net.genesisConfig };
  }

  /**
   * Runs `use` with the engine's client once the engine answers; any failure (no engine, no answer,
   * no image) is a 400 on `field` that says what is missing, before anything is written.
   */
  async function onEngine<T>(field: string, engine: string, use: (client: Docker) => Promise<T>): Promise<T> {
    const docker = deps.docker;
    try {
      if (!docker) throw new Error("this console has no Docker runtime");
      await docker.ready(engine);
      return await use(docker.client(engine));
    } catch (err) {
      throw new InputError(`${field}: docker: ${errorMessage(err)}`, { field });
    }
  }

  /** Mode "docker": the Fabric image of the node's version, built on the engine from the same binaries (once per version). */
  const fabricImage = (plan: { version: string; binary: string }, field: string, engine = "local"): Promise<string> =>
    onEngine(field, engine, (client) =>
      ensureFabricImage(client, {
        version: plan.version,
        binDir: dirname(plan.binary),
        repository: deps.images.fabric,
      }),
    );

  /** The engine has (or can pull) `image`. */
  const dockerImageReady = (image: string, field: string): Promise<void> =>
    onEngine(field, "local", (client) => ensureImage(client, image));

  /** The supervised process; a Besu node without a launcher has none (null + why). */
  async function specOf(row: NodeRow): Promise<{ spec: ProcessSpec; problem?: string }> {
    const d = deploymentOf(row);
    runtime.track(row.slug, { id: row.id, name: row.name, ...(d.kind ? { logFile: d.logFile } : {}) });
    if (d.kind === "fabric") return { spec: fabricProcessSpec(row.slug, d) };
    if (d.kind === "besu") {
      if (d.mode === "docker") return { spec: besuContainerSpec(row.slug, d) };
      try {
        // The node's Besu version picks the release to download when none is installed.
        const bin = await deps.besuBins.resolve(BESU_VERSION.test(d.props.version) ? d.props.version : undefined);
        return { spec: besuProcessSpec(row.slug, d, bin.path, bin.javaHome) };
      } catch (err) {
        if (!(err instanceof BesuBinaryError)) throw err;
        return { spec: besuProcessSpec(row.slug, d, "/nonexistent/besu"), problem: err.message };
      }
    }
    throw new ConflictError(`node ${row.id} has no deployment (its creation did not finish)`);
  }

  /**
   * Refuses to create a Besu node that is to start when no `besu` can be found (nor downloaded), before
   * anything is written: a node that could only ever be in ERROR helps no one. With start=false the
   * node is set up and can be started once Besu is installed.
   */
  async function assertBesuRunnable(version: string | undefined): Promise<void> {
    try {
      await deps.besuBins.resolve(version && BESU_VERSION.test(version) ? version : undefined);
    } catch (err) {
      if (!(err instanceof BesuBinaryError)) throw err;
      throw new ConflictError(
        `start: the node can't start: ${err.message}. Nothing was created; create it with start=false to set it up now`,
      );
    }
  }

  /**
   * `bootnodes` with the enode URLs of the external Besu nodes named by `ids` appended, without
   * duplicates (404 naming the field for an unknown id).
   */
  async function withExternalBootnodes(bootnodes: string[], ids: number[], field: string): Promise<string[]> {
    const found = ids.length ? ((await deps.externalEnodes?.(ids)) ?? []) : [];
    const byId = new Map(found.map((n) => [n.id, n.enodeUrl]));
    const extra = ids.map((id, i) => {
      const url = byId.get(id);
      if (!url) throw new NotFoundError(`${field}[${i}]: no external Besu node with id ${id}`);
      return url;
    });
    return [...new Set([...bootnodes, ...extra])];
  }

  return {
    inFlight,
    mustGet,
    orgCas,
    exposeHost,
    planFabric,
    besuNetwork,
    besuKey,
    planBesu,
    onEngine,
    fabricImage,
    dockerImageReady,
    specOf,
    assertBesuRunnable,
    withExternalBootnodes,
  };
}
