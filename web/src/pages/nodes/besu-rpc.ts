import { isApiError } from "@/api/errors";

/** 0x-hex or decimal quantity → bigint (undefined when absent or malformed). */
export function toBigInt(q: unknown): bigint | undefined {
  if (typeof q === "number") return BigInt(q);
  if (typeof q !== "string" || !/^(0x[0-9a-fA-F]+|\d+)$/.test(q)) return undefined;
  return BigInt(q);
}

export function hexToNumber(q: unknown): number | undefined {
  const b = toBigInt(q);
  return b === undefined ? undefined : Number(b);
}

/** wei → "1.5 ETH" style text, exact to 6 decimals. */
export function formatEther(wei: bigint | undefined): string {
  if (wei === undefined) return "—";
  const whole = wei / 10n ** 18n;
  const frac = (wei % 10n ** 18n).toString().padStart(18, "0").slice(0, 6).replace(/0+$/, "");
  return `${whole.toString()}${frac ? `.${frac}` : ""} ETH`;
}

/** Block numbers from `latest` down, `count` of them, never below 0. */
export function latestBlockNumbers(latest: number, count: number): number[] {
  const out: number[] = [];
  for (let n = latest; n >= 0 && out.length < count; n--) out.push(n);
  return out;
}

/**
 * The quorum warning of a refused vote: the server answers 400 "vote: …" when the vote would
 * break the 2/3 quorum (and `force` was not set). Returns its text, or undefined for other errors.
 */
export function quorumWarning(error: unknown): string | undefined {
  if (!isApiError(error) || error.status !== 400) return undefined;
  const m = /^vote: (.+)$/s.exec(error.message);
  if (!m) return undefined;
  const text = m[1]!.replace(/;\s*send force: true.*$/s, "").trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}
