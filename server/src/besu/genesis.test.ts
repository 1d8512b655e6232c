import { fromRlp, getAddress } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { BesuInputError } from "./errors.js";
import { buildQbftGenesis, QBFT_MIX_HASH, type QbftGenesisParams } from "./genesis.js";
import { parseGenesis } from "./genesis-import.js";
import { addressFromPublicKey, publicKeyFromPrivateKey } from "./keys.js";
import {
  DOCS_CONTRACT_EXTRA_DATA,
  DOCS_IBFT2_GENESIS,
  DOCS_QBFT_GENESIS,
  DOCS_QBFT_GENESIS_VALIDATORS,
  TEST_PRIVATE_KEYS,
} from "./test-vectors.js";

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

const docsParams: QbftGenesisParams = {
  chainId: 1337,
  blockPeriodSeconds: 5,
  epochLength: 30000,
  requestTimeoutSeconds: 10,
  validators: DOCS_QBFT_GENESIS_VALIDATORS,
  gasLimit: "0x29b92700",
  timestamp: "0x5b3d92d7",
  alloc: Object.fromEntries(Object.entries(DOCS_QBFT_GENESIS.alloc).map(([a, v]) => [a, { balance: v.balance }])),
};

describe("buildQbftGenesis", () => {
  // https://besu.hyperledger.org/private-networks/how-to/configure/consensus/qbft
  it("reproduces Besu's QBFT example genesis from its parameters", () => {
    const genesis = buildQbftGenesis(docsParams);
    const { chainid, ...docsConfig } = DOCS_QBFT_GENESIS.config;
    expect(genesis).toEqual({ ...DOCS_QBFT_GENESIS, config: { chainId: chainid, ...docsConfig } });
    // Same top-level key order as the docs, so files diff cleanly against Besu's example.
    expect(Object.keys(genesis)).toEqual(Object.keys(DOCS_QBFT_GENESIS));
    expect(Object.keys(genesis.config)).toEqual(["chainId", "berlinBlock", "qbft"]);
  });

  it("applies QBFT defaults and encodes validators derived from public keys", () => {
    const validators = TEST_PRIVATE_KEYS.slice(0, 4).map((pk) => addressFromPublicKey(publicKeyFromPrivateKey(pk)));
    const genesis = buildQbftGenesis({
      chainId: 2024,
      blockPeriodSeconds: 2,
      epochLength: 1000,
      requestTimeoutSeconds: 4,
      validators,
    });
    expect(genesis).toMatchObject({
      config: {
        chainId: 2024,
        berlinBlock: 0,
        qbft: { blockperiodseconds: 2, epochlength: 1000, requesttimeoutseconds: 4 },
      },
      nonce: "0x0",
      timestamp: "0x0",
      gasLimit: "0x29b92700",
      difficulty: "0x1",
      mixHash: QBFT_MIX_HASH,
      coinbase: "0x0000000000000000000000000000000000000000",
      alloc: {},
      number: "0x0",
      gasUsed: "0x0",
    });
    expect(genesis.config.qbft).not.toHaveProperty("startBlock");
    const [, encoded] = fromRlp(genesis.extraData, "hex");
    expect(encoded).toEqual(TEST_PRIVATE_KEYS.slice(0, 4).map((pk) => privateKeyToAddress(pk).toLowerCase()));
  });

  it("normalises numbers and alloc, and honours optional fields", () => {
    const genesis = buildQbftGenesis({
      ...docsParams,
      gasLimit: 700_000_000,
      difficulty: 1n,
      nonce: "42",
      coinbase: DOCS_QBFT_GENESIS_VALIDATORS[0],
      startBlock: 0,
      milestones: { londonBlock: 0, shanghaiTime: 0 },
      alloc: {
        [getAddress(DOCS_QBFT_GENESIS_VALIDATORS[1])]: { balance: "1000000000000000000" },
        "0x0000000000000000000000000000000000007777": {
          balance: 0,
          code: "0x6000",
          storage: { ["0".repeat(64)]: `0x${"0".repeat(63)}2` },
        },
      },
    });
    expect(genesis.gasLimit).toBe("0x29b92700");
    expect(genesis.nonce).toBe("0x2a");
    expect(genesis.coinbase).toBe(getAddress(DOCS_QBFT_GENESIS_VALIDATORS[0]));
    expect(genesis.config).toEqual({
      chainId: 1337,
      londonBlock: 0,
      shanghaiTime: 0,
      qbft: { blockperiodseconds: 5, epochlength: 30000, requesttimeoutseconds: 10, startBlock: 0 },
    });
    expect(genesis.alloc).toEqual({
      [DOCS_QBFT_GENESIS_VALIDATORS[1].slice(2)]: { balance: "0xde0b6b3a7640000" },
      "0000000000000000000000000000000000007777": {
        balance: "0x0",
        code: "0x6000",
        storage: { ["0".repeat(64)]: `0x${"0".repeat(63)}2` },
      },
    });
  });

  it.each<[string, Partial<QbftGenesisParams>]>([
    ["chainId", { chainId: 0 }],
    ["chainId", { chainId: -5 }],
    ["chainId", { chainId: 1.5 }],
    ["blockPeriodSeconds", { blockPeriodSeconds: 0 }],
    ["epochLength", { epochLength: 0 }],
    ["requestTimeoutSeconds", { requestTimeoutSeconds: 0 }],
    ["gasLimit", { gasLimit: "lots" }],
    ["gasLimit", { gasLimit: "0x" }],
    ["gasLimit", { gasLimit: 100 }],
    ["gasLimit", { gasLimit: "0x8000000000000000" }],
    ["difficulty", { difficulty: 0 }],
    ["mixHash", { mixHash: "0x1234" }],
    ["coinbase", { coinbase: "nope" }],
    ["timestamp", { timestamp: -1 }],
    ["validators", { validators: [] }],
    ["validators[1]", { validators: [DOCS_QBFT_GENESIS_VALIDATORS[0], getAddress(DOCS_QBFT_GENESIS_VALIDATORS[0])] }],
    ["alloc.0x12", { alloc: { "0x12": { balance: 1 } } }],
    [
      "alloc.64d9be4177f418bcf4e56adad85f33e3a64efe22.balance",
      { alloc: { "64d9be4177f418bcf4e56adad85f33e3a64efe22": { balance: "x" } } },
    ],
    ["milestones.fooBlock", { milestones: { fooBlock: 0 } }],
  ])("refuses bad %s", (field, patch) => {
    expect(fieldOf(() => buildQbftGenesis({ ...docsParams, ...patch }))).toBe(field);
  });

  it("refuses the same alloc address twice in different case", () => {
    const a = DOCS_QBFT_GENESIS_VALIDATORS[0];
    const field = fieldOf(() =>
      buildQbftGenesis({ ...docsParams, alloc: { [a]: { balance: 1 }, [a.slice(2)]: { balance: 2 } } }),
    );
    expect(field).toBe(`alloc.${a.slice(2)}`);
  });
});

describe("parseGenesis", () => {
  it("imports Besu's QBFT example (lower-case chainid) as JSON text", () => {
    const parsed = parseGenesis(JSON.stringify(DOCS_QBFT_GENESIS));
    expect(parsed.chainId).toBe(1337);
    expect(parsed.qbft).toEqual({ blockPeriodSeconds: 5, epochLength: 30000, requestTimeoutSeconds: 10 });
    expect(parsed.validators).toEqual(DOCS_QBFT_GENESIS_VALIDATORS.map((a) => getAddress(a)));
    expect(parsed.genesis).toEqual(DOCS_QBFT_GENESIS);
  });

  it("round-trips a genesis we built", () => {
    const built = buildQbftGenesis({ ...docsParams, chainId: 99, startBlock: 0 });
    const parsed = parseGenesis(built);
    expect(parsed).toMatchObject({ chainId: 99, qbft: { startBlock: 0 } });
    expect(parsed.validators).toEqual(DOCS_QBFT_GENESIS_VALIDATORS.map((a) => getAddress(a)));
  });

  it("imports contract validator selection with an empty header validator list", () => {
    const parsed = parseGenesis({
      ...DOCS_QBFT_GENESIS,
      config: {
        ...DOCS_QBFT_GENESIS.config,
        qbft: {
          ...DOCS_QBFT_GENESIS.config.qbft,
          validatorcontractaddress: "0x0000000000000000000000000000000000007777",
        },
      },
      extraData: DOCS_CONTRACT_EXTRA_DATA,
    });
    expect(parsed.validators).toEqual([]);
    expect(parsed.qbft.validatorContractAddress).toBe("0x0000000000000000000000000000000000007777");
  });

  it("applies Besu's defaults for absent qbft settings", () => {
    const parsed = parseGenesis({ ...DOCS_QBFT_GENESIS, config: { chainId: "0x10", qbft: {} } });
    expect(parsed.chainId).toBe(16);
    expect(parsed.qbft).toEqual({ blockPeriodSeconds: 1, epochLength: 30000, requestTimeoutSeconds: 1 });
  });

  it.each<[string, unknown]>([
    ["genesis", "{not json"],
    ["genesis", []],
    ["genesis.config", { ...DOCS_QBFT_GENESIS, config: undefined }],
    ["genesis.config.chainId", { ...DOCS_QBFT_GENESIS, config: { qbft: {} } }],
    ["genesis.config.chainId", { ...DOCS_QBFT_GENESIS, config: { chainId: 0, qbft: {} } }],
    ["genesis.config.qbft", DOCS_IBFT2_GENESIS],
    ["genesis.config.qbft.epochlength", { ...DOCS_QBFT_GENESIS, config: { chainId: 1, qbft: { epochlength: 0 } } }],
    ["genesis.extraData", { ...DOCS_QBFT_GENESIS, extraData: undefined }],
    ["genesis.extraData.validators", { ...DOCS_QBFT_GENESIS, extraData: DOCS_CONTRACT_EXTRA_DATA }],
    ["genesis.gasLimit", { ...DOCS_QBFT_GENESIS, gasLimit: "big" }],
    ["genesis.mixHash", { ...DOCS_QBFT_GENESIS, mixHash: "0x00" }],
    ["genesis.alloc.zz", { ...DOCS_QBFT_GENESIS, alloc: { zz: { balance: "0x1" } } }],
  ])("names %s when it is wrong", (field, input) => {
    expect(fieldOf(() => parseGenesis(input))).toBe(field);
  });

  it("says an IBFT 2.0 genesis is not QBFT", () => {
    expect(() => parseGenesis(DOCS_IBFT2_GENESIS)).toThrow(/ibft2/);
  });
});
