import { common } from "@hyperledger/fabric-protos";

/** An envelope's payload and its channel header (the header of every Fabric transaction). */
export function envelopeHeader(env: common.Envelope | Uint8Array): {
  payload: common.Payload;
  channelHeader: common.ChannelHeader;
} {
  const e = env instanceof Uint8Array ? common.Envelope.deserializeBinary(env) : env;
  const payload = common.Payload.deserializeBinary(e.getPayload_asU8());
  const channelHeader = common.ChannelHeader.deserializeBinary(
    payload.getHeader()?.getChannelHeader_asU8() ?? new Uint8Array(),
  );
  return { payload, channelHeader };
}

/** The first transaction of a block (a config block has exactly one). */
export function firstEnvelopeHeader(block: common.Block): ReturnType<typeof envelopeHeader> {
  const data = block.getData()?.getDataList_asU8()[0];
  if (!data) throw new Error("the block has no transactions");
  return envelopeHeader(data);
}
