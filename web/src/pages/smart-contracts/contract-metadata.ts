/** A transaction of a Fabric contract, as GetMetadata describes it. */
export interface ContractFunction {
  /** What to send as `function`: `Contract:Tx`, or just `Tx` for the default contract. */
  call: string;
  contract: string;
  name: string;
  params: { name: string; type: string }[];
  /**
   * Whether the metadata declares the parameters. Plain JavaScript contracts (no decorators) list
   * their transactions without `parameters`, so their arguments are typed free-form.
   */
  paramsDeclared: boolean;
  /** submit (invoke), evaluate (query), or unknown (offer both). */
  kind: "submit" | "evaluate" | "unknown";
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The callable transactions of `org.hyperledger.fabric:GetMetadata`'s answer, grouped by contract
 * (the system contract `org.hyperledger.fabric` is left out). The first contract is the default
 * one, so its functions are called by their bare name.
 */
export function contractFunctions(metadata: unknown): ContractFunction[] {
  if (!isObj(metadata) || !isObj(metadata.contracts)) return [];
  const names = Object.keys(metadata.contracts).filter((c) => c !== "org.hyperledger.fabric");
  const out: ContractFunction[] = [];
  names.forEach((contract, i) => {
    const c = (metadata.contracts as Json)[contract];
    const txs = isObj(c) && Array.isArray(c.transactions) ? c.transactions : [];
    for (const tx of txs) {
      if (!isObj(tx) || typeof tx.name !== "string") continue;
      const tags = Array.isArray(tx.tag) ? tx.tag.map((t) => String(t).toLowerCase()) : [];
      const kind = tags.some((t) => t === "submit" || t === "submittx")
        ? "submit"
        : tags.some((t) => t === "evaluate" || t === "evaluatetx")
          ? "evaluate"
          : "unknown";
      const params = Array.isArray(tx.parameters)
        ? tx.parameters.filter(isObj).map((p) => ({
            name: String(p.name ?? ""),
            type: isObj(p.schema) ? String(p.schema.type ?? p.schema.$ref ?? "string") : "string",
          }))
        : [];
      out.push({
        call: i === 0 ? tx.name : `${contract}:${tx.name}`,
        contract,
        name: tx.name,
        params,
        paramsDeclared: Array.isArray(tx.parameters),
        kind,
      });
    }
  });
  return out;
}

/** Arguments typed one per line (blank lines dropped, surrounding spaces kept inside a line). */
export function argsFromLines(text: string): string[] {
  return text
    .split("\n")
    .map((l) => l.replace(/\r$/, ""))
    .filter((l) => l.trim() !== "");
}

/** One call made in the playground, newest first in its history. */
export interface CallRecord {
  at: string;
  fn: string;
  args: string[];
  kind: "invoke" | "query";
  ok: boolean;
  result: string;
  txId?: string;
  ms: number;
}

/** Adds a call to a history, newest first, keeping at most `max`. */
export function addToHistory(history: CallRecord[], rec: CallRecord, max = 50): CallRecord[] {
  return [rec, ...history].slice(0, max);
}
