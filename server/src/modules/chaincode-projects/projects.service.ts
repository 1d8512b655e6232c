import { randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { DB } from "../../db/db.js";
import { nowIso } from "../../db/db.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { applicationPolicyBytes } from "../../fabric/chaincode/definition.js";
import { ConflictError, InputError, NotFoundError } from "../../http/errors.js";
import { libraryInput } from "../fabric-networks/fabric-networks.context.js";
import { BOILERPLATES, scaffold, type Boilerplate } from "./boilerplates.js";
import { assertSourceTreeSafe } from "../fabric-chaincodes/source-policy.js";
import type { ChaincodeCalls } from "../fabric-chaincodes/chaincodes.calls.js";
import type { EventBus } from "../../events/bus.js";
import type { ChaincodesService } from "../fabric-chaincodes/chaincodes.service.js";
import { projectFiles, type ProjectFiles } from "./project-files.js";
import { projectHistory, type ProjectHistory } from "./project-history.js";
import { createProjectRunner, type ProjectRunner, type StartResult } from "./projects.run.js";
import { createProjectsRepo, type ProjectRow } from "./projects.repo.js";
import type { Operations } from "../operations/operations.js";

/** Lower-case letters, digits and single dashes: a valid Fabric chaincode name and folder name. */
export function slugFor(name: string): string {
  const base = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return `${base || "project"}-${randomBytes(4).toString("hex").slice(0, 5)}`;
}

function respond(row: ProjectRow) {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    boilerplate: row.boilerplate,
    endorsementPolicy: row.endorsement_policy,
    networkId: row.network_id,
    networkName: row.network_name,
    networkPlatform: row.network_platform,
    status: row.status as "stopped" | "building" | "running" | "error",
    lastError: row.last_error,
    lastStartedAt: row.last_started_at,
    lastStoppedAt: row.last_stopped_at,
    chaincodeId: row.chaincode_id,
    containerPort: null as number | null,
    createdAt: row.created_at,
  };
}
export type ProjectResponse = ReturnType<typeof respond>;

const checkPolicy = (policy: string): string =>
  libraryInput("", () => {
    applicationPolicyBytes(policy, "endorsementPolicy");
    return policy.trim();
  });

/**
 * Chaincode projects: a folder under `<dataDir>/projects/<slug>` scaffolded from a boilerplate, bound to
 * a Fabric network with an endorsement policy. Files are edited through `files(id)`, which keeps
 * every path inside the project.
 */
export function createProjectsService(deps: {
  db: DB;
  dir: string;
  chaincodes?: { service: ChaincodesService; calls: ChaincodeCalls };
  /** Runs before a project's folder is removed (its shell sessions end first, so nothing writes into it meanwhile). */
  beforeRemove?: (id: number) => Promise<void>;
  /** Where a start's changes of state and phase are published (the screens follow them live). */
  bus?: Pick<EventBus, "publish">;
  /** Where runs report their phases. */
  operations?: Pick<Operations, "begin">;
}) {
  const repo = createProjectsRepo(deps.db);
  const logFile = (row: Pick<ProjectRow, "id">): string => join(deps.dir, ".runs", `${row.id}.log`);
  const networkById = (id: number) =>
    deps.db.selectFrom("networks").select(["id", "name", "platform"]).where("id", "=", id).executeTakeFirst();
  const folder = (row: Pick<ProjectRow, "slug">): string => join(deps.dir, row.slug);
  const runner = deps.chaincodes
    ? createProjectRunner({
        db: deps.db,
        repo,
        chaincodes: deps.chaincodes.service,
        folder,
        logFile,
        history: (row) => projectHistory(folder(row)),
        ...(deps.bus ? { bus: deps.bus } : {}),
        ...(deps.operations ? { operations: deps.operations } : {}),
      })
    : undefined;
  const run = (): ProjectRunner => {
    if (!runner) throw new Error("chaincode projects were set up without the chaincode module");
    return runner;
  };

  async function project(id: number): Promise<ProjectRow> {
    const row = await repo.byId(id);
    if (!row) throw new NotFoundError(`id: chaincode project ${id} not found`);
    return row;
  }

  async function fabricNetwork(id: number, field: string) {
    const net = await networkById(id);
    if (!net) throw new NotFoundError(`${field}: network ${id} not found`);
    if (net.platform !== "FABRIC") {
      throw new InputError(
        `${field}: network ${id} ('${net.name}') is a ${net.platform} network; chaincode projects run on Fabric`,
        {
          field,
        },
      );
    }
    return net;
  }

  return {
    repo,

    async boilerplates(
      networkId: number | undefined,
    ): Promise<
      (Boilerplate & { image: string; repoOwner: string; repoName: string; repoPath: string; systemPrompt: string })[]
    > {
      let platform: string | undefined;
      if (networkId !== undefined) {
        const net = await networkById(networkId);
        if (!net) throw new NotFoundError(`network_id: network ${networkId} not found`);
        platform = net.platform;
      }
      return BOILERPLATES.filter((b) => platform === undefined || b.platform === platform).map((b) => ({
        ...b,
        image: "",
        repoOwner: "",
        repoName: "",
        repoPath: b.id,
        systemPrompt: "",
      }));
    },

    async list(): Promise<{ projects: ProjectResponse[] }> {
      return { projects: (await repo.list()).map(respond) };
    },

    async get(id: number): Promise<ProjectResponse> {
      const row = await project(id);
      return { ...respond(row), containerPort: runner ? await runner.port(row).catch(() => null) : null };
    },

    /** Builds the code and runs it on the channel as the next sequence (see projects.run.ts). */
    async start(id: number, user: string): Promise<StartResult> {
      return run().start(await project(id), user);
    },

    async stop(id: number, user: string) {
      return run().stop(await project(id), user);
    },

    /** The project's run log (steps, build output, errors). */
    async logPath(id: number): Promise<string> {
      return logFile(await project(id));
    },

    /** The chaincode its runs deploy (409 before the first start). */
    async chaincodeId(id: number): Promise<{ row: ProjectRow; chaincodeId: number }> {
      const row = await project(id);
      return { row, chaincodeId: run().chaincodeOf(row) };
    },

    /** An organization's client identity (the key calls sign with when only orgId is given). */
    async clientKeyOf(orgId: number): Promise<number> {
      const org = await deps.db
        .selectFrom("fabric_organizations")
        .select(["client_sign_key_id", "admin_sign_key_id"])
        .where("id", "=", orgId)
        .executeTakeFirst();
      if (!org) throw new NotFoundError(`orgId: organization ${orgId} not found`);
      const key = org.client_sign_key_id ?? org.admin_sign_key_id;
      if (!key) throw new ConflictError(`orgId: organization ${orgId} has no client or admin identity to sign with`);
      return key;
    },

    calls: () => {
      if (!deps.chaincodes) throw new Error("chaincode projects were set up without the chaincode module");
      return deps.chaincodes.calls;
    },

    async create(
      body: {
        name: string;
        networkId: number;
        boilerplate?: string | undefined;
        description?: string | undefined;
        endorsementPolicy?: string | undefined;
      },
      user = "",
    ): Promise<ProjectResponse> {
      await fabricNetwork(body.networkId, "networkId");
      const boilerplateId = body.boilerplate?.trim() || "chaincode-typescript";
      const boilerplate = BOILERPLATES.find((b) => b.id === boilerplateId);
      if (!boilerplate) {
        throw new InputError(
          `boilerplate: '${boilerplateId}' is not one of ${BOILERPLATES.map((b) => b.id).join(", ")}`,
          { field: "boilerplate" },
        );
      }
      const policy = checkPolicy(body.endorsementPolicy ?? "");
      const now = nowIso();
      const slug = slugFor(body.name);
      let id: number;
      try {
        id = await repo.insert({
          name: body.name.trim(),
          slug,
          description: body.description ?? "",
          boilerplate: boilerplate.id,
          network_id: body.networkId,
          endorsement_policy: policy,
          status: "stopped",
          chaincode_id: null,
          last_error: null,
          last_started_at: null,
          last_stopped_at: null,
          created_at: now,
          updated_at: now,
        });
      } catch (err) {
        if (isUniqueViolation(err))
          throw new ConflictError(`name: a project folder '${slug}' already exists; try again`);
        throw err;
      }
      const target = join(deps.dir, slug);
      try {
        await mkdir(deps.dir, { recursive: true, mode: 0o700 });
        await scaffold(boilerplate, target);
        // A boilerplate runs no npm install script either (they would run commands on the host).
        await assertSourceTreeSafe(target);
        await projectHistory(target).snapshot(`Create from ${boilerplate.id}`, user);
      } catch (err) {
        // Nothing half-made: no row without its folder.
        await rm(target, { recursive: true, force: true });
        await repo.delete(id);
        throw err;
      }
      return respond(await project(id));
    },

    async updatePolicy(id: number, endorsementPolicy: string): Promise<ProjectResponse> {
      await project(id);
      await repo.update(id, { endorsement_policy: checkPolicy(endorsementPolicy), updated_at: nowIso() });
      return respond(await project(id));
    },

    async remove(id: number, user = ""): Promise<{ message: string }> {
      const row = await project(id);
      if (row.status === "building") throw new ConflictError(`id: project '${row.name}' is building; wait for it`);
      // Its chaincode server stops; the chaincode and its definitions stay (they are on the channel).
      if (runner && row.status === "running") await runner.stop(row, user);
      await deps.beforeRemove?.(id);
      await repo.delete(id);
      await rm(folder(row), { recursive: true, force: true });
      await rm(logFile(row), { force: true });
      return { message: `project '${row.name}' deleted` };
    },

    /** The project's history (a git repository in its folder). */
    async history(id: number): Promise<ProjectHistory> {
      return projectHistory(folder(await project(id)));
    },

    /** The project's row and folder (where its shell starts, what its download holds). */
    async folder(id: number): Promise<{ row: ProjectRow; dir: string }> {
      const row = await project(id);
      return { row, dir: folder(row) };
    },

    /** The project's files, confined to its folder. */
    async files(id: number): Promise<{ row: ProjectRow; files: ProjectFiles }> {
      const row = await project(id);
      return { row, files: projectFiles(folder(row)) };
    },

    /** For the Fabric network usage guard. */
    async networkUsage(networkId: number): Promise<string | null> {
      const p = await repo.onNetwork(networkId);
      return p ? `chaincode project '${p.name}'` : null;
    },
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
