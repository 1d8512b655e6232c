import { rm } from "node:fs/promises";
import { nowIso } from "../../db/db.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import {
  CHAINCODE_NAME_RE,
  validateDefinition,
  type CollectionInput,
  type DefinitionInput,
} from "../../fabric/chaincode/definition.js";
import { ConflictError, InputError, NotFoundError } from "../../http/errors.js";
import { libraryInput } from "../fabric-networks/fabric-networks.context.js";
import type { DefinitionRow } from "./chaincodes.repo.js";
import type {
  ChaincodeResponse,
  CreateDefinitionBody,
  DefinitionResponse,
  UpdateDefinitionBody,
} from "./chaincodes.schema.js";
import { json, type ChaincodeShared, type ChaincodesDeps } from "./chaincodes.shared.js";
import type { ChaincodeSources } from "./chaincodes.source.js";

/** A unique violation on (chaincode, sequence) as the 409 naming `sequence`; any other error as it is. */
function sequenceTaken(err: unknown, chaincode: string, sequence: number): unknown {
  return isUniqueViolation(err)
    ? new ConflictError(`sequence: chaincode '${chaincode}' already has a definition with sequence ${sequence}`, {
        field: "sequence",
      })
    : err;
}

/** Chaincodes and their definitions: the rows, their validation against the channel, and the timeline. */
export function createChaincodeDefinitions(
  deps: ChaincodesDeps,
  s: ChaincodeShared,
  src: Pick<ChaincodeSources, "importSourcePath">,
) {
  const { repo, ctx, runtime } = deps;
  const { defDir, chaincode, definition, chaincodeResponse, definitionResponse, committed, assertNextSequence, event } =
    s;
  const { chooseAddress } = s;
  const { importSourcePath } = src;
  const api = {
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
        return api.get(id);
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
      const events = await api.timeline(definitionId);
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
        throw sequenceTaken(err, cc.name, body.sequence);
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
      const address = body.chaincode_address || def.chaincode_address;
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
        throw sequenceTaken(err, cc.name, body.sequence);
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
  };
  return api;
}

export type ChaincodeDefinitions = ReturnType<typeof createChaincodeDefinitions>;
