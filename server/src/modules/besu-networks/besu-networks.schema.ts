import { z } from "zod";
import { dbId, lazySchema, offsetQuery } from "../../http/schema-helpers.js";

const hexQuantity = lazySchema(() =>
  z
    .string()
    .max(80)
    .regex(/^(0x[0-9a-fA-F]+|\d+)$/, "must be a 0x-hex or decimal quantity")
    .describe("Quantity as 0x-hex or decimal"),
);
const address = lazySchema(() =>
  z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address")
    .describe("Ethereum address"),
);

export const besuNetworkConfig = lazySchema(() =>
  z
    .object({
      consensus: z.enum(["qbft", "QBFT"]).default("qbft").describe("Consensus; only QBFT is supported"),
      chainId: z
        .number()
        .int()
        .min(1)
        .max(2 ** 53 - 1)
        .describe("EIP-155 chain id, unique among Besu networks"),
      blockPeriod: z.number().int().min(1).max(3600).default(5).describe("Seconds between blocks"),
      epochLength: z.number().int().min(1).max(10_000_000).default(30_000).describe("Blocks per epoch (vote reset)"),
      requestTimeout: z.number().int().min(1).max(3600).default(10).describe("Round timeout in seconds"),
      gasLimit: hexQuantity.optional().describe("Block gas limit"),
      difficulty: hexQuantity.optional().describe("Genesis difficulty (QBFT: 0x1)"),
      mixHash: z
        .string()
        .regex(/^0x[0-9a-fA-F]{64}$/, "must be 32 bytes of 0x-hex")
        .optional()
        .describe("Genesis mixHash"),
      nonce: hexQuantity.optional().describe("Genesis nonce"),
      timestamp: hexQuantity.optional().describe("Genesis timestamp"),
      coinbase: address.optional().describe("Genesis coinbase"),
      alloc: z
        .record(address, z.object({ balance: hexQuantity.describe("Balance in wei") }).strict())
        .optional()
        .describe("Pre-funded accounts"),
      initialValidatorsKeyIds: z
        .array(dbId())
        .max(100)
        .default([])
        .describe("secp256k1 key ids of the initial validators"),
      externalValidatorKeys: z
        .array(
          z
            .object({
              ethereumAddress: address.optional().describe("Validator address; checked against publicKey"),
              publicKey: z.string().min(64).max(1000).describe("secp256k1 public key (hex or PEM)"),
            })
            .strict(),
        )
        .max(100)
        .default([])
        .describe("Validators whose keys live elsewhere"),
    })
    .strict()
    .describe("QBFT network parameters"),
);

export const createBesuNetworkBody = lazySchema(() =>
  z
    .object({
      name: z.string().trim().min(1).max(100).describe("Network name, unique"),
      description: z.string().max(1000).optional().describe("Free text"),
      config: besuNetworkConfig,
    })
    .strict(),
);

export const importBesuNetworkBody = lazySchema(() =>
  z
    .object({
      name: z.string().trim().min(1).max(100).describe("Network name, unique"),
      description: z.string().max(1000).optional().describe("Free text"),
      chainId: z.number().int().min(1).optional().describe("Expected chain id; must match the genesis"),
      genesisFile: z.string().min(2).max(1_000_000).describe("The genesis JSON, as text"),
    })
    .strict(),
);

export const besuNetworkResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("Network id"),
      name: z.string().describe("Name"),
      description: z.string().describe("Free text"),
      platform: z.literal("BESU").describe("Platform"),
      status: z.string().describe("created or imported"),
      chainId: z.number().int().describe("Chain id"),
      config: z.string().describe("The creation parameters as base64 of their JSON"),
      genesisConfig: z.string().describe("The genesis file, as JSON text"),
      validators: z.array(z.string()).describe("Initial validator addresses"),
      createdAt: z.string().describe("Creation time"),
      updatedAt: z.string().describe("Last change"),
    })
    .describe("A Besu network")
    .meta({ id: "BesuNetwork" }),
);
export type BesuNetworkResponse = z.infer<typeof besuNetworkResponse>;

export const listQuery = lazySchema(() =>
  z
    .object({
      limit: z.coerce.number().int().min(1).max(1000).default(10).describe("Page size"),
      offset: offsetQuery().describe("Offset"),
      name: z.string().max(100).optional().describe("Part of the name"),
    })
    .strict(),
);
