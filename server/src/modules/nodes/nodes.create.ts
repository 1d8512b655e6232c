import { rm } from "node:fs/promises";
import { join } from "node:path";
import { nowIso } from "../../db/db.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { ConflictError, InputError } from "../../http/errors.js";
import { besuImage, besuKeyFileFromPem, writeBesuFiles, type BesuDeployment } from "./besu-node.js";
import {
  issueFabricIdentities,
  writeFabricFiles,
  type FabricDeployment,
  type FabricRole,
  type OrgCas,
} from "./fabric-node.js";
import { toNodeResponse } from "./nodes.mapping.js";
import type { BesuPlan, FabricPlan, NodePlanner } from "./nodes.plan.js";
import type { NodeRow } from "./nodes.repo.js";
import type { NodeRunner } from "./nodes.run.js";
import type { BesuNodeConfig, CreateNodeBody, FabricPeerConfig, NodeResponse } from "./nodes.schema.js";
import type { FabricConfig, NodesServiceDeps } from "./nodes.types.js";
import { slugify } from "./nodes.validation.js";

/** Creates a node and, when `start`, starts it in the background. */
export type NodeCreate = (input: CreateNodeBody, start: boolean) => Promise<NodeResponse>;

/**
 * The create verb of the nodes service, in its own file because it is the longest one: everything is
 * validated first (nothing exists until that passes), then the row, identities and files are written,
 * and a failure removes the row, the keys issued for it and its folder, so nothing half-made stays.
 */
export function createNodeCreator(deps: NodesServiceDeps, planner: NodePlanner, runner: NodeRunner): NodeCreate {
  const { repo, keys } = deps;
  const {
    inFlight,
    mustGet,
    orgCas,
    planFabric,
    planBesu,
    fabricImage,
    dockerImageReady,
    assertBesuRunnable,
    withExternalBootnodes,
  } = planner;
  const { startInBackground } = runner;

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
          plan: FabricPlan & { image?: string; engine?: string };
          cas: OrgCas;
        }
      | undefined;
    let besu: BesuPlan | undefined;
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

  return create;
}
