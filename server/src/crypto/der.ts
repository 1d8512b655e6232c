/**
 * A small DER (X.690) writer and reader: what certificate issuance needs, nothing more.
 * Building a certificate through a general ASN.1 object model cost ~3 ms of blocked event loop
 * per certificate; writing the bytes directly costs a few microseconds.
 */

export const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTF8_STRING: 0x0c,
  PRINTABLE_STRING: 0x13,
  IA5_STRING: 0x16,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const;

function lengthBytes(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** One TLV with a single-byte tag. */
export function tlv(tag: number, ...content: Uint8Array[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), lengthBytes(body.length), body]);
}

export const sequence = (...items: Uint8Array[]): Buffer => tlv(TAG.SEQUENCE, ...items);
export const set = (...items: Uint8Array[]): Buffer => tlv(TAG.SET, ...items);
export const octetString = (bytes: Uint8Array): Buffer => tlv(TAG.OCTET_STRING, bytes);
export const nullValue = (): Buffer => Buffer.from([TAG.NULL, 0]);
export const booleanTrue = (): Buffer => Buffer.from([TAG.BOOLEAN, 1, 0xff]);
/** [n] EXPLICIT: a constructed context tag around one encoded value. */
export const explicit = (n: number, value: Uint8Array): Buffer => tlv(0xa0 | n, value);
/** [n] IMPLICIT over a primitive value's bytes. */
export const implicitPrimitive = (n: number, bytes: Uint8Array): Buffer => tlv(0x80 | n, bytes);

/** A non-negative INTEGER from unsigned big-endian bytes (minimal, with a sign byte when needed). */
export function unsignedInteger(bytes: Uint8Array): Buffer {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  let body = Buffer.from(bytes.subarray(i));
  if (body.length === 0) body = Buffer.from([0]);
  if ((body[0] as number) & 0x80) body = Buffer.concat([Buffer.from([0]), body]);
  return tlv(TAG.INTEGER, body);
}

export function integer(n: bigint | number): Buffer {
  const v = BigInt(n);
  if (v < 0n) throw new RangeError("negative integers are not used here");
  const hex = v.toString(16);
  return unsignedInteger(Buffer.from(hex.length % 2 ? `0${hex}` : hex, "hex"));
}

export function oid(dotted: string): Buffer {
  const parts = dotted.split(".").map((p) => BigInt(p));
  const [a, b, ...rest] = parts as [bigint, bigint, ...bigint[]];
  const out: number[] = [];
  for (const arc of [a * 40n + b, ...rest]) {
    const group: number[] = [Number(arc & 0x7fn)];
    for (let v = arc >> 7n; v > 0n; v >>= 7n) group.unshift(Number(v & 0x7fn) | 0x80);
    out.push(...group);
  }
  return tlv(TAG.OID, Buffer.from(out));
}

/** A BIT STRING of whole bytes (keys, signatures). */
export const bitString = (bytes: Uint8Array): Buffer => tlv(TAG.BIT_STRING, Buffer.from([0]), bytes);

/** A named-bit BIT STRING (key usage): bit 0 is the most significant bit of the first byte; trailing zero bits are dropped. */
export function namedBits(bits: number[]): Buffer {
  const max = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(max / 8) + 1);
  for (const bit of bits) bytes[bit >> 3] = (bytes[bit >> 3] as number) | (0x80 >> (bit & 7));
  const unused = 7 - (max & 7);
  return tlv(TAG.BIT_STRING, Buffer.from([unused]), bytes);
}

const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?]*$/;

/** PrintableString where the characters allow it (as Go and OpenSSL prefer), UTF8String otherwise. */
export function directoryString(value: string): Buffer {
  return PRINTABLE.test(value)
    ? tlv(TAG.PRINTABLE_STRING, Buffer.from(value, "latin1"))
    : tlv(TAG.UTF8_STRING, Buffer.from(value, "utf8"));
}

/** RFC 5280 §4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050; whole seconds, Zulu. */
export function time(date: Date): Buffer {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const digits = iso.slice(0, 19).replace(/[-T:]/g, "") + "Z";
  const year = date.getUTCFullYear();
  if (year >= 1950 && year < 2050) return tlv(TAG.UTC_TIME, Buffer.from(digits.slice(2), "latin1"));
  return tlv(TAG.GENERALIZED_TIME, Buffer.from(digits, "latin1"));
}

/** RFC 7468 text encoding: base64 in 64-character lines between BEGIN/END lines, ending with a newline. */
export function pem(bytes: Uint8Array, label: string): string {
  const b64 = Buffer.from(bytes).toString("base64").replace(/.{64}/g, "$&\n").replace(/\n$/, "");
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

// ---- reading ----

export interface Element {
  tag: number;
  /** Offset of the tag byte. */
  start: number;
  /** Offset of the first content byte. */
  valueStart: number;
  /** Offset just past the element. */
  end: number;
}

/** Reads the element at `offset` of `buf` (single-byte tags, definite lengths: DER). */
export function readElement(buf: Uint8Array, offset: number): Element {
  if (offset + 2 > buf.length) throw new RangeError("truncated DER");
  const tag = buf[offset] as number;
  let len = buf[offset + 1] as number;
  let valueStart = offset + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || valueStart + n > buf.length) throw new RangeError("unsupported DER length");
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + (buf[valueStart + i] as number);
    valueStart += n;
  }
  const end = valueStart + len;
  if (end > buf.length) throw new RangeError("truncated DER");
  return { tag, start: offset, valueStart, end };
}

/** The elements directly inside a constructed element. */
export function children(buf: Uint8Array, parent: Element): Element[] {
  const out: Element[] = [];
  for (let at = parent.valueStart; at < parent.end;) {
    const el = readElement(buf, at);
    out.push(el);
    at = el.end;
  }
  return out;
}

export const bytesOf = (buf: Uint8Array, el: Element): Buffer =>
  Buffer.from(buf.buffer, buf.byteOffset + el.start, el.end - el.start);
export const valueOf = (buf: Uint8Array, el: Element): Buffer =>
  Buffer.from(buf.buffer, buf.byteOffset + el.valueStart, el.end - el.valueStart);

export function decodeOid(bytes: Uint8Array): string {
  const arcs: bigint[] = [];
  let v = 0n;
  for (const b of bytes) {
    v = (v << 7n) | BigInt(b & 0x7f);
    if ((b & 0x80) === 0) {
      arcs.push(v);
      v = 0n;
    }
  }
  const first = arcs.shift() ?? 0n;
  const a = first < 80n ? first / 40n : 2n;
  return [a, first - a * 40n, ...arcs].join(".");
}
