/**
 * Fixed vectors for the Besu tests, transcribed from Besu's documentation (besu-eth/besu-docs).
 * Test-only module: imported by *.test.ts files, never by product code.
 */

/**
 * "Configure QBFT consensus", Genesis file, block header validator selection tab.
 * https://besu.hyperledger.org/private-networks/how-to/configure/consensus/qbft
 * (besu-docs docs/private-networks/how-to/configure/consensus/qbft.md)
 */
export const DOCS_QBFT_GENESIS = {
  config: {
    chainid: 1337,
    berlinBlock: 0,
    qbft: { epochlength: 30000, blockperiodseconds: 5, requesttimeoutseconds: 10 },
  },
  nonce: "0x0",
  timestamp: "0x5b3d92d7",
  extraData:
    "0xf87aa00000000000000000000000000000000000000000000000000000000000000000f8549464a702e6263b7297a96638cac6ae65e6541f4169943923390ad55e90c237593b3b0e401f3b08a0318594aefdb9a738c9f433e5b6b212a6d62f6370c2f69294c7eeb9a4e00ce683cf93039b212648e01c6c6b78c080c0",
  gasLimit: "0x29b92700",
  difficulty: "0x1",
  mixHash: "0x63746963616c2062797a616e74696e65206661756c7420746f6c6572616e6365",
  coinbase: "0x0000000000000000000000000000000000000000",
  alloc: {
    "64d9be4177f418bcf4e56adad85f33e3a64efe22": { balance: "0x446c3b15f9926687d2c40534fdb564000000000000" },
    "9f66f8a0f0a6537e4a36aa1799673ea7ae97a166": { balance: "0x446c3b15f9926687d2c40534fdb564000000000000" },
    a7f25969fb6f3d5ac09a88862c90b5ff664557a7: { balance: "0x446c3b15f9926687d2c40534fdb564000000000000" },
    f4bbfd32c11c9d63e9b4c77bb225810f840342df: { balance: "0x446c3b15f9926687d2c40534fdb564000000000000" },
  },
  number: "0x0",
  gasUsed: "0x0",
  parentHash: "0x0000000000000000000000000000000000000000000000000000000000000000",
} as const;

/** The validators encoded in {@link DOCS_QBFT_GENESIS}'s extraData, in encoded order. */
export const DOCS_QBFT_GENESIS_VALIDATORS = [
  "0x64a702e6263b7297a96638cac6ae65e6541f4169",
  "0x3923390ad55e90c237593b3b0e401f3b08a03185",
  "0xaefdb9a738c9f433e5b6b212a6d62f6370c2f692",
  "0xc7eeb9a4e00ce683cf93039b212648e01c6c6b78",
] as const;

/**
 * Same page, "Generate extra data": the toEncode.json validators and the RLP Besu's
 * `rlp encode --type=QBFT_EXTRA_DATA` printed for them.
 */
export const DOCS_RLP_ENCODE_VALIDATORS = [
  "0x4592c8e45706cc08b8f44b11e43cba0cfc5892cb",
  "0x06e23768a0f59cf365e18c2e0c89e151bcdedc70",
  "0xc5327f96ee02d7bcbc1bf1236b8c15148971e1de",
  "0xab5e7f4061c605820d3744227eed91ff8e2c8908",
] as const;
export const DOCS_RLP_ENCODE_EXTRA_DATA =
  "0xf87aa00000000000000000000000000000000000000000000000000000000000000000f854944592c8e45706cc08b8f44b11e43cba0cfc5892cb9406e23768a0f59cf365e18c2e0c89e151bcdedc7094c5327f96ee02d7bcbc1bf1236b8c15148971e1de94ab5e7f4061c605820d3744227eed91ff8e2c8908c080c0";

/** Same page, contract validator selection tab: no validators in the header. */
export const DOCS_CONTRACT_EXTRA_DATA =
  "0xe5a00000000000000000000000000000000000000000000000000000000000000000c0c080c0";

/**
 * "Genesis file" concept page, IBFT 2.0 example (must be refused by the QBFT decoder).
 * https://besu.hyperledger.org/public-networks/concepts/genesis-file
 */
export const DOCS_IBFT2_GENESIS = {
  config: {
    chainId: 2018,
    berlinBlock: 0,
    ibft2: { blockperiodseconds: 2, epochlength: 30000, requesttimeoutseconds: 4 },
  },
  nonce: "0x0",
  timestamp: "0x58ee40ba",
  extraData:
    "0xf83ea00000000000000000000000000000000000000000000000000000000000000000d5949811ebc35d7b06b3fa8dc5809a1f9c52751e1deb808400000000c0",
  gasLimit: "0x1fffffffffffff",
  difficulty: "0x1",
  mixHash: "0x63746963616c2062797a616e74696e65206661756c7420746f6c6572616e6365",
  coinbase: "0x0000000000000000000000000000000000000000",
  alloc: { "9811ebc35d7b06b3fa8dc5809a1f9c52751e1deb": { balance: "0xad78ebc5ac6200000" } },
} as const;

/**
 * Besu docs test accounts (besu-docs docs/global/test_accounts.md): private key and the
 * address the docs give for it.
 */
export const DOCS_TEST_ACCOUNTS = [
  {
    privateKey: "0x8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63",
    address: "0xfe3b557e8fb62b89f4916b721be55ceb828dbd73",
  },
  {
    privateKey: "0xc87509a1c067bbde78beb793e6fa76530b6382a4c0241e5e4a9ec0a0f44dc0d3",
    address: "0x627306090abaB3A6e1400e9345bC60c78a8BEf57",
  },
  {
    privateKey: "0xae6ae8e5ccbfb04590405997ee2d52d2b330726137b875053c36d94e974d162f",
    address: "0xf17f52151EbEF6C7334FAD080c5704D77216b732",
  },
] as const;

/**
 * "Node keys", Enode URL: the documented public key, host, ports and resulting URL.
 * https://besu.hyperledger.org/public-networks/concepts/node-keys
 */
export const DOCS_ENODE = {
  publicKey:
    "0xc35c3ec90a8a51fd5703594c6303382f3ae6b2ecb9589bab2c04b3794f2bc3fc2631dabb0c08af795787a6c004d8f532230ae6e9925cbbefb0b28b79295d615f",
  host: "10.3.58.6",
  port: 30303,
  discoveryPort: 30301,
  url: "enode://c35c3ec90a8a51fd5703594c6303382f3ae6b2ecb9589bab2c04b3794f2bc3fc2631dabb0c08af795787a6c004d8f532230ae6e9925cbbefb0b28b79295d615f@10.3.58.6:30303?discport=30301",
} as const;

/** Deterministic private keys for cross-checks (not secret; never use outside tests). */
export const TEST_PRIVATE_KEYS = [
  "0x0000000000000000000000000000000000000000000000000000000000000001",
  "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140",
] as const;
