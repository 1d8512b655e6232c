import type { z } from "zod";
import { addressFromPublicKey, buildQbftGenesis, parseGenesis } from "../../besu/index.js";
import { BesuInputError } from "../../besu/errors.js";
import { nowIso } from "../../db/db.js";
import { uniqueViolationColumn } from "../../db/unique-violation.js";
import { ConflictError, InputError, NotFoundError } from "../../http/errors.js";
import type { KeysService } from "../keys/keys.service.js";
import type { NetworkRow, BesuNetworksRepo } from "./besu-networks.repo.js";
import type { BesuNetworkResponse, createBesuNetworkBody, importBesuNetworkBody } from "./besu-networks.schema.js";

type CreateBody = z.infer<typeof createBesuNetworkBody>;
type ImportBody = z.infer<typeof importBesuNetworkBody>;

function toResponse(row: NetworkRow): BesuNetworkResponse {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? "",
    platform: "BESU",
    status: row.status,
    chainId: Number(row.chain_id),
    config: Buffer.from(row.config).toString("base64"),
    genesisConfig: row.genesis ?? "",
    validators: JSON.parse(row.validators) as string[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Runs a Besu library call, turning its named input errors into named 400s under `prefix`. */
function besuInput<T>(prefix: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof BesuInputError) throw new InputError(`${prefix}${err.message}`);
    throw err;
  }
}

/** QBFT networks: validated parameters in, a genesis with the validators' extraData out. */
export function createBesuNetworksService(deps: { repo: BesuNetworksRepo; keys: Pick<KeysService, "get"> }) {
  const { repo, keys } = deps;
  /** Other modules (nodes) that name what still uses a network. */
  const usageCheckers: Array<(networkId: number) => Promise<string | null>> = [];

  /**
   * Inserts the network; when a concurrent create took the name or chain id after assertFree passed,
   * the unique index refuses the second insert, answered like assertFree would.
   */
  async function insertUnique(...args: Parameters<BesuNetworksRepo["insert"]>) {
    try {
      return await repo.insert(...args);
    } catch (err) {
      const column = uniqueViolationColumn(err);
      if (column === undefined) throw err;
      const row = args[0];
      if (column.includes("chain_id")) {
        throw new ConflictError(`config.chainId: chain id ${String(row.chain_id)} is already used by another network`);
      }
      throw new ConflictError(`name: a network named '${row.name}' already exists`);
    }
  }

  async function assertFree(name: string, chainId: number): Promise<void> {
    if (await repo.byName(name)) throw new ConflictError(`name: a network named '${name}' already exists`);
    const clash = await repo.byChainId(chainId);
    if (clash) throw new InputError(`config.chainId: chain id ${chainId} is already used by network '${clash.name}'`);
  }

  async function validatorAddresses(config: CreateBody["config"]): Promise<string[]> {
    const out: string[] = [];
    for (const [i, keyId] of config.initialValidatorsKeyIds.entries()) {
      const field = `config.initialValidatorsKeyIds[${i}]`;
      const key = await keys.get(keyId).catch((err: unknown) => {
        if (err instanceof NotFoundError) throw new InputError(`${field}: key ${keyId} not found`);
        throw err;
      });
      if (key.curve !== "secp256k1" || !key.ethereumAddress) {
        throw new InputError(
          `${field}: key ${keyId} is ${key.algorithm}${key.curve ? ` ${key.curve}` : ""}, not secp256k1`,
        );
      }
      out.push(key.ethereumAddress);
    }
    for (const [i, ext] of config.externalValidatorKeys.entries()) {
      const field = `config.externalValidatorKeys[${i}]`;
      const derived = besuInput(`${field}.`, () => addressFromPublicKey(ext.publicKey));
      if (ext.ethereumAddress && ext.ethereumAddress.toLowerCase() !== derived.toLowerCase()) {
        throw new InputError(
          `${field}.ethereumAddress: ${ext.ethereumAddress} does not match the public key (${derived})`,
        );
      }
      out.push(derived);
    }
    if (out.length === 0)
      throw new InputError("config.initialValidatorsKeyIds: a QBFT network needs at least one validator");
    const seen = new Set<string>();
    for (const a of out) {
      if (seen.has(a.toLowerCase())) throw new InputError(`config: validator ${a} is listed twice`);
      seen.add(a.toLowerCase());
    }
    return out;
  }

  return {
    async list(limit: number, offset: number, name?: string) {
      const { rows, total } = await repo.list(limit, offset, name);
      return { networks: rows.map(toResponse), total };
    },
    async get(id: number): Promise<BesuNetworkResponse> {
      const row = await repo.byId(id);
      if (!row) throw new NotFoundError(`Besu network ${id} not found`);
      return toResponse(row);
    },
    async create(body: CreateBody): Promise<BesuNetworkResponse> {
      const c = body.config;
      await assertFree(body.name, c.chainId);
      const validators = await validatorAddresses(c);
      const genesis = besuInput("config.", () =>
        buildQbftGenesis({
          chainId: c.chainId,
          blockPeriodSeconds: c.blockPeriod,
          epochLength: c.epochLength,
          requestTimeoutSeconds: c.requestTimeout,
          validators,
          ...(c.gasLimit ? { gasLimit: c.gasLimit } : {}),
          ...(c.difficulty ? { difficulty: c.difficulty } : {}),
          ...(c.mixHash ? { mixHash: c.mixHash } : {}),
          ...(c.nonce ? { nonce: c.nonce } : {}),
          ...(c.timestamp ? { timestamp: c.timestamp } : {}),
          ...(c.coinbase ? { coinbase: c.coinbase } : {}),
          ...(c.alloc ? { alloc: c.alloc } : {}),
        }),
      );
      const now = nowIso();
      const row = await insertUnique(
        {
          name: body.name,
          platform: "BESU",
          description: body.description ?? null,
          status: "created",
          chain_id: c.chainId,
          config: JSON.stringify({ ...c, consensus: "qbft" }),
          genesis: JSON.stringify(genesis, null, 2),
          validators: JSON.stringify(validators),
          created_at: now,
          updated_at: now,
        },
        c.initialValidatorsKeyIds,
      );
      return toResponse(row);
    },
    async import(body: ImportBody): Promise<{ message: string; networkId: number }> {
      let json: unknown;
      try {
        json = JSON.parse(body.genesisFile);
      } catch (err) {
        throw new InputError(`genesisFile: is not valid JSON (${err instanceof Error ? err.message : "parse error"})`);
      }
      const parsed = besuInput("genesisFile.", () => parseGenesis(json));
      if (body.chainId !== undefined && body.chainId !== parsed.chainId) {
        throw new InputError(`chainId: ${body.chainId} does not match the genesis chain id ${parsed.chainId}`);
      }
      await assertFree(body.name, parsed.chainId);
      const now = nowIso();
      const row = await insertUnique(
        {
          name: body.name,
          platform: "BESU",
          description: body.description ?? null,
          status: "imported",
          chain_id: parsed.chainId,
          config: JSON.stringify({
            consensus: "qbft",
            chainId: parsed.chainId,
            blockPeriod: parsed.qbft.blockPeriodSeconds,
            epochLength: parsed.qbft.epochLength,
            requestTimeout: parsed.qbft.requestTimeoutSeconds,
          }),
          genesis: JSON.stringify(parsed.genesis, null, 2),
          validators: JSON.stringify(parsed.validators),
          created_at: now,
          updated_at: now,
        },
        [],
      );
      return { message: "Network imported", networkId: row.id };
    },
    /** Lets another module block deletion of networks it uses. */
    addUsageChecker(check: (networkId: number) => Promise<string | null>): void {
      usageCheckers.push(check);
    },
    async remove(id: number): Promise<NetworkRow> {
      const row = await repo.byId(id);
      if (!row) throw new NotFoundError(`Besu network ${id} not found`);
      for (const check of usageCheckers) {
        const user = await check(id);
        if (user) throw new ConflictError(`id: network '${row.name}' is still used by ${user}; delete that first`);
      }
      await repo.delete(id);
      return row;
    },
    /** For the keys module: names the network that still uses a validator key. */
    async keyUsage(keyId: number): Promise<string | null> {
      const name = await repo.networkUsingKey(keyId);
      return name ? `Besu network '${name}'` : null;
    },
  };
}

export type BesuNetworksService = ReturnType<typeof createBesuNetworksService>;
