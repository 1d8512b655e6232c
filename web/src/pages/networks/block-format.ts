import { formatEther, hexToNumber, toBigInt } from "@/pages/nodes/besu-rpc";

/** A block number from the URL: a non-negative decimal integer, else undefined. */
export function parseBlockNumber(param: string | undefined): number | undefined {
  if (!param || !/^\d+$/.test(param)) return undefined;
  const n = Number(param);
  return Number.isSafeInteger(n) ? n : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** Block timestamp (0x seconds) → ISO date, undefined when absent or malformed. */
export function blockTime(timestamp: unknown): string | undefined {
  const s = hexToNumber(timestamp);
  return s === undefined ? undefined : new Date(s * 1000).toISOString();
}

/** "21,000 / 30,000,000 (0.07%)" for gas used against the limit. */
export function gasUsage(used: unknown, limit: unknown): string {
  const u = toBigInt(used);
  const l = toBigInt(limit);
  if (u === undefined || l === undefined) return "—";
  const pct = l === 0n ? "" : ` (${(Number((u * 10_000n) / l) / 100).toLocaleString("en-US")}%)`;
  return `${u.toLocaleString("en-US")} / ${l.toLocaleString("en-US")}${pct}`;
}

/** Printable text inside extraData, when it is mostly ASCII (vanity); QBFT's RLP extraData gives undefined. */
export function extraDataText(hex: unknown): string | undefined {
  if (typeof hex !== "string" || !/^0x([0-9a-fA-F]{2})+$/.test(hex)) return undefined;
  const bytes = hex
    .slice(2)
    .match(/../g)!
    .map((b) => parseInt(b, 16));
  const printable = bytes.filter((b) => b >= 0x20 && b < 0x7f).length;
  if (printable / bytes.length < 0.9) return undefined;
  return String.fromCharCode(...bytes.filter((b) => b >= 0x20 && b < 0x7f));
}

export interface BlockHeader {
  number?: number;
  hash?: string;
  parentHash?: string;
  time?: string;
  miner?: string;
  gas: string;
  extraData?: string;
  extraText?: string;
  txCount: number;
}

/** The header fields the explorer shows, from an eth_getBlockByNumber result. */
export function blockHeader(b: Record<string, unknown>): BlockHeader {
  return {
    number: hexToNumber(b.number),
    hash: str(b.hash),
    parentHash: str(b.parentHash),
    time: blockTime(b.timestamp),
    miner: str(b.miner) ?? str(b.coinbase),
    gas: gasUsage(b.gasUsed, b.gasLimit),
    extraData: str(b.extraData),
    extraText: extraDataText(b.extraData),
    txCount: Array.isArray(b.transactions) ? b.transactions.length : 0,
  };
}

export interface TxRow {
  hash: string;
  from?: string;
  /** undefined for a contract creation. */
  to?: string;
  value: string;
  gas?: number;
  gasPrice?: string;
  nonce?: number;
  input: string;
  /** The created contract (creation without `to`). */
  creation: boolean;
}

/** Transactions of a block fetched with fullTx=true; hashes alone (fullTx=false) give rows with just the hash. */
export function txRows(b: Record<string, unknown>): TxRow[] {
  if (!Array.isArray(b.transactions)) return [];
  return b.transactions.map((t: unknown, i): TxRow => {
    if (typeof t === "string") return { hash: t, value: "—", input: "0x", creation: false };
    const tx = (typeof t === "object" && t !== null ? t : {}) as Record<string, unknown>;
    const gasPrice = toBigInt(tx.gasPrice);
    return {
      hash: str(tx.hash) ?? `#${i}`,
      from: str(tx.from),
      to: str(tx.to),
      value: formatEther(toBigInt(tx.value) ?? 0n),
      gas: hexToNumber(tx.gas),
      gasPrice: gasPrice === undefined ? undefined : `${gasPrice.toLocaleString("en-US")} wei`,
      nonce: hexToNumber(tx.nonce),
      input: str(tx.input) ?? str(tx.data) ?? "0x",
      creation: !str(tx.to),
    };
  });
}

/** The 4-byte selector of calldata, or undefined for a plain transfer (no data). */
export function selectorOf(input: string): string | undefined {
  return /^0x[0-9a-fA-F]{8}/.test(input) ? input.slice(0, 10).toLowerCase() : undefined;
}

/** Checks pasted ABI JSON: an array (or a Hardhat/Foundry artifact with an `abi` array). Returns the ABI text or an error. */
export function normalizeAbi(text: string): { abi: string } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { error: "The ABI is not valid JSON" };
  }
  if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) && "abi" in parsed) {
    parsed = (parsed as { abi: unknown }).abi;
  }
  if (!Array.isArray(parsed)) return { error: "The ABI must be a JSON array (or an artifact with an abi array)" };
  return { abi: JSON.stringify(parsed) };
}

/** A decoded argument for display: strings as is, everything else as JSON. */
export function formatArg(v: unknown): string {
  if (typeof v === "string") return v;
  return JSON.stringify(v);
}

/** An ABI's functions as signatures, view/pure ones marked (for the contract inspector). */
export function abiFunctions(abi: string): { name: string; signature: string; readOnly: boolean }[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(abi);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const out: { name: string; signature: string; readOnly: boolean }[] = [];
  for (const item of parsed) {
    if (typeof item !== "object" || item === null) continue;
    const f = item as { type?: string; name?: string; inputs?: { type?: string }[]; stateMutability?: string };
    if (f.type !== "function" || !f.name) continue;
    const inputs = (f.inputs ?? []).map((i) => i.type ?? "?").join(",");
    out.push({
      name: f.name,
      signature: `${f.name}(${inputs})`,
      readOnly: f.stateMutability === "view" || f.stateMutability === "pure",
    });
  }
  return out;
}

/** Bytecode size in bytes ("0x" → 0). */
export function codeSize(code: string): number {
  return /^0x[0-9a-fA-F]*$/.test(code) ? Math.floor((code.length - 2) / 2) : 0;
}

/** A storage slot as typed (decimal or 0x-hex) → 0x-hex for eth_getStorageAt; undefined when malformed. */
export function slotPosition(input: string): string | undefined {
  const t = input.trim();
  if (!/^(0x[0-9a-fA-F]{1,64}|\d+)$/.test(t)) return undefined;
  const n = BigInt(t);
  return n < 2n ** 256n ? `0x${n.toString(16)}` : undefined;
}

/** A 32-byte storage word read three ways: hex, unsigned decimal, and as an address when it fits in 20 bytes. */
export function storageViews(word: string): { hex: string; decimal: string; address?: string } {
  const v = toBigInt(word) ?? 0n;
  const hex = `0x${v.toString(16).padStart(64, "0")}`;
  const address = v !== 0n && v < 2n ** 160n ? `0x${v.toString(16).padStart(40, "0")}` : undefined;
  return { hex, decimal: v.toString(), ...(address ? { address } : {}) };
}
