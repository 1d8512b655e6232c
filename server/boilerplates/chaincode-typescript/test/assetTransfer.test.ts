import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Context } from "fabric-contract-api";
import { AssetTransferContract } from "../src/assetTransfer";

/** A world state in memory with the stub calls the contract makes. */
function fakeContext(): Context {
  const state = new Map<string, Uint8Array>();
  const stub = {
    getState: async (key: string) => state.get(key) ?? new Uint8Array(),
    putState: async (key: string, value: Uint8Array) => void state.set(key, value),
    deleteState: async (key: string) => void state.delete(key),
    getStateByRange: async () => {
      const entries = [...state.entries()].sort(([a], [b]) => a.localeCompare(b));
      let i = 0;
      return {
        next: async () =>
          i < entries.length
            ? { done: false, value: { key: entries[i]![0], value: entries[i++]![1] } }
            : { done: true, value: undefined },
        close: async () => undefined,
      };
    },
  };
  return { stub } as unknown as Context;
}

describe("AssetTransferContract", () => {
  it("creates, reads, transfers and deletes an asset", async () => {
    const c = new AssetTransferContract();
    const ctx = fakeContext();
    await c.CreateAsset(ctx, "asset1", "blue", 5, "Tom", 300);
    assert.deepEqual(await c.ReadAsset(ctx, "asset1"), {
      AppraisedValue: 300,
      Color: "blue",
      ID: "asset1",
      Owner: "Tom",
      Size: 5,
    });
    assert.equal(await c.TransferAsset(ctx, "asset1", "Ana"), "Tom");
    assert.equal((await c.ReadAsset(ctx, "asset1")).Owner, "Ana");
    await c.DeleteAsset(ctx, "asset1");
    assert.equal(await c.AssetExists(ctx, "asset1"), false);
  });

  it("refuses a duplicate id and a missing asset", async () => {
    const c = new AssetTransferContract();
    const ctx = fakeContext();
    await c.CreateAsset(ctx, "asset1", "red", 1, "Tom", 10);
    await assert.rejects(c.CreateAsset(ctx, "asset1", "red", 1, "Tom", 10), /already exists/);
    await assert.rejects(c.ReadAsset(ctx, "nope"), /does not exist/);
    await assert.rejects(c.UpdateAsset(ctx, "nope", "red", 1, "Tom", 10), /does not exist/);
  });

  it("lists every asset in key order", async () => {
    const c = new AssetTransferContract();
    const ctx = fakeContext();
    await c.CreateAsset(ctx, "b", "red", 1, "Tom", 10);
    await c.CreateAsset(ctx, "a", "blue", 2, "Ana", 20);
    const all = JSON.parse(await c.GetAllAssets(ctx)) as { ID: string }[];
    assert.deepEqual(
      all.map((x) => x.ID),
      ["a", "b"],
    );
  });
});
