import type { CreateBesuNetworkBody } from "@/api/client";

/** The create-Besu-network form (strings, as the inputs hold them). */
export interface BesuFormValues {
  name: string;
  description: string;
  chainId: string;
  blockPeriod: string;
  epochLength: string;
  requestTimeout: string;
  gasLimit: string;
  /** secp256k1 key ids of local validators. */
  validatorKeyIds: number[];
  externalValidators: { address: string; publicKey: string }[];
  alloc: { address: string; balance: string }[];
}

/** Besu's QBFT defaults (block period 5 s, epoch 30000, round timeout 10 s) and its docs' gas limit. */
export const BESU_FORM_DEFAULTS: BesuFormValues = {
  name: "",
  description: "",
  chainId: "1337",
  blockPeriod: "5",
  epochLength: "30000",
  requestTimeout: "10",
  gasLimit: "0x29b92700",
  validatorKeyIds: [],
  externalValidators: [],
  alloc: [],
};

export const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;
export const QUANTITY_PATTERN = /^(0x[0-9a-fA-F]+|\d+)$/;

/**
 * Where the server reports each form field's errors. Order matters: the catch-all "config"
 * (e.g. "validator listed twice") comes last so specific fields match first.
 */
export const BESU_FORM_FIELDS = {
  name: "name",
  description: "description",
  chainId: "config.chainId",
  blockPeriod: "config.blockPeriod",
  epochLength: "config.epochLength",
  requestTimeout: "config.requestTimeout",
  gasLimit: "config.gasLimit",
  alloc: "config.alloc",
  externalValidators: "config.externalValidatorKeys",
  validatorKeyIds: ["config.initialValidatorsKeyIds", "config"],
} as const;

/** Maps the form to POST /networks/besu: numbers parsed, empty rows dropped, alloc keyed by address. */
export function toCreateBesuNetworkBody(v: BesuFormValues): CreateBesuNetworkBody {
  const alloc: Record<string, { balance: string }> = {};
  for (const row of v.alloc) {
    if (row.address.trim()) alloc[row.address.trim()] = { balance: row.balance.trim() || "0" };
  }
  const external = v.externalValidators
    .filter((e) => e.publicKey.trim())
    .map((e) => ({
      publicKey: e.publicKey.trim(),
      ...(e.address.trim() ? { ethereumAddress: e.address.trim() } : {}),
    }));
  return {
    name: v.name.trim(),
    ...(v.description.trim() ? { description: v.description.trim() } : {}),
    config: {
      consensus: "qbft",
      chainId: Number(v.chainId),
      blockPeriod: Number(v.blockPeriod),
      epochLength: Number(v.epochLength),
      requestTimeout: Number(v.requestTimeout),
      ...(v.gasLimit.trim() ? { gasLimit: v.gasLimit.trim() } : {}),
      initialValidatorsKeyIds: v.validatorKeyIds,
      externalValidatorKeys: external,
      ...(Object.keys(alloc).length ? { alloc } : {}),
    },
  };
}

/** The creation parameters a network stores as base64 JSON; undefined when unreadable. */
export function decodeNetworkConfig(base64: string): Record<string, unknown> | undefined {
  try {
    const json = new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    const parsed: unknown = JSON.parse(json);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Pretty-prints the genesis JSON text; returns it unchanged if it doesn't parse. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A wei quantity (0x-hex or decimal) as a decimal string with its ether value, e.g. "200000000000000000000 (200 ETH)". */
export function formatWei(value: string | undefined): string {
  if (!value) return "0";
  let wei: bigint;
  try {
    wei = BigInt(value);
  } catch {
    return value;
  }
  const ether = wei / 10n ** 18n;
  const rest = wei % 10n ** 18n;
  if (wei === 0n) return "0";
  const frac = rest === 0n ? "" : `.${rest.toString().padStart(18, "0").replace(/0+$/, "").slice(0, 6)}`;
  return `${wei.toString()} (${ether.toLocaleString("en-US")}${frac} ETH)`;
}

/** A react-hook-form rule: a whole number, at least `min` (and at most `max` when given). */
export const wholeNumber =
  (min: number, max?: number) =>
  (v: string): true | string =>
    (/^\d+$/.test(v) && Number(v) >= min && (max === undefined || Number(v) <= max)) ||
    (max === undefined ? `A whole number, at least ${min}` : `A whole number from ${min} to ${max}`);
