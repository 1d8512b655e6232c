import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { BesuInputError } from "./errors.js";
import { formatNodeKeyFile, parseNodeKeyFile } from "./key-file.js";
import { addressFromPublicKey, publicKeyFromPrivateKey } from "./keys.js";
import { DOCS_TEST_ACCOUNTS } from "./test-vectors.js";

function fieldOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(BesuInputError);
    return (err as BesuInputError).field;
  }
  throw new Error("expected a BesuInputError");
}

const KEY = DOCS_TEST_ACCOUNTS[0].privateKey;

describe("formatNodeKeyFile", () => {
  it("writes 0x + 64 lowercase hex digits and nothing else, as Besu itself does", () => {
    const content = formatNodeKeyFile(KEY.toUpperCase().replace("0X", ""));
    expect(content).toBe(KEY);
    expect(content).toMatch(/^0x[0-9a-f]{64}$/);
    expect(content.endsWith("\n")).toBe(false);
    expect(formatNodeKeyFile(Buffer.from(KEY.slice(2), "hex"))).toBe(KEY);
  });

  it("refuses keys that are not valid secp256k1 scalars", () => {
    expect(fieldOf(() => formatNodeKeyFile(`0x${"00".repeat(32)}`))).toBe("privateKey");
    expect(fieldOf(() => formatNodeKeyFile(`0x${"ff".repeat(32)}`, "keyId 7"))).toBe("keyId 7");
    expect(fieldOf(() => formatNodeKeyFile("0x1234"))).toBe("privateKey");
    expect(fieldOf(() => formatNodeKeyFile(new Uint8Array(31)))).toBe("privateKey");
  });
});

describe("parseNodeKeyFile", () => {
  it("round-trips and yields the documented account address", () => {
    const parsed = parseNodeKeyFile(formatNodeKeyFile(KEY));
    expect(parsed).toBe(KEY);
    expect(addressFromPublicKey(publicKeyFromPrivateKey(parsed))).toBe(privateKeyToAddress(parsed));
    expect(privateKeyToAddress(parsed).toLowerCase()).toBe(DOCS_TEST_ACCOUNTS[0].address);
  });

  it("accepts one trailing newline and a missing 0x, like Besu's readAllLines + fromHexString", () => {
    expect(parseNodeKeyFile(`${KEY}\n`)).toBe(KEY);
    expect(parseNodeKeyFile(`${KEY}\r\n`)).toBe(KEY);
    expect(parseNodeKeyFile(KEY.slice(2))).toBe(KEY);
  });

  it("refuses what Besu refuses", () => {
    expect(fieldOf(() => parseNodeKeyFile(`${KEY}\n\n`))).toBe("keyFile");
    expect(fieldOf(() => parseNodeKeyFile(`${KEY}\n${KEY}`))).toBe("keyFile");
    expect(fieldOf(() => parseNodeKeyFile(` ${KEY}`))).toBe("keyFile");
    expect(fieldOf(() => parseNodeKeyFile(""))).toBe("keyFile");
    expect(fieldOf(() => parseNodeKeyFile(`0x${"00".repeat(32)}`, "key"))).toBe("key");
  });
});
