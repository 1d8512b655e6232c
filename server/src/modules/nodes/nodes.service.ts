import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { nowIso } from "../../db/db.js";
import { ConflictError, errorMessage, InputError, NotFoundError, UpstreamError } from "../../http/errors.js";
import type Docker from "dockerode";
import { ensureFabricImage, ensureImage, type DockerRuntime } from "../../runtime/docker/index.js";
import { proposeFabricNodePorts, runFile, type FabricBinaryResolver, type ProcessSpec } from "../../runtime/index.js";
import type { BesuNetworksService } from "../besu-networks/besu-networks.service.js";
import type { KeysService } from "../keys/keys.service.js";
import type { OrganizationsRepo } from "../organizations/organizations.repo.js";
import type { SettingsService } from "../settings/settings.service.js";
import { BESU_VERSION, BesuBinaryError, type BesuBinaryResolver } from "./besu-binary.js";
import {
  besuContainerSpec,
  besuImage,
  besuKeyFileFromPem,
  besuProcessSpec,
  planBesuNode,
  writeBesuFiles,
  type BesuDeployment,
} from "./besu-node.js";
import {
  fabricProcessSpec,
  issueFabricIdentities,
  reissueFabricCertificates,
  writeFabricFiles,
  type FabricDeployment,
  type FabricRole,
  type OrgCas,
} from "./fabric-node.js";
import { deploymentOf, toNodeResponse } from "./nodes.mapping.js";
import type { NodeFilter, NodeRow, NodesRepo } from "./nodes.repo.js";
import type { NodeRuntime } from "./nodes.runtime.js";
import type {
  BesuNodeConfig,
  CreateNodeBody,
  FabricOrdererConfig,
  FabricPeerConfig,
  NodeResponse,
  UpdateNodeBody,
} from "./nodes.schema.js";
import {
  assertPortsFree,
  ownPorts,
  besuInput,
  defaultFabricVersion,
  hostPort,
  portOwners,
  resolveFabricBinary,
  slugify,
} from "./nodes.validation.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import type { EventBus } from "../../events/bus.js";

type FabricConfig = FabricPeerConfig | FabricOrdererConfig;

export interface NodesServiceDeps {
  repo: NodesRepo;
  runtime: NodeRuntime;
  keys: Pick<KeysService, "get" | "row" | "createKey" | "recertify" | "exportPrivateKeyPem" | "removeOwned">;
  orgs: Pick<OrganizationsRepo, "byId">;
  besuNetworks: Pick<BesuNetworksService, "get">;
  settings: Pick<SettingsService, "get">;
  fabricBins: FabricBinaryResolver;
  besuBins: BesuBinaryResolver;
  dataDir: string;
  /** External Besu nodes synced from other consoles (for `externalBootnodeIds`): their enode URLs by id. */
  externalEnodes?: (ids: number[]) => Promise<{ id: number; enodeUrl: string }[]>;
  /** Announces created, changed and deleted nodes (`node.created|updated|deleted`), e.g. for the scrape config. */
  bus?: Pick<EventBus, "publish">;
  /** The console's Docker engine: Fabric nodes with mode "docker" run there. */
  docker?: DockerRuntime;
  /** Repositories (no tag) of the images container nodes run; the tag is the node's version. */
  images: { fabric: string; besu: string };
}

/**
 * Nodes: validation before anything exists, identities from the org CAs, files under
 * `<dataDir>/nodes/<slug>/`, and the supervised process. A failed creation leaves nothing behind.
 */
export function createNodesService(deps: NodesServiceDeps) {
  const { repo, runtime, keys } = deps;
  const sup = runtime.supervisor;
  /** Ports claimed by creations that have not stored their deployment yet. */
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

  async function exposeHost(): Promise<string> {
    return (await deps.settings.get()).config.defaultNodeExposeIP || "127.0.0.1";
  }

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
    const proposed = needsProposal
      ? await proposeFabricNodePorts(role, { reserved: [...owners.keys(), ...inFlight] })
      : undefined;
    const listenAddress = cfg.listenAddress || `0.0.0.0:${proposed?.listen}`;
    const listen = hostPort(listenAddress, `${prefix}.listenAddress`);
    const operationsAddress = cfg.operationsListenAddress || `0.0.0.0:${proposed?.operations}`;
    const ops = hostPort(operationsAddress, `${prefix}.operationsListenAddress`);
    const externalEndpoint = cfg.externalEndpoint || `${await exposeHost()}:${listen.port}`;
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

  async function startRow(row: NodeRow): Promise<void> {
    const { spec, problem } = await specOf(row);
    if (problem) {
      await runtime.setStatus(row.slug, "ERROR", problem);
      return;
    }
    await sup.start(spec);
  }

  /** Makes sure the supervisor knows the node (it may run, left by an earlier console). */
  async function attach(row: NodeRow): Promise<ProcessSpec> {
    const { spec } = await specOf(row);
    if (!sup.get(row.slug)) await sup.adopt(spec);
    return spec;
  }

  function startInBackground(row: NodeRow): void {
    void startRow(row).catch((err: unknown) =>
      runtime.setStatus(row.slug, "ERROR", `start failed: ${(err as Error).message}`).catch(() => undefined),
    );
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

  async function create(input: CreateNodeBody, start: boolean): Promise<NodeResponse> {
    let body = input;
    if (body.besuNode?.externalBootnodeIds) {
      // Resolved once, at creation: the node's config keeps the enode URLs, not the ids.
      const { externalBootnodeIds, ...besuNode } = body.besuNode;
      const bootNodes = await withExternalBootnodes(
        besuNode.bootNodes ?? [],
        externalBootnodeIds,
        "besuNode.externalBootnodeIds",
      );
      body = { ...body, besuNode: { ...besuNode, bootNodes } };
    }
    const platform = body.blockchainPlatform;
    const given = (["fabricPeer", "fabricOrderer", "besuNode"] as const).filter((k) => body[k] !== undefined);
    const expected = platform === "BESU" ? ["besuNode"] : ["fabricPeer", "fabricOrderer"];
    if (given.length !== 1 || !expected.includes(given[0] as string)) {
      throw new InputError(
        platform === "BESU"
          ? "besuNode: a BESU node needs besuNode (and no fabricPeer/fabricOrderer)"
          : "fabricPeer: a FABRIC node needs exactly one of fabricPeer or fabricOrderer",
      );
    }
    if (await repo.byName(body.name)) throw new ConflictError(`name: a node named '${body.name}' already exists`);
    const rows = await repo.all();
    const slug = slugify(body.name, new Set(rows.map((r) => r.slug)));
    const dir = join(deps.dataDir, "nodes", slug);
    const ts = nowIso();

    // Validate everything first: nothing exists until this passes.
    let fabric:
      | {
          role: FabricRole;
          cfg: FabricConfig;
          plan: Awaited<ReturnType<typeof planFabric>> & { image?: string; engine?: string };
          cas: OrgCas;
        }
      | undefined;
    let besu: Awaited<ReturnType<typeof planBesu>> | undefined;
    if (body.fabricPeer || body.fabricOrderer) {
      const role: FabricRole = body.fabricPeer ? "peer" : "orderer";
      const prefix = body.fabricPeer ? "fabricPeer" : "fabricOrderer";
      const cfg = (body.fabricPeer ?? body.fabricOrderer) as FabricConfig;
      const cas = await orgCas(cfg.organizationId, cfg.mspId, prefix);
      const plan = await planFabric(role, cfg, prefix, rows);
      const engine = cfg.dockerEngine && cfg.dockerEngine !== "local" ? cfg.dockerEngine : undefined;
      if (cfg.dockerEngine && cfg.mode !== "docker") {
        throw new InputError(`${prefix}.dockerEngine: only for mode "docker"`, { field: `${prefix}.dockerEngine` });
      }
      if (engine && !deps.docker?.has(engine)) {
        throw new InputError(`${prefix}.dockerEngine: no Docker engine named '${engine}' is registered`, {
          field: `${prefix}.dockerEngine`,
        });
      }
      const image = cfg.mode === "docker" ? await fabricImage(plan, `${prefix}.mode`, engine) : undefined;
      fabric = { role, cfg, cas, plan: { ...plan, ...(image ? { image } : {}), ...(engine ? { engine } : {}) } };
    } else {
      besu = await planBesu(body.besuNode as BesuNodeConfig, dir, rows);
      if (body.besuNode?.mode === "docker") {
        // The engine answers and has (or can pull) the Besu image: said before anything is written.
        const image = besuImage(besu.d, deps.images.besu);
        await dockerImageReady(image, "besuNode.mode");
        besu.d = { ...besu.d, mode: "docker", image };
      }
      // Valid, but is there a besu to run it? Said before anything is written.
      else if (start) await assertBesuRunnable(body.besuNode?.version);
    }
    const ports = fabric?.plan.ports ?? besu?.d.ports ?? [];
    for (const p of ports) inFlight.add(p);

    const createdKeys: number[] = [];
    let row: NodeRow | undefined;
    try {
      row = await repo
        .insert({
          name: body.name,
          slug,
          platform,
          node_type: fabric ? (fabric.role === "peer" ? "FABRIC_PEER" : "FABRIC_ORDERER") : "BESU_FULLNODE",
          status: "PENDING",
          error_message: null,
          endpoint: null,
          organization_id: fabric?.cfg.organizationId ?? null,
          network_id: besu?.d.networkId ?? null,
          key_id: besu?.d.keyId ?? null,
          tls_key_id: null,
          config: JSON.stringify(body.fabricPeer ?? body.fabricOrderer ?? body.besuNode),
          deployment: "{}",
          created_at: ts,
          updated_at: ts,
        })
        .catch((err: unknown) => {
          if (isUniqueViolation(err)) throw new ConflictError(`name: a node named '${body.name}' already exists`);
          throw err;
        });
      let deployment: FabricDeployment | BesuDeployment;
      let endpoint: string;
      if (fabric) {
        const { role, cfg, plan, cas } = fabric;
        // 0 is Go's zero value for an unset int: the default.
        const validDays = cfg.certificateExpiration || 365;
        const ids = await issueFabricIdentities(
          keys,
          {
            slug,
            name: body.name,
            role,
            cas,
            externalHost: plan.externalHost,
            domainNames: cfg.domainNames ?? [],
            validDays,
          },
          (id) => createdKeys.push(id),
        );
        const peerCfg = cfg as FabricPeerConfig;
        deployment = {
          kind: "fabric",
          role,
          version: plan.version,
          binary: plan.binary,
          dir,
          logFile: join(dir, "logs", `${role}.log`),
          mspId: cas.mspId,
          organizationId: cfg.organizationId,
          listenAddress: plan.listenAddress,
          externalEndpoint: plan.externalEndpoint,
          operationsAddress: plan.operationsAddress,
          ...(plan.chaincodeAddress ? { chaincodeAddress: plan.chaincodeAddress } : {}),
          ...(plan.adminAddress ? { adminAddress: plan.adminAddress } : {}),
          ...(role === "peer" && peerCfg.eventsAddress ? { eventsAddress: peerCfg.eventsAddress } : {}),
          domainNames: cfg.domainNames ?? [],
          addressOverrides: cfg.addressOverrides ?? [],
          ordererAddressOverrides: role === "peer" ? (peerCfg.ordererAddressOverrides ?? []) : [],
          env: cfg.env ?? {},
          ports: plan.ports,
          healthUrl: plan.healthUrl,
          ...ids,
          signCaCert: cas.signCaCert,
          tlsCaCert: cas.tlsCaCert,
          certValidDays: validDays,
          ...(plan.image ? { mode: "docker" as const, image: plan.image } : {}),
          ...(plan.engine ? { engine: plan.engine } : {}),
        };
        await writeFabricFiles(keys, deployment, slug);
        endpoint = plan.externalEndpoint;
      } else {
        const b = besu as NonNullable<typeof besu>;
        deployment = b.d;
        const keyFileContent = besuKeyFileFromPem(await keys.exportPrivateKeyPem(b.d.keyId));
        await writeBesuFiles(deployment, { genesis: b.genesis, keyFileContent });
        endpoint = `${b.d.props.rpcHost}:${b.d.props.rpcPort}`;
      }
      await repo.update(row.id, {
        deployment: JSON.stringify(deployment),
        endpoint,
        key_id: deployment.kind === "fabric" ? deployment.signKeyId : deployment.keyId,
        tls_key_id: deployment.kind === "fabric" ? deployment.tlsKeyId : null,
        updated_at: nowIso(),
      });
      await repo.insertEvent({
        node_id: row.id,
        type: "created",
        data: JSON.stringify({ name: body.name, slug, ports: deployment.ports }),
        created_at: nowIso(),
      });
    } catch (err) {
      // Nothing half-written stays: the row, the keys issued for it and its folder go.
      if (row) await repo.delete(row.id).catch(() => undefined);
      if (createdKeys.length) await keys.removeOwned([...createdKeys].reverse()).catch(() => undefined);
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
      throw err;
    } finally {
      for (const p of ports) inFlight.delete(p);
    }
    const created = await mustGet(row.id);
    deps.bus?.publish("node.created", { node_id: created.id, node_name: created.name });
    if (start) startInBackground(created);
    return toNodeResponse(created);
  }

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

  async function restartRow(row: NodeRow): Promise<void> {
    const { spec, problem } = await specOf(row);
    if (problem) {
      await runtime.setStatus(row.slug, "ERROR", problem);
      return;
    }
    runtime.plan(row.slug, "restart");
    await sup.restart(spec);
  }

  async function stopRow(row: NodeRow): Promise<void> {
    await attach(row);
    runtime.plan(row.slug, "stop");
    await sup.stop(row.slug);
  }

  /** Other modules that name what still uses a node. */
  const usageCheckers: Array<(nodeId: number) => Promise<string | null>> = [];

  return {
    mustGet,
    create,
    assertBesuRunnable,
    update,
    async list(filter: NodeFilter, page: number, limit: number) {
      const { rows, total } = await repo.page(filter, limit, (page - 1) * limit);
      const pageCount = Math.ceil(total / limit);
      return { items: rows.map(toNodeResponse), total, page, pageCount, hasNextPage: page < pageCount };
    },
    async get(id: number): Promise<NodeResponse> {
      return toNodeResponse(await mustGet(id));
    },
    async start(id: number): Promise<NodeResponse> {
      await startRow(await mustGet(id));
      await runtime.settle(id);
      return toNodeResponse(await mustGet(id));
    },
    async stop(id: number): Promise<NodeResponse> {
      await stopRow(await mustGet(id));
      await runtime.settle(id);
      return toNodeResponse(await mustGet(id));
    },
    async restart(id: number): Promise<NodeResponse> {
      await restartRow(await mustGet(id));
      await runtime.settle(id);
      return toNodeResponse(await mustGet(id));
    },
    /**
     * Runs the peer binary of a Fabric peer on its own config and ledger, for commands Fabric
     * allows only while the peer is stopped (`peer node unjoin`): a running peer is stopped
     * first and started again afterwards, also when the command fails.
     */
    async peerOffline(id: number, args: string[]): Promise<{ output: string }> {
      const row = await mustGet(id);
      const d = deploymentOf(row);
      if (d.kind !== "fabric" || d.role !== "peer") {
        throw new InputError(`id: node '${row.name}' is not a Fabric peer`, { field: "id" });
      }
      const spec = fabricProcessSpec(row.slug, d);
      const wasRunning = toNodeResponse(row).status === "RUNNING";
      if (wasRunning) {
        await stopRow(row);
        await runtime.settle(id);
      }
      try {
        const { stdout, stderr } = await runFile(spec.command, args, {
          timeoutMs: 60_000,
          env: spec.env,
          cwd: spec.cwd,
        }).catch((err: Error & { stdout?: string; stderr?: string }) => {
          const output = `${err.stdout ?? ""}${err.stderr ?? ""}`.trim();
          throw new UpstreamError(`peer ${args.join(" ")} on '${row.name}' failed: ${output || err.message}`);
        });
        return { output: `${stdout}${stderr}`.trim() };
      } finally {
        if (wasRunning) {
          await startRow(await mustGet(id));
          await runtime.settle(id);
        }
      }
    },
    /** Lets another module (Fabric networks) block deletion of nodes it uses. */
    addUsageChecker(check: (nodeId: number) => Promise<string | null>): void {
      usageCheckers.push(check);
    },
    /** Stops the node, removes its files and rows, frees its ports and the keys it owns. */
    async remove(id: number): Promise<NodeRow> {
      const row = await mustGet(id);
      for (const check of usageCheckers) {
        const user = await check(id);
        if (user)
          throw new ConflictError(`id: node '${row.name}' is still part of ${user}; remove it from there first`);
      }
      const d = deploymentOf(row);
      if (d.kind) await stopRow(row);
      sup.remove(row.slug);
      runtime.untrack(row.slug);
      await runtime.settle(id);
      await rm(join(deps.dataDir, "nodes", row.slug), { recursive: true, force: true });
      await repo.delete(id);
      deps.bus?.publish("node.deleted", { node_id: id, node_name: row.name });
      if (d.kind === "fabric") await keys.removeOwned([d.tlsKeyId, d.signKeyId]).catch(() => undefined);
      return row;
    },
    /** Reissues the TLS and signing certificates for the same keys, rewrites the MSP and restarts. */
    async renewCertificates(id: number): Promise<NodeResponse> {
      const row = await mustGet(id);
      const d = deploymentOf(row);
      if (d.kind !== "fabric") throw new InputError(`id: node ${id} is not a Fabric node; it has no certificates`);
      const cas = await orgCas(d.organizationId, undefined, d.role === "peer" ? "fabricPeer" : "fabricOrderer");
      const next: FabricDeployment = { ...d, ...(await reissueFabricCertificates(keys, d, row.name, cas)) };
      await writeFabricFiles(keys, next, row.slug);
      await repo.update(id, { deployment: JSON.stringify(next), updated_at: nowIso() });
      await repo.insertEvent({ node_id: id, type: "certificates_renewed", data: "{}", created_at: nowIso() });
      const renewed = await mustGet(id);
      if (row.status !== "STOPPED" && row.status !== "PENDING") await restartRow(renewed);
      await runtime.settle(id);
      return toNodeResponse(await mustGet(id));
    },
    /**
     * At boot: re-attaches to every node stored as RUNNING or STARTING. A node whose process is
     * gone (a reboot) is started again; none is ever spawned twice (pid file + /proc check).
     */
    /** Names a node placed on the registered Docker engine `engine`, or null. */
    async engineUsage(engine: string): Promise<string | null> {
      for (const row of await repo.all()) {
        const d = deploymentOf(row) as { engine?: string };
        if (d.engine === engine) return `node '${row.name}'`;
      }
      return null;
    },
    async adoptAll(): Promise<void> {
      // Outages that were going on when the console stopped carry on (before adoption reports RUNNING).
      for (const row of await repo.down()) {
        runtime.restoreDown(
          { id: row.id, name: row.name },
          { since: row.down_since as string, reason: row.down_reason, alerted: row.down_alerted === 1 },
        );
      }
      const rows = await repo.withStatus(["RUNNING", "STARTING"]);
      await Promise.all(
        rows.map(async (row) => {
          const { spec } = await specOf(row);
          const state = await sup.adopt(spec);
          if (!state.adopted) {
            await repo.insertEvent({
              node_id: row.id,
              type: "not_found_at_boot",
              data: JSON.stringify({ status: row.status }),
              created_at: nowIso(),
            });
            await startRow(row);
          }
        }),
      );
    },
    /**
     * Every node's folder, with the pid of its process group when it runs: what a backup pauses
     * (SIGSTOP) while it copies that folder, so the copy is what a crash at that instant would leave.
     */
    async backupPoints(): Promise<Array<{ id: number; name: string; slug: string; dir: string; pid?: number }>> {
      const out: Array<{ id: number; name: string; slug: string; dir: string; pid?: number }> = [];
      for (const row of await repo.all()) {
        const d = deploymentOf(row);
        if (!d.kind) continue; // a node whose creation did not finish has nothing to copy
        const dir = d.dir;
        const state = sup.get(row.slug);
        const pid = state && (state.status === "RUNNING" || state.status === "STARTING") ? state.pid : undefined;
        out.push({ id: row.id, name: row.name, slug: row.slug, dir, ...(pid ? { pid } : {}) });
      }
      return out;
    },
    /** For the keys module: names the node that uses a key. */
    async keyUsage(keyId: number): Promise<string | null> {
      const row = await repo.userOfKey(keyId);
      return row ? `node '${row.name}'` : null;
    },
  };
}

export type NodesService = ReturnType<typeof createNodesService>;
