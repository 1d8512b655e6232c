/**
 * Small, strict parsers for the hex and number shapes that appear in genesis files and node
 * settings. Every parser takes the field name so a failure names what the operator sent.
 */
import type { Address, Hex } from "viem";
import { getAddress } from "./hex.js";
import { BesuInputError } from "./errors.js";

const HEX_BODY = /^[0-9a-fA-F]*$/;
const DECIMAL = /^[0-9]+$/;

/** Largest value Besu accepts for `long`-typed genesis quantities such as gasLimit. */
export const MAX_INT64 = (1n << 63n) - 1n;

/** Strips an optional `0x`/`0X` prefix. */
export function strip0x(value: string): string {
  return value.startsWith("0x") || value.startsWith("0X") ? value.slice(2) : value;
}

/**
 * Parses an Ethereum address given with or without `0x`. All-lower or all-upper hex is
 * accepted as is; mixed case must carry a valid EIP-55 checksum, because a wrong checksum
 * usually means a typo. Returns the EIP-55 checksummed form.
 */
export function parseAddress(value: unknown, field: string): Address {
  if (typeof value !== "string") {
    throw new BesuInputError(field, "must be a hex string of 20 bytes");
  }
  const body = strip0x(value.trim());
  if (body.length !== 40 || !HEX_BODY.test(body)) {
    throw new BesuInputError(field, `must be 20 bytes of hex (40 hex digits), got "${value}"`);
  }
  const checksummed = getAddress(`0x${body.toLowerCase()}`);
  const singleCase = body === body.toLowerCase() || body === body.toUpperCase();
  if (!singleCase && checksummed.slice(2) !== body) {
    throw new BesuInputError(field, `has an invalid EIP-55 checksum: "${value}"`);
  }
  return checksummed;
}

/**
 * Parses hex of an exact byte length (e.g. a 32-byte mixHash). Returns lowercase `0x` hex.
 */
export function parseFixedHex(value: unknown, field: string, byteLength: number): Hex {
  if (typeof value !== "string") {
    throw new BesuInputError(field, `must be a hex string of ${byteLength} bytes`);
  }
  const body = strip0x(value.trim());
  if (body.length !== byteLength * 2 || !HEX_BODY.test(body)) {
    throw new BesuInputError(field, `must be ${byteLength} bytes of hex (${byteLength * 2} hex digits)`);
  }
  return `0x${body.toLowerCase()}`;
}

/** Parses arbitrary-length hex data (e.g. contract code). Returns lowercase `0x` hex. */
export function parseHexData(value: unknown, field: string): Hex {
  if (typeof value !== "string") {
    throw new BesuInputError(field, "must be a hex string");
  }
  const body = strip0x(value.trim());
  if (body.length % 2 !== 0 || !HEX_BODY.test(body)) {
    throw new BesuInputError(field, "must be hex with an even number of digits");
  }
  return `0x${body.toLowerCase()}`;
}

/** Bounds for {@link parseQuantity}; both inclusive. */
export interface QuantityBounds {
  min?: bigint;
  max?: bigint;
}

/**
 * Parses a non-negative integer given as a safe JS integer, a bigint, a `0x` hex string or a
 * decimal string (the forms Besu accepts in genesis files).
 */
export function parseQuantity(value: unknown, field: string, bounds: QuantityBounds = {}): bigint {
  let n: bigint;
  if (typeof value === "bigint") {
    n = value;
  } else if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) {
      throw new BesuInputError(field, `must be a whole number, got ${value}`);
    }
    n = BigInt(value);
  } else if (typeof value === "string") {
    const s = value.trim();
    if (s.startsWith("0x") || s.startsWith("0X")) {
      const body = s.slice(2);
      if (body.length === 0 || !HEX_BODY.test(body)) {
        throw new BesuInputError(field, `must be a hex or decimal number, got "${value}"`);
      }
      n = BigInt(`0x${body}`);
    } else if (DECIMAL.test(s)) {
      n = BigInt(s);
    } else {
      throw new BesuInputError(field, `must be a hex or decimal number, got "${value}"`);
    }
  } else {
    throw new BesuInputError(field, "must be a number or a hex/decimal string");
  }
  const min = bounds.min ?? 0n;
  if (n < min) {
    throw new BesuInputError(field, `must be at least ${min}, got ${n}`);
  }
  if (bounds.max !== undefined && n > bounds.max) {
    throw new BesuInputError(field, `must be at most ${bounds.max}, got ${n}`);
  }
  return n;
}

/** Formats a non-negative integer as a minimal `0x` hex quantity (`0x0` for zero). */
export function toQuantity(n: bigint): Hex {
  return `0x${n.toString(16)}`;
}

/**
 * Parses an integer setting (seconds, block counts, ports) that must be a safe JS integer
 * within the given inclusive range.
 */
export function parseInteger(value: unknown, field: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    throw new BesuInputError(field, `must be a whole number, got ${JSON.stringify(value)}`);
  }
  if (value < min || value > max) {
    throw new BesuInputError(field, `must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}
