import { createHash, createPublicKey } from "node:crypto";
import { common, ledger, peer } from "@hyperledger/fabric-protos";
import { describe, expect, it } from "vitest";
import { isLowS, verifyMessage } from "../crypto/key-algorithms.js";
import { decodeBlock } from "./block-decode.js";
import { blockDataHash, blockHeaderHash, channelHeader, signatureHeader } from "./configtx/genesis.js";
import { createSigningIdentity } from "./identity.js";
import { createSignedProposal } from "./proposal.js";
import { createTestOrg } from "./test-support/org-fixtures.js";

const org = await createTestOrg("Org1MSP", "org1.example.com");
const user = await org.identity("user1", "client");
const signer = createSigningIdentity({ mspId: "Org1MSP", certPem: user.certPem, privateKey: user.keyPem });

describe("signing identity and proposals", () => {
  it("signs SHA-256 digests with low S, and refuses a key that is not the cert's", async () => {
    const pub = createPublicKey(user.certPem);
    for (let i = 0; i < 20; i++) {
      const msg = Buffer.from(`message ${i}`);
      const sig = signer.sign(msg);
      expect(isLowS("P-256", sig)).toBe(true);
      expect(verifyMessage(pub, msg, sig)).toBe(true);
    }
    const other = await org.identity("user2", "client");
    expect(() => createSigningIdentity({ mspId: "Org1MSP", certPem: user.certPem, privateKey: other.keyPem })).toThrow(
      /does not belong/,
    );
  });

  it("builds a proposal with tx id = sha256(nonce ‖ creator) and the chaincode in the header extension", () => {
    const { signed, txId } = createSignedProposal({ signer, channelId: "", chaincode: "cscc", args: ["GetChannels"] });
    const proposal = peer.Proposal.deserializeBinary(signed.getProposalBytes_asU8());
    const header = common.Header.deserializeBinary(proposal.getHeader_asU8());
    const ch = common.ChannelHeader.deserializeBinary(header.getChannelHeader_asU8());
    const sh = common.SignatureHeader.deserializeBinary(header.getSignatureHeader_asU8());
    expect(ch.getTxId()).toBe(txId);
    expect(txId).toBe(createHash("sha256").update(sh.getNonce_asU8()).update(sh.getCreator_asU8()).digest("hex"));
    expect(peer.ChaincodeHeaderExtension.deserializeBinary(ch.getExtension_asU8()).getChaincodeId()?.getName()).toBe(
      "cscc",
    );
    expect(ch.getType()).toBe(common.HeaderType.ENDORSER_TRANSACTION);
    expect(
      verifyMessage(createPublicKey(user.certPem), signed.getProposalBytes_asU8(), signed.getSignature_asU8()),
    ).toBe(true);
  });
});

function endorserTxEnvelope(): Uint8Array {
  const read = new ledger.rwset.kvrwset.KVRead();
  read.setKey("asset1");
  const v = new ledger.rwset.kvrwset.Version();
  v.setBlockNum(3);
  v.setTxNum(1);
  read.setVersion(v);
  const write = new ledger.rwset.kvrwset.KVWrite();
  write.setKey("asset1");
  write.setValue(Buffer.from('{"owner":"bob"}'));
  const kv = new ledger.rwset.kvrwset.KVRWSet();
  kv.setReadsList([read]);
  kv.setWritesList([write]);
  const ns = new ledger.rwset.NsReadWriteSet();
  ns.setNamespace("basic");
  ns.setRwset(kv.serializeBinary());
  const txrw = new ledger.rwset.TxReadWriteSet();
  txrw.setNsRwsetList([ns]);
  const ccId = new peer.ChaincodeID();
  ccId.setName("basic");
  ccId.setVersion("1.0");
  const resp = new peer.Response();
  resp.setStatus(200);
  const cca = new peer.ChaincodeAction();
  cca.setResults(txrw.serializeBinary());
  cca.setResponse(resp);
  cca.setChaincodeId(ccId);
  const prp = new peer.ProposalResponsePayload();
  prp.setExtension$(cca.serializeBinary());
  const endorsement = new peer.Endorsement();
  endorsement.setEndorser(signer.serialize());
  const cea = new peer.ChaincodeEndorsedAction();
  cea.setProposalResponsePayload(prp.serializeBinary());
  cea.setEndorsementsList([endorsement]);
  const input = new peer.ChaincodeInput();
  input.setArgsList([Buffer.from("Transfer"), Buffer.from("asset1"), Buffer.from("bob")]);
  const spec = new peer.ChaincodeSpec();
  spec.setChaincodeId(ccId);
  spec.setInput(input);
  const cis = new peer.ChaincodeInvocationSpec();
  cis.setChaincodeSpec(spec);
  const cpp = new peer.ChaincodeProposalPayload();
  cpp.setInput(cis.serializeBinary());
  const cap = new peer.ChaincodeActionPayload();
  cap.setChaincodeProposalPayload(cpp.serializeBinary());
  cap.setAction(cea);
  const ta = new peer.TransactionAction();
  ta.setPayload(cap.serializeBinary());
  const tx = new peer.Transaction();
  tx.setActionsList([ta]);
  const header = new common.Header();
  header.setChannelHeader(
    channelHeader({
      type: common.HeaderType.ENDORSER_TRANSACTION,
      channelId: "mychannel",
      txId: "abc123",
      timestamp: new Date("2026-01-02T03:04:05Z"),
    }).serializeBinary(),
  );
  header.setSignatureHeader(signatureHeader(signer.serialize()).serializeBinary());
  const payload = new common.Payload();
  payload.setHeader(header);
  payload.setData(tx.serializeBinary());
  const env = new common.Envelope();
  env.setPayload(payload.serializeBinary());
  return env.serializeBinary();
}

describe("decodeBlock", () => {
  it("decodes an endorser transaction: creator, tx id, timestamp, chaincode, args, read/write sets, validation", () => {
    const data = [endorserTxEnvelope()];
    const block = new common.Block();
    const h = new common.BlockHeader();
    h.setNumber(7);
    h.setPreviousHash(Buffer.alloc(32, 1));
    h.setDataHash(blockDataHash(data));
    block.setHeader(h);
    const bd = new common.BlockData();
    bd.setDataList(data);
    block.setData(bd);
    const md = new common.BlockMetadata();
    md.setMetadataList([
      new Uint8Array(),
      new Uint8Array(),
      Uint8Array.from([peer.TxValidationCode.MVCC_READ_CONFLICT]),
    ]);
    block.setMetadata(md);

    const d = decodeBlock(block);
    expect(d).toMatchObject({
      number: 7,
      previousHash: "01".repeat(32),
      hash: Buffer.from(blockHeaderHash(h)).toString("hex"),
      transactions: [
        {
          type: "ENDORSER_TRANSACTION",
          txId: "abc123",
          channelId: "mychannel",
          timestamp: "2026-01-02T03:04:05.000Z",
          creatorMspId: "Org1MSP",
          validationCode: "MVCC_READ_CONFLICT",
          actions: [
            {
              chaincode: "basic",
              chaincodeVersion: "1.0",
              args: ["Transfer", "asset1", "bob"],
              response: { status: 200 },
              endorsers: ["Org1MSP"],
              rwSets: [
                {
                  namespace: "basic",
                  reads: [{ key: "asset1", version: { blockNum: 3, txNum: 1 } }],
                  writes: [{ key: "asset1", isDelete: false, value: '{"owner":"bob"}', valueEncoding: "utf8" }],
                },
              ],
            },
          ],
        },
      ],
    });
  });

  it("hashes headers as Fabric does (DER of number, previous hash, data hash)", () => {
    // Known vector: block 0 with empty previous hash and data hash = sha256("").
    const h = new common.BlockHeader();
    h.setNumber(0);
    h.setDataHash(createHash("sha256").digest());
    const der = Buffer.concat([
      Buffer.from([0x30, 0x27, 0x02, 0x01, 0x00, 0x04, 0x00, 0x04, 0x20]),
      createHash("sha256").digest(),
    ]);
    expect(Buffer.from(blockHeaderHash(h))).toEqual(createHash("sha256").update(der).digest());
  });
});
