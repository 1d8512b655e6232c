/**
 * Hex, EIP-55 and RLP helpers for the Besu code that runs at start-up and on every node and network
 * request. viem has them too, but importing it costs ~0.2 s of start-up; viem itself is loaded
 * only by the JSON-RPC and contract clients, on first use.
 */
import { keccak_256 } from "@noble/hashes/sha3.js";

export type Hex = `0x${string}`;
export type Address = `0x${string}`;
/** An RLP item: a byte string as hex, or a list of items. */
export type RlpItem = Hex | RlpItem[];

const HEX = /^0x([0-9a-fA-F]{2})*$/;

export function bytesToHex(bytes: Uint8Array): Hex {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`;
}

/** @throws Error when `hex` is not `0x` followed by whole bytes of hex. */
export function hexToBytes(hex: string): Uint8Array {
  if (!HEX.test(hex)) throw new Error(`"${hex}" is not 0x-prefixed hex of whole bytes`);
  return new Uint8Array(Buffer.from(hex.slice(2), "hex"));
}

/**
 * The EIP-55 checksummed form of a 20-byte address: a hex digit is upper-case when the matching
 * nibble of keccak256(lower-case hex text) is 8 or more.
 * @throws Error when `address` is not 0x and 40 hex digits.
 */
export function getAddress(address: string): Address {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(`"${address}" is not a 20-byte address`);
  const lower = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(lower));
  let out = "0x";
  for (let i = 0; i < 40; i++) {
    const nibble = ((hash[i >> 1] as number) >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    out += nibble >= 8 ? (lower[i] as string).toUpperCase() : lower[i];
  }
  return out as Address;
}

function rlpLength(length: number, offset: number): Buffer {
  if (length < 56) return Buffer.from([offset + length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff);
  return Buffer.from([offset + 55 + bytes.length, ...bytes]);
}

function encodeItem(item: RlpItem): Buffer {
  if (Array.isArray(item)) {
    const body = Buffer.concat(item.map(encodeItem));
    return Buffer.concat([rlpLength(body.length, 0xc0), body]);
  }
  const bytes = Buffer.from(hexToBytes(item));
  if (bytes.length === 1 && (bytes[0] as number) < 0x80) return bytes;
  return Buffer.concat([rlpLength(bytes.length, 0x80), bytes]);
}

/** RLP encoding (Ethereum Yellow Paper, appendix B). */
export function toRlp(item: RlpItem): Hex {
  return bytesToHex(encodeItem(item));
}

function readLength(bytes: Uint8Array, at: number, count: number): number {
  if (at + count > bytes.length) throw new Error("RLP length runs past the end of the data");
  if (bytes[at] === 0) throw new Error("RLP length has a leading zero byte");
  let n = 0;
  for (let i = 0; i < count; i++) n = n * 256 + (bytes[at + i] as number);
  if (n < 56) throw new Error("RLP long form used for a short length");
  return n;
}

function decodeAt(bytes: Uint8Array, at: number): [RlpItem, number] {
  const b = bytes[at];
  if (b === undefined) throw new Error("RLP data ends early");
  if (b < 0x80) return [bytesToHex(bytes.subarray(at, at + 1)), at + 1];
  let start: number;
  let length: number;
  const isList = b >= 0xc0;
  const short = isList ? b <= 0xf7 : b <= 0xb7;
  if (short) {
    start = at + 1;
    length = b - (isList ? 0xc0 : 0x80);
  } else {
    const count = b - (isList ? 0xf7 : 0xb7);
    length = readLength(bytes, at + 1, count);
    start = at + 1 + count;
  }
  const end = start + length;
  if (end > bytes.length) throw new Error("RLP item runs past the end of the data");
  if (!isList) {
    if (length === 1 && (bytes[start] as number) < 0x80) throw new Error("RLP single byte below 0x80 is not canonical");
    return [bytesToHex(bytes.subarray(start, end)), end];
  }
  const items: RlpItem[] = [];
  for (let pos = start; pos < end;) {
    const [item, next] = decodeAt(bytes, pos);
    if (next > end) throw new Error("RLP list item runs past the end of its list");
    items.push(item);
    pos = next;
  }
  return [items, end];
}

/** Decodes one RLP item that must span all of `hex`. @throws Error on malformed or trailing data. */
export function fromRlp(hex: Hex): RlpItem {
  const bytes = hexToBytes(hex);
  const [item, end] = decodeAt(bytes, 0);
  if (end !== bytes.length) throw new Error(`RLP has ${bytes.length - end} trailing bytes`);
  return item;
}
