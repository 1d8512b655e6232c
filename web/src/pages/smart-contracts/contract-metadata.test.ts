import { describe, expect, it } from "vitest";
import {
  addToHistory,
  argsFromLines,
  contractFunctions,
  type CallRecord,
} from "@/pages/smart-contracts/contract-metadata";

const metadata = {
  info: { title: "asset", version: "1" },
  contracts: {
    AssetContract: {
      name: "AssetContract",
      transactions: [
        {
          name: "CreateAsset",
          tag: ["SUBMIT", "submitTx"],
          parameters: [
            { name: "id", schema: { type: "string" } },
            { name: "value", schema: { type: "string" } },
          ],
        },
        {
          name: "ReadAsset",
          tag: ["EVALUATE", "evaluateTx"],
          parameters: [{ name: "id", schema: { type: "string" } }],
        },
        { name: "Other", parameters: [] },
      ],
    },
    Extra: { name: "Extra", transactions: [{ name: "Ping", tag: ["submitTx"] }] },
    "org.hyperledger.fabric": { name: "org.hyperledger.fabric", transactions: [{ name: "GetMetadata" }] },
  },
};

describe("contract metadata", () => {
  it("lists callable functions with their kind and parameters", () => {
    const fns = contractFunctions(metadata);
    expect(fns.map((f) => [f.call, f.kind, f.params.map((p) => p.name), f.paramsDeclared])).toEqual([
      ["CreateAsset", "submit", ["id", "value"], true],
      ["ReadAsset", "evaluate", ["id"], true],
      ["Other", "unknown", [], true],
      // A plain JavaScript contract names its transactions but not their parameters.
      ["Extra:Ping", "submit", [], false],
    ]);
    expect(contractFunctions("not metadata")).toEqual([]);
  });

  it("reads arguments one per line and keeps a bounded history, newest first", () => {
    expect(argsFromLines("a1\n\n blue \r\n")).toEqual(["a1", " blue "]);
    const rec = (fn: string): CallRecord => ({ at: "t", fn, args: [], kind: "query", ok: true, result: "", ms: 1 });
    let h: CallRecord[] = [];
    for (const f of ["a", "b", "c"]) h = addToHistory(h, rec(f), 2);
    expect(h.map((r) => r.fn)).toEqual(["c", "b"]);
  });
});
