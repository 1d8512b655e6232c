/**
 * QBFT genesis `extraData`: RLP([32-byte vanity, [validator addresses], vote, round, [seals]]).
 *
 * Besu docs (Configure QBFT consensus, "Extra data"): for block header validator selection
 * it is `RLP([32 bytes Vanity, List<Validators>, No Vote, Round=Int(0), 0 Seals])`; for
 * contract validator selection the validator list is empty.
 * https://besu.hyperledger.org/private-networks/how-to/configure/consensus/qbft
 *
 * "No vote" is an empty RLP list (0xc0) and round 0 is the empty scalar (0x80), so a genesis
 * extraData ends in `c080c0`. IBFT 2.0 differs: an empty-string vote (0x80) and a 4-byte
 * round (0x8400000000); the decoder names that case instead of misreading it.
 */
import type { Address, Hex } from "viem";
import { fromRlp, getAddress, hexToBytes, toRlp } from "./hex.js";
import { BesuInputError } from "./errors.js";
import { parseAddress, parseHexData } from "./encoding.js";

/** 32 zero bytes, the vanity Besu expects at the head of BFT extraData. */
export const QBFT_VANITY: Hex = `0x${"00".repeat(32)}`;

/** A pending validator vote carried in a block header. */
export interface QbftVote {
  recipient: Address;
  /** true = vote to add the recipient, false = vote to remove it */
  add: boolean;
}

/** Decoded QBFT extraData. */
export interface QbftExtraData {
  vanity: Hex;
  /** Validators in the order they appear in extraData, EIP-55 checksummed. */
  validators: Address[];
  vote: QbftVote | null;
  round: number;
  /** Committed seals as hex; empty in a genesis block. */
  seals: Hex[];
}

type RlpItem = Hex | RlpItem[];

/**
 * Parses and de-duplicates a validator list. Order is preserved: Besu's own
 * `rlp encode --type=QBFT_EXTRA_DATA` keeps the order of its input, and the docs' example
 * reproduces only in that order.
 */
export function parseValidatorAddresses(validators: unknown, field = "validators", allowEmpty = false): Address[] {
  if (!Array.isArray(validators)) {
    throw new BesuInputError(field, "must be a list of validator addresses");
  }
  if (validators.length === 0 && !allowEmpty) {
    throw new BesuInputError(field, "must contain at least one validator address");
  }
  const seen = new Map<string, number>();
  return validators.map((value: unknown, i) => {
    const address = parseAddress(value, `${field}[${i}]`);
    const key = address.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      throw new BesuInputError(`${field}[${i}]`, `duplicates ${field}[${first}] (${address})`);
    }
    seen.set(key, i);
    return address;
  });
}

function encode(addresses: readonly Address[]): Hex {
  const items: RlpItem[] = [
    QBFT_VANITY,
    addresses.map((a) => a.toLowerCase() as Hex),
    [], // no vote
    "0x", // round 0 as an RLP scalar: the empty string, 0x80
    [], // no committed seals
  ];
  return toRlp(items);
}

/**
 * Builds the genesis extraData for block-header validator selection. Validators must be a
 * non-empty list of unique addresses; they are encoded in the given order.
 */
export function buildQbftExtraData(validatorAddresses: readonly string[]): Hex {
  return encode(parseValidatorAddresses(validatorAddresses));
}

/**
 * Builds the genesis extraData for contract validator selection (no validators in the
 * header; `config.qbft.validatorcontractaddress` names the contract).
 */
export function buildQbftContractExtraData(): Hex {
  return encode([]);
}

function asBytes(item: RlpItem | undefined, field: string): Hex {
  if (typeof item !== "string") {
    throw new BesuInputError(field, "must be an RLP byte string, found a list");
  }
  return item;
}

function asList(item: RlpItem | undefined, field: string): RlpItem[] {
  if (!Array.isArray(item)) {
    throw new BesuInputError(field, "must be an RLP list, found a byte string");
  }
  return item;
}

function decodeVote(item: RlpItem | undefined, field: string): QbftVote | null {
  if (item === "0x") {
    throw new BesuInputError(
      field,
      "is an empty string, which is the IBFT 2.0 layout; QBFT encodes no vote as an empty list",
    );
  }
  const list = asList(item, field);
  if (list.length === 0) {
    return null;
  }
  if (list.length !== 2) {
    throw new BesuInputError(field, "must be [recipient, voteType]");
  }
  const recipient = asBytes(list[0], `${field}.recipient`);
  if (hexToBytes(recipient).length !== 20) {
    throw new BesuInputError(`${field}.recipient`, "must be 20 bytes");
  }
  const type = asBytes(list[1], `${field}.type`);
  if (type !== "0xff" && type !== "0x00" && type !== "0x") {
    throw new BesuInputError(`${field}.type`, `must be 0xff (add) or 0x00 (remove), got ${type}`);
  }
  return { recipient: getAddress(recipient), add: type === "0xff" };
}

function decodeRound(item: RlpItem | undefined, field: string): number {
  const hex = asBytes(item, field);
  const bytes = hexToBytes(hex);
  if (bytes.length > 0 && bytes[0] === 0) {
    throw new BesuInputError(
      field,
      bytes.length === 4
        ? "is 4 fixed bytes, which is the IBFT 2.0 layout; QBFT encodes the round as a scalar (0 = 0x80)"
        : "has a leading zero byte, which is not a canonical RLP scalar",
    );
  }
  if (bytes.length > 4) {
    throw new BesuInputError(field, "does not fit in 4 bytes");
  }
  return bytes.reduce((acc, b) => acc * 256 + b, 0);
}

/**
 * Decodes QBFT extraData (strict RLP: no trailing or non-canonical bytes) and checks its shape: a 5-item list with a
 * 32-byte vanity, 20-byte validators, a vote list, a scalar round and a list of seals.
 */
export function decodeQbftExtraData(extraData: string, field = "extraData"): QbftExtraData {
  const hex = parseHexData(extraData, field);
  let decoded: RlpItem;
  try {
    decoded = fromRlp(hex);
  } catch (err) {
    throw new BesuInputError(
      field,
      `is not valid RLP (${err instanceof Error ? err.message.split("\n")[0] : "decode failed"})`,
    );
  }
  const top = asList(decoded, field);
  if (top.length !== 5) {
    throw new BesuInputError(
      field,
      `must be an RLP list of 5 items (vanity, validators, vote, round, seals), got ${top.length}`,
    );
  }
  const vanity = asBytes(top[0], `${field}.vanity`);
  if (hexToBytes(vanity).length !== 32) {
    throw new BesuInputError(`${field}.vanity`, "must be 32 bytes");
  }
  const validators = asList(top[1], `${field}.validators`).map((v, i) => {
    const bytes = asBytes(v, `${field}.validators[${i}]`);
    if (hexToBytes(bytes).length !== 20) {
      throw new BesuInputError(`${field}.validators[${i}]`, "must be 20 bytes");
    }
    return getAddress(bytes);
  });
  const vote = decodeVote(top[2], `${field}.vote`);
  const round = decodeRound(top[3], `${field}.round`);
  const seals = asList(top[4], `${field}.seals`).map((s, i) => asBytes(s, `${field}.seals[${i}]`));
  return { vanity, validators, vote, round, seals };
}
