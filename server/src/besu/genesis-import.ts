/**
 * Reads an existing Besu genesis file for import: validates it is a QBFT genesis and pulls
 * out the chain id, the QBFT settings and the initial validators from extraData.
 *
 * Besu treats genesis item names case-insensitively (except alloc addresses), and the docs'
 * own QBFT example writes `chainid`, so lookups here ignore case.
 * https://besu.hyperledger.org/public-networks/reference/genesis-items
 */
import type { Address } from "viem";
import { BesuInputError } from "./errors.js";
import { MAX_INT64, parseAddress, parseFixedHex, parseInteger, parseQuantity } from "./encoding.js";
import { decodeQbftExtraData, parseValidatorAddresses, type QbftExtraData } from "./extra-data.js";
import { buildAlloc, type GenesisAllocInput } from "./genesis.js";

/**
 * Besu's defaults when a `qbft` key is absent (`JsonBftConfigOptions`: epoch 30000,
 * block period 1 s, round expiry 1 s).
 */
export const BESU_QBFT_DEFAULTS = { epochLength: 30_000, blockPeriodSeconds: 1, requestTimeoutSeconds: 1 } as const;

/** QBFT settings read from `config.qbft`. */
export interface ParsedQbftConfig {
  blockPeriodSeconds: number;
  epochLength: number;
  requestTimeoutSeconds: number;
  startBlock?: number;
  /** Set when validators are managed by a contract instead of header votes. */
  validatorContractAddress?: Address;
}

/** What an imported genesis yields. */
export interface ParsedQbftGenesis {
  chainId: number;
  qbft: ParsedQbftConfig;
  /** Initial validators from extraData, in encoded order; empty in contract mode. */
  validators: Address[];
  extraData: QbftExtraData;
  /** The parsed JSON object, unchanged, for storing and handing to nodes. */
  genesis: Record<string, unknown>;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pick(obj: JsonObject, name: string): unknown {
  const lower = name.toLowerCase();
  const key = Object.keys(obj).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : obj[key];
}

function optionalInt(obj: JsonObject, name: string, field: string, min: number, fallback: number): number {
  const value = pick(obj, name);
  if (value === undefined) {
    return fallback;
  }
  const n = parseQuantity(value, field, { min: BigInt(min), max: BigInt(Number.MAX_SAFE_INTEGER) });
  return Number(n);
}

function parseQbftConfig(config: JsonObject): ParsedQbftConfig {
  const qbft = pick(config, "qbft");
  if (qbft === undefined) {
    const other = ["ibft2", "clique", "ethash"].find((k) => pick(config, k) !== undefined);
    throw new BesuInputError(
      "genesis.config.qbft",
      other ? `is missing: this genesis uses ${other}; only QBFT networks can be imported` : "is missing",
    );
  }
  if (!isObject(qbft)) {
    throw new BesuInputError("genesis.config.qbft", "must be an object");
  }
  const f = "genesis.config.qbft";
  const parsed: ParsedQbftConfig = {
    blockPeriodSeconds: optionalInt(
      qbft,
      "blockperiodseconds",
      `${f}.blockperiodseconds`,
      1,
      BESU_QBFT_DEFAULTS.blockPeriodSeconds,
    ),
    epochLength: optionalInt(qbft, "epochlength", `${f}.epochlength`, 1, BESU_QBFT_DEFAULTS.epochLength),
    requestTimeoutSeconds: optionalInt(
      qbft,
      "requesttimeoutseconds",
      `${f}.requesttimeoutseconds`,
      1,
      BESU_QBFT_DEFAULTS.requestTimeoutSeconds,
    ),
  };
  const startBlock = pick(qbft, "startBlock");
  if (startBlock !== undefined) {
    parsed.startBlock = parseInteger(startBlock, `${f}.startBlock`, 0);
  }
  const contract = pick(qbft, "validatorcontractaddress");
  if (contract !== undefined) {
    parsed.validatorContractAddress = parseAddress(contract, `${f}.validatorcontractaddress`);
  }
  return parsed;
}

/**
 * Parses and validates a QBFT genesis given as JSON text or an already-parsed object.
 * Throws {@link BesuInputError} with a `genesis.…` field path on any problem.
 */
export function parseGenesis(input: unknown): ParsedQbftGenesis {
  let json: unknown = input;
  if (typeof input === "string") {
    try {
      json = JSON.parse(input);
    } catch (err) {
      throw new BesuInputError("genesis", `is not valid JSON (${err instanceof Error ? err.message : "parse error"})`);
    }
  }
  if (!isObject(json)) {
    throw new BesuInputError("genesis", "must be a JSON object");
  }
  const config = pick(json, "config");
  if (!isObject(config)) {
    throw new BesuInputError("genesis.config", "must be an object");
  }
  const rawChainId = pick(config, "chainId");
  if (rawChainId === undefined) {
    throw new BesuInputError("genesis.config.chainId", "is missing");
  }
  const chainId = Number(
    parseQuantity(rawChainId, "genesis.config.chainId", { min: 1n, max: BigInt(Number.MAX_SAFE_INTEGER) }),
  );
  const qbft = parseQbftConfig(config);

  const rawExtra = pick(json, "extraData");
  if (rawExtra === undefined) {
    throw new BesuInputError("genesis.extraData", "is missing; QBFT needs the validator list in extraData");
  }
  const extraData = decodeQbftExtraData(String(rawExtra), "genesis.extraData");
  const validators = parseValidatorAddresses(
    extraData.validators,
    "genesis.extraData.validators",
    qbft.validatorContractAddress !== undefined,
  );

  const gasLimit = pick(json, "gasLimit");
  if (gasLimit !== undefined) {
    parseQuantity(gasLimit, "genesis.gasLimit", { min: 1n, max: MAX_INT64 });
  }
  const mixHash = pick(json, "mixHash");
  if (mixHash !== undefined) {
    parseFixedHex(mixHash, "genesis.mixHash", 32);
  }
  const coinbase = pick(json, "coinbase");
  if (coinbase !== undefined) {
    parseAddress(coinbase, "genesis.coinbase");
  }
  const alloc = pick(json, "alloc");
  if (alloc !== undefined) {
    if (!isObject(alloc)) {
      throw new BesuInputError("genesis.alloc", "must be an object keyed by address");
    }
    buildAlloc(alloc as Record<string, GenesisAllocInput>, "genesis.alloc");
  }
  return { chainId, qbft, validators, extraData, genesis: json };
}
