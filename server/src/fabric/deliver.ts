import { common, orderer, peer } from "@hyperledger/fabric-protos";
import { blockHeaderHash, channelHeader, signatureHeader } from "./configtx/genesis.js";
import { firstEnvelopeHeader } from "./envelope.js";
import { bidiStream, openGrpcClient, type GrpcEndpoint } from "./grpc-connection.js";
import type { SigningIdentity } from "./identity.js";
import { fabricStatusName } from "./enum-names.js";

/** Where a seek starts or stops: a block number, the newest block, or the oldest. */
export type SeekTarget = number | "newest" | "oldest";

/** The deliver service gave a status other than SUCCESS (e.g. NOT_FOUND, FORBIDDEN, SERVICE_UNAVAILABLE). */
export class DeliverError extends Error {
  constructor(
    public readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "DeliverError";
  }
}

function position(t: SeekTarget): orderer.SeekPosition {
  const p = new orderer.SeekPosition();
  if (t === "newest") p.setNewest(new orderer.SeekNewest());
  else if (t === "oldest") p.setOldest(new orderer.SeekOldest());
  else {
    const s = new orderer.SeekSpecified();
    s.setNumber(t);
    p.setSpecified(s);
  }
  return p;
}

/**
 * The signed DELIVER_SEEK_INFO envelope a deliver client sends: SeekInfo{start, stop,
 * FAIL_IF_NOT_READY} signed by `signer` (who must satisfy the channel's Readers policy).
 */
export function seekEnvelope(
  channelId: string,
  signer: SigningIdentity,
  start: SeekTarget,
  stop: SeekTarget,
): common.Envelope {
  const info = new orderer.SeekInfo();
  info.setStart(position(start));
  info.setStop(position(stop));
  info.setBehavior(orderer.SeekInfo.SeekBehavior.FAIL_IF_NOT_READY);
  const header = new common.Header();
  header.setChannelHeader(channelHeader({ type: common.HeaderType.DELIVER_SEEK_INFO, channelId }).serializeBinary());
  header.setSignatureHeader(signatureHeader(signer.serialize()).serializeBinary());
  const payload = new common.Payload();
  payload.setHeader(header);
  payload.setData(info.serializeBinary());
  const bytes = payload.serializeBinary();
  const env = new common.Envelope();
  env.setPayload(bytes);
  env.setSignature(signer.sign(bytes));
  return env;
}

/**
 * Fetches blocks `start..stop` (inclusive) from an orderer (AtomicBroadcast.Deliver) or a peer
 * (Deliver.Deliver). Resolves when the service reports SUCCESS after the last block.
 * @throws DeliverError with the service's status otherwise
 */
export async function fetchBlocks(params: {
  endpoint: GrpcEndpoint;
  service: "orderer" | "peer";
  signer: SigningIdentity;
  channelId: string;
  start: SeekTarget;
  stop: SeekTarget;
  timeoutMs?: number;
}): Promise<common.Block[]> {
  const client = openGrpcClient(params.endpoint);
  try {
    const isOrderer = params.service === "orderer";
    type Res = { status?: number; block?: common.Block };
    const decode = (b: Uint8Array): Res => {
      const r = isOrderer ? orderer.DeliverResponse.deserializeBinary(b) : peer.DeliverResponse.deserializeBinary(b);
      return r.hasBlock() ? { block: r.getBlock() as common.Block } : { status: r.getStatus() };
    };
    const stream = bidiStream<common.Envelope, Res>(
      client,
      isOrderer ? "/orderer.AtomicBroadcast/Deliver" : "/protos.Deliver/Deliver",
      decode,
      params.timeoutMs,
    );
    return await new Promise<common.Block[]>((resolve, reject) => {
      const blocks: common.Block[] = [];
      let done = false;
      stream.on("data", (r: Res) => {
        if (r.block) {
          blocks.push(r.block);
          return;
        }
        done = true;
        stream.end();
        if (r.status === common.Status.SUCCESS) resolve(blocks);
        else
          reject(
            new DeliverError(
              r.status ?? 0,
              `deliver from ${params.endpoint.address} for channel ${params.channelId}: ${fabricStatusName(r.status ?? 0)}`,
            ),
          );
      });
      stream.on("error", (e: Error) => {
        if (!done) reject(e);
      });
      stream.on("end", () => {
        if (!done) reject(new DeliverError(0, `deliver from ${params.endpoint.address} ended without a status`));
      });
      stream.write(seekEnvelope(params.channelId, params.signer, params.start, params.stop));
    });
  } finally {
    client.close();
  }
}

/** Fetches one block (by number, or the newest/oldest). */
export async function fetchBlock(
  params: Omit<Parameters<typeof fetchBlocks>[0], "start" | "stop"> & { target: SeekTarget },
): Promise<common.Block> {
  const [block] = await fetchBlocks({ ...params, start: params.target, stop: params.target });
  if (!block) throw new DeliverError(0, `no block ${params.target} on channel ${params.channelId}`);
  return block;
}

/**
 * The index of the last config block a block points to: OrdererBlockMetadata.last_config in
 * the SIGNATURES metadata (Fabric 2.x+), else the older LAST_CONFIG metadata slot.
 */
export function lastConfigIndex(block: common.Block): number {
  const md = block.getMetadata()?.getMetadataList_asU8() ?? [];
  const sigs = md[common.BlockMetadataIndex.SIGNATURES];
  if (sigs && sigs.length > 0) {
    const value = common.Metadata.deserializeBinary(sigs).getValue_asU8();
    if (value.length > 0) {
      const obm = common.OrdererBlockMetadata.deserializeBinary(value);
      const lc = obm.getLastConfig();
      if (lc) return lc.getIndex();
    }
  }
  const legacy = md[common.BlockMetadataIndex.LAST_CONFIG];
  if (legacy && legacy.length > 0) {
    return common.LastConfig.deserializeBinary(common.Metadata.deserializeBinary(legacy).getValue_asU8()).getIndex();
  }
  return 0;
}

/** Fetches the newest config block: the newest block, then the config block it points to. */
export async function fetchNewestConfigBlock(
  params: Omit<Parameters<typeof fetchBlocks>[0], "start" | "stop">,
): Promise<common.Block> {
  const newest = await fetchBlock({ ...params, target: "newest" });
  const index = lastConfigIndex(newest);
  if (newest.getHeader()?.getNumber() === index) return newest;
  return fetchBlock({ ...params, target: index });
}

/** The channel config inside a config block (its single CONFIG envelope). */
export function configFromBlock(block: common.Block): common.Config {
  const { payload, channelHeader: ch } = firstEnvelopeHeader(block);
  if (ch.getType() !== common.HeaderType.CONFIG)
    throw new Error(`block ${block.getHeader()?.getNumber()} is not a config block`);
  const config = common.ConfigEnvelope.deserializeBinary(payload.getData_asU8()).getConfig();
  if (!config) throw new Error("the config envelope has no config");
  return config;
}

/** Height and hashes of a channel, as `peer channel getinfo` reports them, read through Deliver. */
export interface DeliverChainInfo {
  height: number;
  /** Hex header hash of the newest block. */
  currentBlockHash: string;
  /** Hex header hash of the block before it ("" at height 1). */
  previousBlockHash: string;
}

/** Reads a channel's height and newest hashes from the newest block (orderer or peer Deliver). */
export async function fetchChainInfo(
  params: Omit<Parameters<typeof fetchBlocks>[0], "start" | "stop">,
): Promise<DeliverChainInfo> {
  const newest = await fetchBlock({ ...params, target: "newest" });
  const header = newest.getHeader() ?? new common.BlockHeader();
  return {
    height: header.getNumber() + 1,
    currentBlockHash: Buffer.from(blockHeaderHash(header)).toString("hex"),
    previousBlockHash: Buffer.from(header.getPreviousHash_asU8()).toString("hex"),
  };
}
