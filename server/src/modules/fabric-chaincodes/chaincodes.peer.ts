import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { nowIso } from "../../db/db.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { ConfigtxInputError } from "../../fabric/configtx/errors.js";
import { CHAINCODE_NAME_RE, validateDefinition } from "../../fabric/chaincode/definition.js";
import { installChaincode } from "../../fabric/chaincode/lifecycle.js";
import { readChaincodePackage, type PackageInfo } from "../../fabric/chaincode/package-read.js";
import { ProposalError } from "../../fabric/peer-client.js";
import { ConflictError, errorMessage, InputError, NotFoundError } from "../../http/errors.js";
import type { FabricNodeInfo } from "../fabric-networks/fabric-networks.context.js";
import type { FabricNetworksRepo, NetworkRow } from "../fabric-networks/fabric-networks.repo.js";
import type { ChaincodeRow, DefinitionRow } from "./chaincodes.repo.js";
import type { ChaincodesService } from "./chaincodes.service.js";
import { json, type ChaincodeShared, type ChaincodesDeps } from "./chaincodes.shared.js";

/** A definition as upstream's approve and commit requests carry it. */
export interface PeerDefinition {
  channelID: string;
  name: string;
  version: string;
  sequence: number;
  endorsementPolicy: string;
  initRequired: boolean;
  /** Approve only: the installed package the org's peers run. */
  packageID?: string;
}

/** A step of the package journal: an install made before any definition names the package. */
interface PackageInstall {
  peer_id: number;
  peer_name: string;
  msp_id: string;
  user: string;
  at: string;
  status: "started" | "success" | "failed";
  already_installed?: boolean;
  error?: string;
}

/** What an approve or commit answered, with the definition it ran on. */
export interface PeerStepResult {
  definitionId: number;
  message: string;
  transaction_id?: string;
  already?: string;
}
const stepResult = (definitionId: number, r: Record<string, string>): PeerStepResult => ({
  definitionId,
  message: r.message ?? "",
  ...(r.transaction_id ? { transaction_id: r.transaction_id } : {}),
  ...(r.already ? { already: r.already } : {}),
});

/** Where a request field of upstream's definition comes out of the library's validation. */
const FIELD_NAMES: Record<string, string> = { endorsement_policy: "endorsementPolicy", collections: "collections" };

/**
 * Upstream's per-peer lifecycle (install on a peer, approve for its org, commit on the channel) on
 * this console's lifecycle: approve and commit find (or record) the chaincode and the definition
 * the request describes, origin "package", and then run the same idempotent, journaled steps as
 * `/sc/fabric/definitions/{id}/approve|commit` (decision 50). Install takes the caller's package:
 * its bytes are kept under `<dataDir>/chaincodes/packages/` with a journal of the installs (written
 * "started" before the peer is asked), which become the definition's install entries once a
 * definition names the package.
 */
export function createChaincodePeerLifecycle(
  deps: ChaincodesDeps & { fabricNetworks: Pick<FabricNetworksRepo, "fabricByName"> },
  s: ChaincodeShared,
  steps: Pick<ChaincodesService, "approve" | "commit">,
) {
  const { repo, ctx } = deps;
  const pkgDir = join(deps.dir, "packages");
  const pkgFile = (packageId: string) => join(pkgDir, `${packageId.replace(/[^A-Za-z0-9_.+-]/g, "_")}.tar.gz`);
  const journalFile = (packageId: string) => pkgFile(packageId).replace(/\.tar\.gz$/, ".json");
  const readJournal = async (packageId: string): Promise<PackageInstall[]> =>
    json<PackageInstall[]>(await readFile(journalFile(packageId), "utf8").catch(() => "[]"), []);
  /** Journal writes of one package go one after the other (concurrent installs on several peers). */
  const journalQueue = new Map<string, Promise<unknown>>();
  const journal = (packageId: string, fn: (entries: PackageInstall[]) => void): Promise<void> => {
    const next = (journalQueue.get(packageId) ?? Promise.resolve()).then(async () => {
      const entries = await readJournal(packageId);
      fn(entries);
      await writeFile(journalFile(packageId), JSON.stringify(entries, null, 1));
    });
    journalQueue.set(
      packageId,
      next.catch(() => undefined),
    );
    return next;
  };

  /** A peer of this console by the path's id (400 naming peerId when it is none). */
  async function peerOf(peerId: number, field = "peerId"): Promise<FabricNodeInfo> {
    const n = await ctx.node(peerId, field).catch((err: unknown) => {
      if (err instanceof NotFoundError) throw new InputError(`${field}: node ${peerId} not found`, { field });
      throw err;
    });
    if (n.role !== "peer") throw new InputError(`${field}: node '${n.name}' is not a peer`, { field });
    return n;
  }

  /** A channel of this console by name (400 naming channelID). */
  async function channelOfName(channelID: string, prefix = ""): Promise<NetworkRow> {
    const field = `${prefix}channelID`;
    if (!channelID) throw new InputError(`${field}: required`, { field });
    const network = await deps.fabricNetworks.fabricByName(channelID);
    if (!network) throw new InputError(`${field}: no Fabric channel '${channelID}' on this console`, { field });
    return network;
  }

  /** The channel by name, and the peer must have joined it. */
  async function channelOf(channelID: string, p: FabricNodeInfo, prefix = ""): Promise<NetworkRow> {
    const network = await channelOfName(channelID, prefix);
    const { peers } = await s.channelNodes(network.id);
    if (!peers.some((x) => x.id === p.id))
      throw new InputError(`peerId: peer '${p.name}' has not joined channel '${channelID}'`, { field: "peerId" });
    return network;
  }

  /** Checks the definition as `_lifecycle` would, naming upstream's fields. */
  function validate(d: PeerDefinition, prefix: string): void {
    if (!CHAINCODE_NAME_RE.test(d.name))
      throw new InputError(`${prefix}name: "${d.name}" is not a valid chaincode name`, { field: `${prefix}name` });
    try {
      validateDefinition({ ...d, collections: [] });
    } catch (err) {
      if (!(err instanceof ConfigtxInputError)) throw err;
      const field = `${prefix}${FIELD_NAMES[err.field] ?? err.field}`;
      throw new InputError(`${field}: ${err.message}`, { field });
    }
  }

  /** The chaincode row of (channel, name), created when new; concurrent creators meet the unique index. */
  async function chaincodeOf(network: NetworkRow, name: string): Promise<ChaincodeRow> {
    const find = async () => (await repo.list(network.id)).find((c) => c.name === name);
    const found = await find();
    if (found) return found;
    try {
      await repo.insert({ name, network_id: network.id, created_at: nowIso() });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    return (await find())!;
  }

  /**
   * The definition at the request's sequence: recorded (origin "package") when new, brought in
   * line with the request when it is not committed yet, and a 409 naming what differs when the
   * channel has that sequence committed with other parameters.
   */
  async function definitionFor(cc: ChaincodeRow, d: PeerDefinition, via: FabricNodeInfo): Promise<DefinitionRow> {
    const want = {
      version: d.version,
      endorsement_policy: d.endorsementPolicy,
      init_required: d.initRequired ? 1 : 0,
      ...(d.packageID ? { package_id: d.packageID } : {}),
    };
    const stored = d.packageID ? await readFile(pkgFile(d.packageID)).catch(() => undefined) : undefined;
    const info = stored ? readChaincodePackage(stored) : undefined;
    const existing = (await repo.definitionsOf([cc.id])).find((x) => x.sequence === d.sequence);
    if (!existing) {
      const now = nowIso();
      try {
        const row = await repo.insertDefinition({
          chaincode_id: cc.id,
          sequence: d.sequence,
          ...want,
          package_id: d.packageID || null,
          collections: "[]",
          docker_image: "",
          chaincode_address: info?.connection?.address ?? "",
          source_type: "none",
          source_path: null,
          tls: 0,
          tls_key_id: null,
          environment: "{}",
          deploy_status: "none",
          deploy_error: null,
          origin: "package",
          created_at: now,
          updated_at: now,
        });
        await s.event(row.id, "created", {
          status: "success",
          version: d.version,
          sequence: d.sequence,
          origin: "package",
        });
        if (stored && d.packageID) await adoptInstalls(row, d.packageID);
        return row;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        return definitionFor(cc, d, via);
      }
    }
    // A definition this console packages itself approves its own package: a different one is not swapped in.
    if (existing.origin !== "package" && d.packageID && d.packageID !== existing.package_id)
      throw new ConflictError(
        `packageID: sequence ${d.sequence} of '${cc.name}' is this console's definition ${existing.id}, which installs its own package${existing.package_id ? ` (${existing.package_id})` : ""}; approve it with that package id or through /sc/fabric/definitions/${existing.id}/approve`,
        { field: "packageID" },
      );
    const differences = Object.entries(want)
      .filter(([k, v]) => (existing as unknown as Record<string, unknown>)[k] !== v)
      .map(([k]) => k);
    if (differences.length === 0) return existing;
    const committed = await s.committed(cc, via).catch(() => undefined);
    if (committed && committed.sequence >= d.sequence)
      throw new ConflictError(
        `sequence: sequence ${d.sequence} of '${cc.name}' is committed on '${cc.network_name}' with other parameters (${differences.join(", ")}); use sequence ${committed.sequence + 1}`,
        { field: "sequence", differences },
      );
    await repo.updateDefinition(existing.id, {
      ...want,
      ...(info?.connection?.address && existing.origin === "package"
        ? { chaincode_address: info.connection.address }
        : {}),
      updated_at: nowIso(),
    });
    // A new package for the definition: its earlier installs become the definition's (later ones are journaled on it).
    if (stored && d.packageID && existing.origin === "package" && differences.includes("package_id"))
      await adoptInstalls(existing, d.packageID);
    await s.event(existing.id, "updated", { status: "success", changed: differences, via: "peer lifecycle" });
    return (await repo.definition(existing.id))!;
  }

  /** The package's installs become the definition's install entries, and its bytes its package. */
  async function adoptInstalls(def: DefinitionRow, packageId: string): Promise<void> {
    await mkdir(s.defDir(def.id), { recursive: true });
    await copyFile(pkgFile(packageId), join(s.defDir(def.id), "package.tar.gz"));
    const seen = new Set(
      (await repo.events(def.id)).filter((e) => e.event_type === "install").map((e) => e.event_data),
    );
    for (const e of await readJournal(packageId)) {
      const data = JSON.stringify({ ...e, package_id: packageId, journaled: "package" });
      if (seen.has(data)) continue;
      await repo.insertEvent({ definition_id: def.id, event_type: "install", event_data: data, created_at: e.at });
    }
  }

  /**
   * Installs a package on a peer. The bytes are kept first, and the install is journaled
   * "started" (on the package, and on every definition that already names it) before the peer is
   * asked; installing a package the peer has is a success (`alreadyInstalled`).
   */
  async function storePackage(bytes: Buffer, info: PackageInfo): Promise<void> {
    await mkdir(pkgDir, { recursive: true });
    await writeFile(pkgFile(info.packageId), bytes);
  }

  async function install(peerId: number, bytes: Buffer, info: PackageInfo, user: string, field = "peerId") {
    const p = await peerOf(peerId, field);
    await storePackage(bytes, info);
    const base = { peer_id: p.id, peer_name: p.name, msp_id: p.mspId, user, at: nowIso() };
    await journal(info.packageId, (j) => j.push({ ...base, status: "started" }));
    const defs = (await repo.allDefinitions()).filter((d) => d.package_id === info.packageId);
    const entries = await Promise.all(
      defs.map((d) =>
        s.begin(d.id, "install", {
          user,
          peer_id: p.id,
          peer_name: p.name,
          msp_id: p.mspId,
          package_id: info.packageId,
        }),
      ),
    );
    const settle = async (status: "success" | "failed", more: Record<string, unknown>) => {
      await journal(info.packageId, (j) => {
        const e = j.findLast((x) => x.peer_id === p.id && x.at === base.at && x.status === "started");
        if (e) Object.assign(e, { status, ...more });
      });
      await Promise.all(entries.map((e) => e.finish(status, more)));
    };
    try {
      const r = await installChaincode(ctx.grpcEndpoint(p), await s.adminOf(p), bytes);
      await settle("success", { already_installed: r.alreadyInstalled });
      return { peer: p, packageId: r.packageId, alreadyInstalled: r.alreadyInstalled };
    } catch (err) {
      const message = err instanceof ProposalError ? err.peerMessage : errorMessage(err);
      await settle("failed", { error: message });
      return s.fabricFailure(`install on '${p.name}'`, err);
    }
  }

  /** Resolves the peer, channel, chaincode and definition a request describes. */
  async function resolve(peerId: number, d: PeerDefinition, prefix = "") {
    validate(d, prefix);
    const p = await peerOf(peerId);
    const network = await channelOf(d.channelID, p, prefix);
    const cc = await chaincodeOf(network, d.name);
    const def = await definitionFor(cc, d, p);
    return { p, cc, def };
  }

  return {
    peerOf,
    channelOfName,
    validate,
    storePackage,
    install,
    /** Records the definition a request describes (before its package is installed: one-shot deploy). */
    async prepare(peerId: number, d: PeerDefinition, prefix = ""): Promise<DefinitionRow> {
      return (await resolve(peerId, d, prefix)).def;
    },
    async approve(peerId: number, d: PeerDefinition, user: string, prefix = "") {
      const { p, def } = await resolve(peerId, d, prefix);
      return stepResult(def.id, await steps.approve(def.id, p.id, user));
    },
    async commit(peerId: number, d: PeerDefinition, user: string, prefix = "") {
      const { p, def } = await resolve(peerId, d, prefix);
      return stepResult(def.id, await steps.commit(def.id, p.id, user));
    },
  };
}

export type ChaincodePeerLifecycle = ReturnType<typeof createChaincodePeerLifecycle>;
