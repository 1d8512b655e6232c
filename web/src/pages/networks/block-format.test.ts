import { describe, expect, it } from "vitest";
import {
  abiFunctions,
  blockHeader,
  blockTime,
  codeSize,
  extraDataText,
  formatArg,
  gasUsage,
  normalizeAbi,
  parseBlockNumber,
  selectorOf,
  slotPosition,
  storageViews,
  txRows,
} from "@/pages/networks/block-format";

const BLOCK = {
  number: "0x1",
  hash: "0x" + "ab".repeat(32),
  parentHash: "0x" + "cd".repeat(32),
  timestamp: "0x6553f100",
  miner: "0x" + "11".repeat(20),
  gasUsed: "0x5208",
  gasLimit: "0x1c9c380",
  extraData: "0xf87aa00000",
  transactions: [
    {
      hash: "0x" + "01".repeat(32),
      from: "0x" + "22".repeat(20),
      to: "0x" + "33".repeat(20),
      value: "0xde0b6b3a7640000",
      gas: "0x5208",
      gasPrice: "0x3b9aca00",
      nonce: "0x0",
      input: "0x",
    },
    {
      hash: "0x" + "02".repeat(32),
      from: "0x" + "22".repeat(20),
      to: null,
      value: "0x0",
      gas: "0x100000",
      input: "0x6080",
    },
  ],
};

describe("block formatting", () => {
  it("parses block numbers from the URL", () => {
    expect(parseBlockNumber("0")).toBe(0);
    expect(parseBlockNumber("42")).toBe(42);
    expect(parseBlockNumber("-1")).toBeUndefined();
    expect(parseBlockNumber("0x10")).toBeUndefined();
    expect(parseBlockNumber(undefined)).toBeUndefined();
    expect(parseBlockNumber("99999999999999999999")).toBeUndefined();
  });

  it("reads the header fields", () => {
    const h = blockHeader(BLOCK);
    expect(h.number).toBe(1);
    expect(h.time).toBe("2023-11-14T22:13:20.000Z");
    expect(h.miner).toBe("0x" + "11".repeat(20));
    expect(h.gas).toBe("21,000 / 30,000,000 (0.07%)");
    expect(h.txCount).toBe(2);
    expect(h.extraText).toBeUndefined();
    expect(blockTime("nope")).toBeUndefined();
    expect(gasUsage(undefined, "0x1")).toBe("—");
    expect(gasUsage("0x0", "0x0")).toBe("0 / 0");
  });

  it("shows vanity extraData as text", () => {
    expect(extraDataText("0x" + Buffer.from("hello besu").toString("hex"))).toBe("hello besu");
    expect(extraDataText("0x")).toBeUndefined();
  });

  it("lists transactions with ETH values, gas and creations", () => {
    const [transfer, create] = txRows(BLOCK);
    expect(transfer).toMatchObject({
      value: "1 ETH",
      gas: 21000,
      nonce: 0,
      creation: false,
      gasPrice: "1,000,000,000 wei",
    });
    expect(create).toMatchObject({ value: "0 ETH", creation: true, input: "0x6080", to: undefined });
    expect(txRows({ transactions: ["0xaa"] })).toEqual([{ hash: "0xaa", value: "—", input: "0x", creation: false }]);
    expect(txRows({})).toEqual([]);
  });

  it("finds the selector of calldata", () => {
    expect(selectorOf("0xA9059CBB000000")).toBe("0xa9059cbb");
    expect(selectorOf("0x")).toBeUndefined();
  });
});

describe("ABI handling", () => {
  const ERC20 = JSON.stringify([
    {
      type: "function",
      name: "transfer",
      inputs: [{ type: "address" }, { type: "uint256" }],
      stateMutability: "nonpayable",
    },
    { type: "function", name: "balanceOf", inputs: [{ type: "address" }], stateMutability: "view" },
    { type: "event", name: "Transfer", inputs: [] },
  ]);

  it("accepts an ABI array or an artifact, rejects anything else", () => {
    expect(normalizeAbi(ERC20)).toEqual({ abi: ERC20 });
    expect(normalizeAbi(JSON.stringify({ abi: JSON.parse(ERC20) as unknown }))).toEqual({ abi: ERC20 });
    expect(normalizeAbi("{")).toEqual({ error: "The ABI is not valid JSON" });
    expect(normalizeAbi("{}")).toHaveProperty("error");
  });

  it("lists functions with read-only ones marked", () => {
    expect(abiFunctions(ERC20)).toEqual([
      { name: "transfer", signature: "transfer(address,uint256)", readOnly: false },
      { name: "balanceOf", signature: "balanceOf(address)", readOnly: true },
    ]);
    expect(abiFunctions("nope")).toEqual([]);
  });

  it("formats decoded arguments", () => {
    expect(formatArg("0xabc")).toBe("0xabc");
    expect(formatArg(["1", true])).toBe('["1",true]');
  });
});

describe("contract inspector helpers", () => {
  it("sizes bytecode", () => {
    expect(codeSize("0x")).toBe(0);
    expect(codeSize("0x6080604052")).toBe(5);
    expect(codeSize("nope")).toBe(0);
  });

  it("reads slot positions as decimal or hex", () => {
    expect(slotPosition("0")).toBe("0x0");
    expect(slotPosition(" 10 ")).toBe("0xa");
    expect(slotPosition("0xFF")).toBe("0xff");
    expect(slotPosition("-1")).toBeUndefined();
    expect(slotPosition("0x" + "f".repeat(65))).toBeUndefined();
    expect(slotPosition((2n ** 256n).toString())).toBeUndefined();
  });

  it("shows a storage word as hex, decimal and address", () => {
    expect(storageViews("0x2a")).toEqual({
      hex: `0x${"0".repeat(62)}2a`,
      decimal: "42",
      address: `0x${"0".repeat(38)}2a`,
    });
    expect(storageViews(`0x${"0".repeat(64)}`)).toEqual({ hex: `0x${"0".repeat(64)}`, decimal: "0" });
    expect(storageViews(`0x${"f".repeat(64)}`).address).toBeUndefined();
  });
});
