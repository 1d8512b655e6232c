/**
 * A minimal RLP decoder written from the Ethereum Yellow Paper (appendix B), used by tests
 * as a decoder independent of viem's. Test-only module.
 */
export type RlpValue = Uint8Array | RlpValue[];

function readLength(bytes: Uint8Array, start: number, count: number): number {
  let n = 0;
  for (let i = 0; i < count; i++) {
    n = n * 256 + (bytes[start + i] ?? 0);
  }
  return n;
}

function decodeAt(bytes: Uint8Array, pos: number): [RlpValue, number] {
  const b = bytes[pos];
  if (b === undefined) throw new Error("RLP: unexpected end");
  if (b < 0x80) return [bytes.slice(pos, pos + 1), pos + 1];
  if (b <= 0xb7) return [bytes.slice(pos + 1, pos + 1 + (b - 0x80)), pos + 1 + (b - 0x80)];
  if (b <= 0xbf) {
    const ll = b - 0xb7;
    const len = readLength(bytes, pos + 1, ll);
    return [bytes.slice(pos + 1 + ll, pos + 1 + ll + len), pos + 1 + ll + len];
  }
  let start: number;
  let end: number;
  if (b <= 0xf7) {
    start = pos + 1;
    end = start + (b - 0xc0);
  } else {
    const ll = b - 0xf7;
    start = pos + 1 + ll;
    end = start + readLength(bytes, pos + 1, ll);
  }
  const items: RlpValue[] = [];
  let p = start;
  while (p < end) {
    const [item, next] = decodeAt(bytes, p);
    items.push(item);
    p = next;
  }
  if (p !== end) throw new Error("RLP: list length mismatch");
  return [items, end];
}

/** Decodes one complete RLP item; throws if bytes remain. */
export function referenceRlpDecode(bytes: Uint8Array): RlpValue {
  const [value, end] = decodeAt(bytes, 0);
  if (end !== bytes.length) throw new Error("RLP: trailing bytes");
  return value;
}
