/**
 * QBFT genesis files for Besu.
 *
 * Shape and example values follow Besu's "Configure QBFT consensus" page (block header
 * validator selection): https://besu.hyperledger.org/private-networks/how-to/configure/consensus/qbft
 * Milestones follow "Genesis file items": in private networks the latest milestone block is
 * given and the preceding milestones are implied; the QBFT example uses `berlinBlock: 0`.
 * https://besu.hyperledger.org/public-networks/reference/genesis-items
 */
import type { Address, Hex } from "viem";
import { BesuInputError } from "./errors.js";
import {
  MAX_INT64,
  parseAddress,
  parseFixedHex,
  parseHexData,
  parseInteger,
  parseQuantity,
  toQuantity,
} from "./encoding.js";
import { buildQbftExtraData } from "./extra-data.js";

/** The mixHash Besu requires for BFT blocks ("ctical byzantine fault tolerance" in ASCII). */
export const QBFT_MIX_HASH: Hex = "0x63746963616c2062797a616e74696e65206661756c7420746f6c6572616e6365";
/** The gas limit used by the Besu QBFT docs example. */
export const DEFAULT_GAS_LIMIT: Hex = "0x29b92700";
/** The Ethereum protocol minimum block gas limit. */
export const MIN_GAS_LIMIT = 5000n;
const ZERO_ADDRESS: Address = "0x0000000000000000000000000000000000000000";
const ZERO_HASH: Hex = `0x${"00".repeat(32)}`;
const MAX_UINT256 = (1n << 256n) - 1n;

/** Milestone names documented in Besu's genesis items (block numbers pre-merge, timestamps after). */
export const BESU_MILESTONES = [
  "homesteadBlock",
  "eip150Block",
  "eip155Block",
  "eip158Block",
  "byzantiumBlock",
  "constantinopleBlock",
  "petersburgBlock",
  "istanbulBlock",
  "muirGlacierBlock",
  "berlinBlock",
  "londonBlock",
  "arrowGlacierBlock",
  "grayGlacierBlock",
  "shanghaiTime",
  "cancunTime",
  "pragueTime",
  "osakaTime",
] as const;

/** A documented Besu milestone key. */
export type BesuMilestone = (typeof BESU_MILESTONES)[number];

/** Milestones used when the caller gives none: the Besu QBFT docs example. */
export const DEFAULT_QBFT_MILESTONES: Readonly<Partial<Record<BesuMilestone, number>>> = { berlinBlock: 0 };

/** `config.qbft` as written to the genesis file. */
export interface QbftGenesisConfig {
  blockperiodseconds: number;
  epochlength: number;
  requesttimeoutseconds: number;
  startBlock?: number;
}

/** `config` of a QBFT genesis file. */
export type BesuGenesisConfig = { chainId: number } & Partial<Record<BesuMilestone, number>> & {
    qbft: QbftGenesisConfig;
  };

/** One pre-funded account in `alloc`. */
export interface BesuGenesisAccount {
  balance: Hex;
  code?: Hex;
  storage?: Record<string, Hex>;
}

/** A complete Besu QBFT genesis file. */
export interface BesuGenesis {
  config: BesuGenesisConfig;
  nonce: Hex;
  timestamp: Hex;
  extraData: Hex;
  gasLimit: Hex;
  difficulty: Hex;
  mixHash: Hex;
  coinbase: Address;
  /** Keys are lowercase addresses without 0x, as Besu's docs write them. */
  alloc: Record<string, BesuGenesisAccount>;
  number: Hex;
  gasUsed: Hex;
  parentHash: Hex;
}

/** A numeric genesis value: safe integer, bigint, `0x` hex or decimal string. */
export type QuantityInput = string | number | bigint;

/** Input for one `alloc` entry. */
export interface GenesisAllocInput {
  balance: QuantityInput;
  code?: string;
  storage?: Readonly<Record<string, string>>;
}

/** Parameters of {@link buildQbftGenesis}. */
export interface QbftGenesisParams {
  chainId: number;
  blockPeriodSeconds: number;
  epochLength: number;
  requestTimeoutSeconds: number;
  /** Initial validator addresses, encoded into extraData in this order. */
  validators: readonly string[];
  /** Default {@link DEFAULT_GAS_LIMIT}. */
  gasLimit?: QuantityInput;
  /** Default `0x1`. */
  difficulty?: QuantityInput;
  /** Default {@link QBFT_MIX_HASH}. */
  mixHash?: string;
  /** Default `0x0`. */
  nonce?: QuantityInput;
  /** Default `0x0`, which Besu's docs recommend. */
  timestamp?: QuantityInput;
  /** Default the zero address. */
  coinbase?: string;
  alloc?: Readonly<Record<string, GenesisAllocInput>>;
  /** Default {@link DEFAULT_QBFT_MILESTONES}. */
  milestones?: Readonly<Partial<Record<string, number>>>;
  /** Only for networks migrating to QBFT at a later block; omitted when undefined. */
  startBlock?: number;
}

function buildMilestones(input: QbftGenesisParams["milestones"]): Partial<Record<BesuMilestone, number>> {
  const source = input ?? DEFAULT_QBFT_MILESTONES;
  const out: Partial<Record<BesuMilestone, number>> = {};
  const known = new Set<string>(BESU_MILESTONES);
  for (const [name, value] of Object.entries(source)) {
    if (!known.has(name)) {
      throw new BesuInputError(
        `milestones.${name}`,
        `is not a Besu milestone; use one of ${BESU_MILESTONES.join(", ")}`,
      );
    }
    out[name as BesuMilestone] = parseInteger(value, `milestones.${name}`, 0);
  }
  return out;
}

/** Validates and normalises `alloc`: unique valid addresses, hex balances, optional code/storage. */
export function buildAlloc(alloc: QbftGenesisParams["alloc"], field = "alloc"): Record<string, BesuGenesisAccount> {
  const out: Record<string, BesuGenesisAccount> = {};
  if (alloc === undefined) {
    return out;
  }
  if (typeof alloc !== "object" || alloc === null || Array.isArray(alloc)) {
    throw new BesuInputError(field, "must be an object keyed by address");
  }
  for (const [rawAddress, account] of Object.entries(alloc)) {
    const key = parseAddress(rawAddress, `${field}.${rawAddress}`).slice(2).toLowerCase();
    const f = `${field}.${rawAddress}`;
    if (key in out) {
      throw new BesuInputError(f, "appears twice (addresses are compared case-insensitively)");
    }
    if (typeof account !== "object" || account === null) {
      throw new BesuInputError(f, "must be an object with a balance");
    }
    const entry: BesuGenesisAccount = {
      balance: toQuantity(parseQuantity(account.balance, `${f}.balance`, { max: MAX_UINT256 })),
    };
    if (account.code !== undefined) {
      entry.code = parseHexData(account.code, `${f}.code`);
    }
    if (account.storage !== undefined) {
      entry.storage = {};
      for (const [slot, value] of Object.entries(account.storage)) {
        const s = parseFixedHex(slot, `${f}.storage.${slot}`, 32);
        entry.storage[s.slice(2)] = parseFixedHex(value, `${f}.storage.${slot}`, 32);
      }
    }
    out[key] = entry;
  }
  return out;
}

/**
 * Builds a Besu QBFT genesis file. Throws {@link BesuInputError} naming the field for
 * any invalid parameter (chain id, timings, gas limit, addresses, duplicate validators …).
 */
export function buildQbftGenesis(params: QbftGenesisParams): BesuGenesis {
  const chainId = parseInteger(params.chainId, "chainId", 1);
  const qbft: QbftGenesisConfig = {
    blockperiodseconds: parseInteger(params.blockPeriodSeconds, "blockPeriodSeconds", 1),
    epochlength: parseInteger(params.epochLength, "epochLength", 1),
    requesttimeoutseconds: parseInteger(params.requestTimeoutSeconds, "requestTimeoutSeconds", 1),
  };
  if (params.startBlock !== undefined) {
    qbft.startBlock = parseInteger(params.startBlock, "startBlock", 0);
  }
  const config: BesuGenesisConfig = { chainId, ...buildMilestones(params.milestones), qbft };
  const extraData = buildQbftExtraData(params.validators);
  return {
    config,
    nonce: toQuantity(parseQuantity(params.nonce ?? 0, "nonce", { max: (1n << 64n) - 1n })),
    timestamp: toQuantity(parseQuantity(params.timestamp ?? 0, "timestamp", { max: MAX_INT64 })),
    extraData,
    gasLimit: toQuantity(
      parseQuantity(params.gasLimit ?? DEFAULT_GAS_LIMIT, "gasLimit", { min: MIN_GAS_LIMIT, max: MAX_INT64 }),
    ),
    difficulty: toQuantity(parseQuantity(params.difficulty ?? 1, "difficulty", { min: 1n, max: MAX_UINT256 })),
    mixHash: parseFixedHex(params.mixHash ?? QBFT_MIX_HASH, "mixHash", 32),
    coinbase: params.coinbase === undefined ? ZERO_ADDRESS : parseAddress(params.coinbase, "coinbase"),
    alloc: buildAlloc(params.alloc),
    number: "0x0",
    gasUsed: "0x0",
    parentHash: ZERO_HASH,
  };
}
