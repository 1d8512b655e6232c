import { generateKeyPairSync } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex as nobleBytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { privateKeyToAddress, publicKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { BesuInputError } from "./errors.js";
import {
  addressFromPublicKey,
  enodeIdFromPublicKey,
  enodeUrl,
  normalizePublicKey,
  parseEnodeUrl,
  publicKeyFromPrivateKey,
} from "./keys.js";
import { DOCS_ENODE, DOCS_TEST_ACCOUNTS, TEST_PRIVATE_KEYS } from "./test-vectors.js";

/** EIP-55 by hand with @noble/hashes, independent of viem's checksum code. */
function eip55(lowerHexNo0x: string): string {
  const hash = nobleBytesToHex(keccak_256(utf8ToBytes(lowerHexNo0x)));
  return `0x${[...lowerHexNo0x].map((c, i) => (parseInt(hash[i] ?? "0", 16) >= 8 ? c.toUpperCase() : c)).join("")}`;
}

/** Address by hand: keccak256 of X‖Y with @noble/hashes, last 20 bytes, EIP-55. */
function handAddress(privateKey: string): string {
  const uncompressed = secp256k1.getPublicKey(privateKey.slice(2), false);
  return eip55(nobleBytesToHex(keccak_256(uncompressed.slice(1)).slice(-20)));
}

function expectBesuError(fn: () => unknown, field: string | RegExp): BesuInputError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(BesuInputError);
    const e = err as BesuInputError;
    if (typeof field === "string") expect(e.field).toBe(field);
    else expect(e.field).toMatch(field);
    expect(e.message).toContain(e.field);
    return e;
  }
  throw new Error("expected a BesuInputError");
}

describe("addressFromPublicKey", () => {
  it("reproduces the addresses of Besu's documented test accounts", () => {
    for (const account of DOCS_TEST_ACCOUNTS) {
      const address = addressFromPublicKey(publicKeyFromPrivateKey(account.privateKey));
      expect(address.toLowerCase()).toBe(account.address.toLowerCase());
    }
    // The docs write accounts 2 and 3 in EIP-55 form; ours must match character for character.
    expect(addressFromPublicKey(publicKeyFromPrivateKey(DOCS_TEST_ACCOUNTS[1].privateKey))).toBe(
      DOCS_TEST_ACCOUNTS[1].address,
    );
    expect(addressFromPublicKey(publicKeyFromPrivateKey(DOCS_TEST_ACCOUNTS[2].privateKey))).toBe(
      DOCS_TEST_ACCOUNTS[2].address,
    );
  });

  it("matches viem and a hand-rolled keccak/EIP-55 derivation for every key encoding", () => {
    for (const pk of TEST_PRIVATE_KEYS) {
      const expected = handAddress(pk);
      expect(privateKeyToAddress(pk)).toBe(expected);
      const uncompressed = secp256k1.getPublicKey(pk.slice(2), false);
      const compressed = secp256k1.getPublicKey(pk.slice(2), true);
      expect(publicKeyToAddress(`0x${nobleBytesToHex(uncompressed)}`)).toBe(expected);

      expect(addressFromPublicKey(uncompressed)).toBe(expected);
      expect(addressFromPublicKey(compressed)).toBe(expected);
      expect(addressFromPublicKey(uncompressed.slice(1))).toBe(expected);
      expect(addressFromPublicKey(nobleBytesToHex(uncompressed))).toBe(expected);
      expect(addressFromPublicKey(`0x${nobleBytesToHex(compressed)}`)).toBe(expected);
      expect(addressFromPublicKey(`0x${nobleBytesToHex(uncompressed.slice(1)).toUpperCase()}`)).toBe(expected);
    }
  });

  it("reads a secp256k1 SPKI PEM public key", () => {
    const { publicKey } = generateKeyPairSync("ec", { namedCurve: "secp256k1" });
    const pem = publicKey.export({ format: "pem", type: "spki" }).toString();
    const der = publicKey.export({ format: "der", type: "spki" });
    const point = `0x${der.subarray(der.length - 65).toString("hex")}` as const;
    expect(addressFromPublicKey(pem)).toBe(publicKeyToAddress(point));
  });

  it("refuses a key on another curve, naming the field", () => {
    const { publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const pem = publicKey.export({ format: "pem", type: "spki" }).toString();
    const e = expectBesuError(() => addressFromPublicKey(pem, "validators[0].publicKey"), "validators[0].publicKey");
    expect(e.message).toMatch(/secp256k1.*P-256/);
  });

  it("refuses malformed keys with errors that name the field", () => {
    expectBesuError(() => addressFromPublicKey("0x1234", "publicKey"), "publicKey");
    expectBesuError(() => addressFromPublicKey("0xzz"), "publicKey");
    expectBesuError(() => addressFromPublicKey("abc"), "publicKey");
    expectBesuError(() => addressFromPublicKey(`0x05${"11".repeat(64)}`), "publicKey");
    expectBesuError(() => addressFromPublicKey(`0x04${"00".repeat(64)}`, "key"), "key");
    const notOnCurve = expectBesuError(() => normalizePublicKey(`0x${"01".repeat(64)}`, "pub"), "pub");
    expect(notOnCurve.message).toContain("not a point on the secp256k1 curve");
  });
});

describe("enode", () => {
  it("derives the 128-hex enode id", () => {
    const uncompressed = secp256k1.getPublicKey(TEST_PRIVATE_KEYS[1].slice(2), false);
    const id = enodeIdFromPublicKey(secp256k1.getPublicKey(TEST_PRIVATE_KEYS[1].slice(2), true));
    expect(id).toMatch(/^[0-9a-f]{128}$/);
    expect(id).toBe(nobleBytesToHex(uncompressed.slice(1)));
  });

  it("reproduces the enode URL from Besu's Node keys page", () => {
    expect(enodeUrl(DOCS_ENODE.publicKey, DOCS_ENODE.host, DOCS_ENODE.port, DOCS_ENODE.discoveryPort)).toBe(
      DOCS_ENODE.url,
    );
    expect(enodeUrl(DOCS_ENODE.publicKey, DOCS_ENODE.host, DOCS_ENODE.port)).toBe(DOCS_ENODE.url.split("?")[0]);
    expect(enodeUrl(DOCS_ENODE.publicKey, DOCS_ENODE.host, 30303, 30303)).not.toContain("discport");
  });

  it("parses enode URLs back, including IPv6 and DNS names", () => {
    expect(parseEnodeUrl(DOCS_ENODE.url)).toEqual({
      enodeId: DOCS_ENODE.publicKey.slice(2),
      host: "10.3.58.6",
      port: 30303,
      discoveryPort: 30301,
    });
    const v6 = enodeUrl(DOCS_ENODE.publicKey, "fe80::1", 30303);
    expect(v6).toContain("@[fe80::1]:30303");
    expect(parseEnodeUrl(v6).host).toBe("fe80::1");
    expect(parseEnodeUrl(enodeUrl(DOCS_ENODE.publicKey, "node1.example.net", 1)).host).toBe("node1.example.net");
  });

  it("refuses bad hosts, ports and URLs, naming the field", () => {
    expectBesuError(() => enodeUrl(DOCS_ENODE.publicKey, "0.0.0.0", 30303), "host");
    expectBesuError(() => enodeUrl(DOCS_ENODE.publicKey, "bad host", 30303), "host");
    expectBesuError(() => enodeUrl(DOCS_ENODE.publicKey, "10.0.0.1", 0), "port");
    expectBesuError(() => enodeUrl(DOCS_ENODE.publicKey, "10.0.0.1", 70000), "port");
    expectBesuError(() => enodeUrl(DOCS_ENODE.publicKey, "10.0.0.1", 30303, 1.5), "discoveryPort");
    expectBesuError(() => parseEnodeUrl("enode://abc@1.2.3.4:30303", "bootnodes[0]"), "bootnodes[0]");
    expectBesuError(() => parseEnodeUrl(`enode://${"01".repeat(64)}@1.2.3.4:30303`, "bootnodes[1]"), "bootnodes[1]");
    expectBesuError(() => parseEnodeUrl(DOCS_ENODE.url.replace("30303", "99999"), "b"), /^b port$/);
  });
});

describe("publicKeyFromPrivateKey", () => {
  it("refuses out-of-range scalars", () => {
    expectBesuError(() => publicKeyFromPrivateKey(`0x${"00".repeat(32)}`), "privateKey");
    expectBesuError(
      () => publicKeyFromPrivateKey("0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", "k"),
      "k",
    );
    expectBesuError(() => publicKeyFromPrivateKey("0x1234"), "privateKey");
  });
});
