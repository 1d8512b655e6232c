import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { methodParameters, nameShimParameters } from "./metadata-names.js";

const JS_BOILERPLATE = resolve(import.meta.dirname, "../../../boilerplates/chaincode-javascript");

/** What fabric-shim answers for a plain JavaScript contract: arity only. */
function shimMetadata(tx: Record<string, number>): unknown {
  return {
    contracts: {
      AssetTransfer: {
        name: "AssetTransfer",
        transactions: Object.entries(tx).map(([name, n]) => ({
          name,
          tags: ["SUBMIT", "submitTx"],
          parameters: Array.from({ length: n }, (_, i) => ({
            name: `arg${i}`,
            description: `Argument ${i}`,
            schema: { type: "string" },
          })),
        })),
      },
      "org.hyperledger.fabric": { name: "org.hyperledger.fabric", transactions: [{ name: "GetMetadata" }] },
    },
  };
}

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe("nameShimParameters", () => {
  it("names the JavaScript boilerplate's parameters from its source", async () => {
    const out = (await nameShimParameters(
      shimMetadata({ CreateAsset: 5, ReadAsset: 1, TransferAsset: 2 }),
      JS_BOILERPLATE,
    )) as { contracts: { AssetTransfer: { transactions: { name: string; parameters: { name: string }[] }[] } } };
    const names = Object.fromEntries(
      out.contracts.AssetTransfer.transactions.map((t) => [t.name, t.parameters.map((p) => p.name)]),
    );
    expect(names.CreateAsset).toEqual(["id", "color", "size", "owner", "appraisedValue"]);
    expect(names.ReadAsset).toEqual(["id"]);
    expect(names.TransferAsset).toHaveLength(2);
    expect(names.TransferAsset).not.toContain("arg0");
  });

  it("keeps the shim's names where the source can't be matched with certainty", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cc-names-"));
    dirs.push(dir);
    await mkdir(join(dir, "lib"));
    await mkdir(join(dir, "node_modules", "dep"), { recursive: true });
    await writeFile(
      join(dir, "lib", "a.js"),
      [
        "class A {",
        "  // Twice(ctx, wrong) {",
        "  async Twice(ctx, a) { return a; }",
        "  Arity(ctx, a, b) { if (a) { return b; } }",
        "  Fielded = async (ctx, owner) => { return owner; };",
        "  Defaults(ctx, count = 1) { return count; }",
        "  Destructured(ctx, { x }) { return x; }",
        "}",
      ].join("\n"),
    );
    await writeFile(join(dir, "lib", "b.js"), "function Twice(ctx, a, b) { return a + b; }\n");
    await writeFile(join(dir, "node_modules", "dep", "c.js"), "function Hidden(ctx, secret) {}\n");
    const methods = await methodParameters(dir);
    expect(methods.get("Twice")).toBeUndefined();
    expect(methods.get("Fielded")).toEqual(["ctx", "owner"]);
    expect(methods.get("Defaults")).toEqual(["ctx", "count"]);
    expect(methods.get("Destructured")).toBeUndefined();
    expect(methods.get("Hidden")).toBeUndefined();
    const meta = shimMetadata({ Twice: 1, Arity: 1, Fielded: 1, Defaults: 1, Destructured: 1 });
    const out = (await nameShimParameters(meta, dir)) as typeof meta & {
      contracts: { AssetTransfer: { transactions: { name: string; parameters: { name: string }[] }[] } };
    };
    const names = Object.fromEntries(
      out.contracts.AssetTransfer.transactions.map((t) => [t.name, t.parameters.map((p) => p.name)]),
    );
    expect(names).toEqual({
      Twice: ["arg0"],
      Arity: ["arg0"],
      Fielded: ["owner"],
      Defaults: ["count"],
      Destructured: ["arg0"],
    });
  });

  it("leaves declared metadata and missing sources alone", async () => {
    const declared = { contracts: { C: { transactions: [{ name: "Put", parameters: [{ name: "key" }] }] } } };
    expect(await nameShimParameters(declared, JS_BOILERPLATE)).toBe(declared);
    const shim = shimMetadata({ CreateAsset: 5 });
    expect(await nameShimParameters(shim, null)).toBe(shim);
    expect(await nameShimParameters(shim, "/nonexistent/dir")).toBe(shim);
  });
});
