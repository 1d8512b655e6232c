import { common, ledger, msp, peer } from "@hyperledger/fabric-protos";
import { configToJson, configUpdateToJson, type Json } from "./configtx/config-json.js";
import { blockHeaderHash } from "./configtx/genesis.js";
import { lastConfigIndex } from "./deliver.js";
import { envelopeHeader } from "./envelope.js";
import { headerTypeName, txValidationCodeName } from "./enum-names.js";

/** A key read in a transaction, with the version (block, tx) it read. */
export interface DecodedRead {
  key: string;
  version: { blockNum: number; txNum: number } | null;
}

/** A key written (or deleted); `value` is UTF-8 when it decodes cleanly, else base64 with `valueEncoding`. */
export interface DecodedWrite {
  key: string;
  isDelete: boolean;
  value: string;
  valueEncoding: "utf8" | "base64";
}

export interface DecodedNsRwSet {
  namespace: string;
  reads: DecodedRead[];
  writes: DecodedWrite[];
}

/** One chaincode action of an endorser transaction. */
export interface DecodedAction {
  chaincode: string;
  chaincodeVersion: string;
  /** Function and args as UTF-8 (args may be binary; shown best-effort). */
  args: string[];
  response: { status: number; message: string };
  endorsers: string[];
  rwSets: DecodedNsRwSet[];
}

export interface DecodedTransaction {
  index: number;
  /** common.HeaderType name: CONFIG, ENDORSER_TRANSACTION, ... */
  type: string;
  txId: string;
  channelId: string;
  /** ISO-8601. */
  timestamp: string | null;
  creatorMspId: string | null;
  /** Validation code name from the block's TRANSACTIONS_FILTER (VALID, MVCC_READ_CONFLICT, ...); null if unset. */
  validationCode: string | null;
  actions?: DecodedAction[];
  /** The channel config, for CONFIG transactions (protolator JSON). */
  config?: Json;
  /** The config update that led to it, for CONFIG transactions after genesis (protolator JSON). */
  lastUpdate?: Json;
}

export interface DecodedBlock {
  number: number;
  /** Hex SHA-256 of the header: what the next block's previousHash names. */
  hash: string;
  previousHash: string;
  dataHash: string;
  lastConfigIndex: number;
  transactions: DecodedTransaction[];
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

function text(b: Uint8Array): { value: string; valueEncoding: "utf8" | "base64" } {
  const s = Buffer.from(b).toString("utf8");
  const printable = [...Buffer.from(b)].every((c) => c >= 0x20 || c === 0x09 || c === 0x0a || c === 0x0d);
  return printable && Buffer.from(s, "utf8").equals(Buffer.from(b))
    ? { value: s, valueEncoding: "utf8" }
    : { value: Buffer.from(b).toString("base64"), valueEncoding: "base64" };
}

function mspIdOf(serialized: Uint8Array): string | null {
  if (serialized.length === 0) return null;
  try {
    return msp.SerializedIdentity.deserializeBinary(serialized).getMspid();
  } catch {
    return null;
  }
}

function rwSets(results: Uint8Array): DecodedNsRwSet[] {
  if (results.length === 0) return [];
  return ledger.rwset.TxReadWriteSet.deserializeBinary(results)
    .getNsRwsetList()
    .map((ns) => {
      const kv = ledger.rwset.kvrwset.KVRWSet.deserializeBinary(ns.getRwset_asU8());
      return {
        namespace: ns.getNamespace(),
        reads: kv.getReadsList().map((r) => {
          const v = r.getVersion();
          return { key: r.getKey(), version: v ? { blockNum: v.getBlockNum(), txNum: v.getTxNum() } : null };
        }),
        writes: kv
          .getWritesList()
          .map((w) => ({ key: w.getKey(), isDelete: w.getIsDelete(), ...text(w.getValue_asU8()) })),
      };
    });
}

function endorserActions(data: Uint8Array): DecodedAction[] {
  return peer.Transaction.deserializeBinary(data)
    .getActionsList()
    .map((a) => {
      const cap = peer.ChaincodeActionPayload.deserializeBinary(a.getPayload_asU8());
      const cpp = peer.ChaincodeProposalPayload.deserializeBinary(cap.getChaincodeProposalPayload_asU8());
      const spec = peer.ChaincodeInvocationSpec.deserializeBinary(cpp.getInput_asU8()).getChaincodeSpec();
      const action = cap.getAction();
      const prp = peer.ProposalResponsePayload.deserializeBinary(
        action?.getProposalResponsePayload_asU8() ?? new Uint8Array(),
      );
      const cca = peer.ChaincodeAction.deserializeBinary(prp.getExtension_asU8());
      const resp = cca.getResponse();
      return {
        chaincode: cca.getChaincodeId()?.getName() || spec?.getChaincodeId()?.getName() || "",
        chaincodeVersion: cca.getChaincodeId()?.getVersion() ?? "",
        args: (spec?.getInput()?.getArgsList_asU8() ?? []).map((x) => text(x).value),
        response: { status: resp?.getStatus() ?? 0, message: resp?.getMessage() ?? "" },
        endorsers: (action?.getEndorsementsList() ?? []).map((e) => mspIdOf(e.getEndorser_asU8()) ?? ""),
        rwSets: rwSets(cca.getResults_asU8()),
      };
    });
}

function decodeTransaction(envBytes: Uint8Array, index: number, filter: Uint8Array | undefined): DecodedTransaction {
  const { payload, channelHeader: ch } = envelopeHeader(envBytes);
  const sh = common.SignatureHeader.deserializeBinary(
    payload.getHeader()?.getSignatureHeader_asU8() ?? new Uint8Array(),
  );
  const ts = ch.getTimestamp();
  const code = filter && index < filter.length ? (filter[index] as number) : undefined;
  const tx: DecodedTransaction = {
    index,
    type: headerTypeName(ch.getType()),
    txId: ch.getTxId(),
    channelId: ch.getChannelId(),
    timestamp: ts ? new Date(ts.getSeconds() * 1000 + Math.floor(ts.getNanos() / 1e6)).toISOString() : null,
    creatorMspId: mspIdOf(sh.getCreator_asU8()),
    validationCode: code === undefined ? null : txValidationCodeName(code),
  };
  if (ch.getType() === common.HeaderType.ENDORSER_TRANSACTION) {
    tx.actions = endorserActions(payload.getData_asU8());
  } else if (ch.getType() === common.HeaderType.CONFIG) {
    const ce = common.ConfigEnvelope.deserializeBinary(payload.getData_asU8());
    const config = ce.getConfig();
    if (config) tx.config = configToJson(config);
    const last = ce.getLastUpdate();
    if (last) {
      // The CONFIG_UPDATE envelope that produced this config: who submitted it, and its delta.
      const lp = common.Payload.deserializeBinary(last.getPayload_asU8());
      const lsh = common.SignatureHeader.deserializeBinary(
        lp.getHeader()?.getSignatureHeader_asU8() ?? new Uint8Array(),
      );
      tx.creatorMspId = mspIdOf(lsh.getCreator_asU8());
      const cue = common.ConfigUpdateEnvelope.deserializeBinary(lp.getData_asU8());
      tx.lastUpdate = configUpdateToJson(common.ConfigUpdate.deserializeBinary(cue.getConfigUpdate_asU8()));
    }
  }
  return tx;
}

/**
 * Decodes a block into a JSON-friendly summary: header and hashes, and per transaction its
 * type, tx id, timestamp, creator MSP, validation code, chaincode actions with read/write
 * sets (endorser transactions) or the config (config transactions). A CONFIG transaction's
 * creator is the submitter of the config update (the orderer's own header creator is not shown).
 */
export function decodeBlock(block: common.Block): DecodedBlock {
  const header = block.getHeader() ?? new common.BlockHeader();
  const filter = block.getMetadata()?.getMetadataList_asU8()[common.BlockMetadataIndex.TRANSACTIONS_FILTER];
  return {
    number: header.getNumber(),
    hash: hex(blockHeaderHash(header)),
    previousHash: hex(header.getPreviousHash_asU8()),
    dataHash: hex(header.getDataHash_asU8()),
    lastConfigIndex: lastConfigIndex(block),
    transactions: (block.getData()?.getDataList_asU8() ?? []).map((d, i) =>
      decodeTransaction(d, i, filter && filter.length > 0 ? filter : undefined),
    ),
  };
}
