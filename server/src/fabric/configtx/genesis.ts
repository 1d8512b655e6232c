import { createHash, randomBytes } from "node:crypto";
import { common } from "@hyperledger/fabric-protos";
import timestampPb, { type Timestamp } from "google-protobuf/google/protobuf/timestamp_pb.js";
import { buildChannelConfig } from "./channel-config.js";
import type { ChannelConfigInput } from "./types.js";

/** Fabric's nonce size (crypto.NonceSize). */
export const NONCE_BYTES = 24;

/**
 * Nonces are cut from a pool of random bytes refilled 8 KB at a time: one OpenSSL call per ~340
 * nonces instead of one each (~35 µs a call, paid by every chaincode query). Each is fresh bytes from
 * the CSPRNG, handed out once.
 */
const NONCE_POOL_BYTES = 8192;
let noncePool = Buffer.alloc(0);
let noncePoolAt = 0;

/** A random 24-byte nonce. */
export function newNonce(): Uint8Array {
  if (noncePoolAt + NONCE_BYTES > noncePool.length) {
    noncePool = randomBytes(NONCE_POOL_BYTES);
    noncePoolAt = 0;
  }
  // A copy: the nonce outlives the pool it came from, and must not change when the pool is refilled.
  const nonce = Buffer.from(noncePool.subarray(noncePoolAt, noncePoolAt + NONCE_BYTES));
  noncePoolAt += NONCE_BYTES;
  return nonce;
}

/** tx id = hex(SHA-256(nonce ‖ creator)) (protoutil.ComputeTxID). */
export function computeTxId(nonce: Uint8Array, creator: Uint8Array): string {
  return createHash("sha256").update(nonce).update(creator).digest("hex");
}

/** A google.protobuf.Timestamp for `date` (whole seconds, as Fabric's MakeChannelHeader). */
export function timestampOf(date: Date, wholeSeconds = true): Timestamp {
  const ts = new timestampPb.Timestamp();
  const ms = date.getTime();
  ts.setSeconds(Math.floor(ms / 1000));
  ts.setNanos(wholeSeconds ? 0 : (ms % 1000) * 1_000_000);
  return ts;
}

/** A ChannelHeader of the given type (epoch 0), stamped now. */
export function channelHeader(params: {
  type: number;
  channelId: string;
  txId?: string;
  timestamp?: Date;
  extension?: Uint8Array;
  /** Message version; configtxgen's genesis factory writes 1. */
  version?: number;
}): common.ChannelHeader {
  const h = new common.ChannelHeader();
  h.setType(params.type);
  h.setVersion(params.version ?? 0);
  h.setChannelId(params.channelId);
  h.setEpoch(0);
  h.setTimestamp(timestampOf(params.timestamp ?? new Date()));
  if (params.txId !== undefined) h.setTxId(params.txId);
  if (params.extension) h.setExtension$(params.extension);
  return h;
}

/** A SignatureHeader for `creator` (a serialized identity; empty for a genesis block). */
export function signatureHeader(creator: Uint8Array, nonce: Uint8Array = newNonce()): common.SignatureHeader {
  const h = new common.SignatureHeader();
  h.setCreator(creator);
  h.setNonce(nonce);
  return h;
}

/** Block data hash: SHA-256 over the concatenated envelopes (protoutil.ComputeBlockDataHash, 2.0+). */
export function blockDataHash(data: Uint8Array[]): Uint8Array {
  const h = createHash("sha256");
  for (const d of data) h.update(d);
  return h.digest();
}

/**
 * Block header hash, as Fabric chains blocks: SHA-256 of the ASN.1 DER
 * SEQUENCE { number INTEGER, previous_hash OCTET STRING, data_hash OCTET STRING }.
 */
export function blockHeaderHash(header: common.BlockHeader): Uint8Array {
  const der = (tag: number, body: Buffer): Buffer => Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
  let n = BigInt(header.getNumber());
  const bytes: number[] = [];
  do {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  } while (n > 0n);
  if ((bytes[0] as number) & 0x80) bytes.unshift(0);
  const seq = Buffer.concat([
    der(0x02, Buffer.from(bytes)),
    der(0x04, Buffer.from(header.getPreviousHash_asU8())),
    der(0x04, Buffer.from(header.getDataHash_asU8())),
  ]);
  return createHash("sha256").update(der(0x30, seq)).digest();
}

function derLength(len: number): Buffer {
  if (len < 0x80) return Buffer.from([len]);
  const out: number[] = [];
  for (let l = len; l > 0; l >>= 8) out.unshift(l & 0xff);
  return Buffer.from([0x80 | out.length, ...out]);
}

/**
 * Wraps a config as the genesis block of an application channel, as configtxgen's
 * genesis factory does: block 0, one unsigned CONFIG envelope (header version 1) (creator empty, random nonce,
 * tx id from the nonce), data hash, LAST_CONFIG = 0 and SIGNATURES = OrdererBlockMetadata{last_config 0}.
 */
export function genesisBlockFromConfig(channelId: string, config: common.Config, now: Date = new Date()): common.Block {
  const nonce = newNonce();
  const empty = new Uint8Array();
  const header = new common.Header();
  header.setChannelHeader(
    channelHeader({
      type: common.HeaderType.CONFIG,
      channelId,
      txId: computeTxId(nonce, empty),
      timestamp: now,
      version: 1,
    }).serializeBinary(),
  );
  header.setSignatureHeader(signatureHeader(empty, nonce).serializeBinary());
  const configEnvelope = new common.ConfigEnvelope();
  configEnvelope.setConfig(config);
  const payload = new common.Payload();
  payload.setHeader(header);
  payload.setData(configEnvelope.serializeBinary());
  const envelope = new common.Envelope();
  envelope.setPayload(payload.serializeBinary());

  const data = [envelope.serializeBinary()];
  const block = new common.Block();
  const bh = new common.BlockHeader();
  bh.setNumber(0);
  bh.setDataHash(blockDataHash(data));
  block.setHeader(bh);
  const bd = new common.BlockData();
  bd.setDataList(data);
  block.setData(bd);

  const lastConfig = new common.LastConfig();
  lastConfig.setIndex(0);
  const lastConfigMd = new common.Metadata();
  lastConfigMd.setValue(lastConfig.serializeBinary());
  const obm = new common.OrdererBlockMetadata();
  obm.setLastConfig(lastConfig);
  const sigMd = new common.Metadata();
  sigMd.setValue(obm.serializeBinary());
  const md = new common.BlockMetadata();
  // One slot per BlockMetadataIndex (SIGNATURES, LAST_CONFIG, TRANSACTIONS_FILTER, ORDERER, COMMIT_HASH).
  const slots: Uint8Array[] = [
    new Uint8Array(),
    new Uint8Array(),
    new Uint8Array(),
    new Uint8Array(),
    new Uint8Array(),
  ];
  slots[common.BlockMetadataIndex.SIGNATURES] = sigMd.serializeBinary();
  slots[common.BlockMetadataIndex.LAST_CONFIG] = lastConfigMd.serializeBinary();
  md.setMetadataList(slots);
  block.setMetadata(md);
  return block;
}

/**
 * Builds and wraps an application channel's genesis block.
 * @throws ConfigtxInputError for input Fabric would reject
 */
export function buildGenesisBlock(input: ChannelConfigInput, now?: Date): common.Block {
  return genesisBlockFromConfig(input.channelId, buildChannelConfig(input), now);
}
