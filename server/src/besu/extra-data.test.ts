import { bytesToHex, fromRlp, getAddress, hexToBytes, toRlp } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { BesuInputError } from "./errors.js";
import { buildQbftContractExtraData, buildQbftExtraData, decodeQbftExtraData } from "./extra-data.js";
import { addressFromPublicKey, publicKeyFromPrivateKey } from "./keys.js";
import { referenceRlpDecode, type RlpValue } from "./rlp-reference.js";
import {
  DOCS_CONTRACT_EXTRA_DATA,
  DOCS_IBFT2_GENESIS,
  DOCS_QBFT_GENESIS,
  DOCS_QBFT_GENESIS_VALIDATORS,
  DOCS_RLP_ENCODE_EXTRA_DATA,
  DOCS_RLP_ENCODE_VALIDATORS,
  TEST_PRIVATE_KEYS,
} from "./test-vectors.js";

function hexTree(value: RlpValue): unknown {
  return Array.isArray(value) ? value.map(hexTree) : bytesToHex(value);
}

function fieldOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(BesuInputError);
    expect((err as Error).message).toContain((err as BesuInputError).field);
    return (err as BesuInputError).field;
  }
  throw new Error("expected a BesuInputError");
}

describe("buildQbftExtraData: Besu docs vectors", () => {
  // https://besu.hyperledger.org/private-networks/how-to/configure/consensus/qbft (genesis example)
  it("reproduces the extraData of the QBFT genesis example exactly", () => {
    expect(buildQbftExtraData(DOCS_QBFT_GENESIS_VALIDATORS)).toBe(DOCS_QBFT_GENESIS.extraData);
  });

  // Same page, "Generate extra data": output of `besu rlp encode --type=QBFT_EXTRA_DATA`.
  it("reproduces Besu's `rlp encode` output, keeping the input order", () => {
    expect(buildQbftExtraData(DOCS_RLP_ENCODE_VALIDATORS)).toBe(DOCS_RLP_ENCODE_EXTRA_DATA);
  });

  // Same page, contract validator selection tab.
  it("reproduces the contract-validator extraData", () => {
    expect(buildQbftContractExtraData()).toBe(DOCS_CONTRACT_EXTRA_DATA);
  });

  it("accepts checksummed, upper-case and unprefixed addresses alike", () => {
    const mixed = DOCS_QBFT_GENESIS_VALIDATORS.map((a, i) =>
      i === 0 ? getAddress(a) : i === 1 ? a.slice(2) : `0x${a.slice(2).toUpperCase()}`,
    );
    expect(buildQbftExtraData(mixed)).toBe(DOCS_QBFT_GENESIS.extraData);
  });
});

describe("extraData decoded by independent decoders", () => {
  const addresses = TEST_PRIVATE_KEYS.map((pk) => addressFromPublicKey(publicKeyFromPrivateKey(pk)));
  const extraData = buildQbftExtraData(addresses);

  it("derives validator addresses that match viem's", () => {
    expect(addresses).toEqual(TEST_PRIVATE_KEYS.map((pk) => privateKeyToAddress(pk)));
  });

  it("viem's fromRlp reproduces the validator list and the empty vote/round/seals", () => {
    const decoded = fromRlp(extraData, "hex");
    expect(decoded).toEqual([
      `0x${"00".repeat(32)}`,
      TEST_PRIVATE_KEYS.map((pk) => privateKeyToAddress(pk).toLowerCase()),
      [],
      "0x",
      [],
    ]);
    expect(extraData.endsWith("c080c0")).toBe(true);
  });

  it("a Yellow-Paper reference decoder reproduces the same structure", () => {
    const tree = hexTree(referenceRlpDecode(hexToBytes(extraData)));
    expect(tree).toEqual(fromRlp(extraData, "hex"));
    const docsTree = hexTree(referenceRlpDecode(hexToBytes(DOCS_QBFT_GENESIS.extraData))) as unknown[];
    expect(docsTree[1]).toEqual([...DOCS_QBFT_GENESIS_VALIDATORS]);
  });
});

describe("decodeQbftExtraData", () => {
  it("decodes the docs example", () => {
    const d = decodeQbftExtraData(DOCS_QBFT_GENESIS.extraData);
    expect(d.validators).toEqual(DOCS_QBFT_GENESIS_VALIDATORS.map((a) => getAddress(a)));
    expect(d).toMatchObject({ vanity: `0x${"00".repeat(32)}`, vote: null, round: 0, seals: [] });
    expect(decodeQbftExtraData(DOCS_CONTRACT_EXTRA_DATA).validators).toEqual([]);
  });

  it("decodes a pending vote, a non-zero round and seals", () => {
    const recipient = DOCS_QBFT_GENESIS_VALIDATORS[0];
    const seal = `0x${"ab".repeat(65)}` as const;
    const hex = toRlp([`0x${"00".repeat(32)}`, [recipient], [recipient, "0xff"], "0x05", [seal]]);
    expect(decodeQbftExtraData(hex)).toMatchObject({
      vote: { recipient: getAddress(recipient), add: true },
      round: 5,
      seals: [seal],
    });
    const remove = toRlp([`0x${"00".repeat(32)}`, [recipient], [recipient, "0x00"], "0x", []]);
    expect(decodeQbftExtraData(remove).vote).toEqual({ recipient: getAddress(recipient), add: false });
  });

  it("names the IBFT 2.0 layout instead of misreading it", () => {
    const e = fieldOf(() => decodeQbftExtraData(DOCS_IBFT2_GENESIS.extraData));
    expect(e).toBe("extraData.vote");
    const ibftRound = toRlp([`0x${"00".repeat(32)}`, [], [], "0x00000000", []]);
    expect(fieldOf(() => decodeQbftExtraData(ibftRound))).toBe("extraData.round");
  });

  it("refuses malformed input, naming the part", () => {
    expect(fieldOf(() => decodeQbftExtraData("0xzz"))).toBe("extraData");
    expect(fieldOf(() => decodeQbftExtraData("0xc3", "genesis.extraData"))).toBe("genesis.extraData");
    expect(fieldOf(() => decodeQbftExtraData(toRlp(["0x00", [], [], "0x", []])))).toBe("extraData.vanity");
    expect(fieldOf(() => decodeQbftExtraData(toRlp([`0x${"00".repeat(32)}`, ["0x1234"], [], "0x", []])))).toBe(
      "extraData.validators[0]",
    );
    expect(fieldOf(() => decodeQbftExtraData(toRlp([`0x${"00".repeat(32)}`, []])))).toBe("extraData");
  });
});

describe("buildQbftExtraData validation", () => {
  it("requires at least one validator", () => {
    expect(fieldOf(() => buildQbftExtraData([]))).toBe("validators");
  });

  it("refuses duplicates regardless of case", () => {
    const a = DOCS_QBFT_GENESIS_VALIDATORS[0];
    expect(
      fieldOf(() => buildQbftExtraData([a, DOCS_QBFT_GENESIS_VALIDATORS[1], a.toUpperCase().replace("0X", "0x")])),
    ).toBe("validators[2]");
  });

  it("refuses malformed addresses and bad checksums", () => {
    expect(fieldOf(() => buildQbftExtraData(["0x1234"]))).toBe("validators[0]");
    const bad = getAddress(DOCS_QBFT_GENESIS_VALIDATORS[1]).replace(/[a-f]/, (c) => c.toUpperCase());
    expect(fieldOf(() => buildQbftExtraData([DOCS_QBFT_GENESIS_VALIDATORS[0], bad]))).toBe("validators[1]");
  });
});
