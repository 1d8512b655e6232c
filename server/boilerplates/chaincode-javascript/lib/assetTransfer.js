"use strict";

const { Contract } = require("fabric-contract-api");

/** JSON with keys in sorted order: every peer writes the same bytes. */
function toBytes(asset) {
  const sorted = Object.fromEntries(Object.entries(asset).sort(([a], [b]) => a.localeCompare(b)));
  return Buffer.from(JSON.stringify(sorted));
}

/** Assets by id: create, read, update, transfer and delete them, and list them all. */
class AssetTransferContract extends Contract {
  constructor() {
    super("AssetTransfer");
  }

  async CreateAsset(ctx, id, color, size, owner, appraisedValue) {
    if (await this.AssetExists(ctx, id)) throw new Error(`the asset ${id} already exists`);
    const asset = { ID: id, Color: color, Size: Number(size), Owner: owner, AppraisedValue: Number(appraisedValue) };
    await ctx.stub.putState(id, toBytes(asset));
  }

  async ReadAsset(ctx, id) {
    const bytes = await ctx.stub.getState(id);
    if (!bytes || bytes.length === 0) throw new Error(`the asset ${id} does not exist`);
    return Buffer.from(bytes).toString("utf8");
  }

  async UpdateAsset(ctx, id, color, size, owner, appraisedValue) {
    if (!(await this.AssetExists(ctx, id))) throw new Error(`the asset ${id} does not exist`);
    const asset = { ID: id, Color: color, Size: Number(size), Owner: owner, AppraisedValue: Number(appraisedValue) };
    await ctx.stub.putState(id, toBytes(asset));
  }

  async DeleteAsset(ctx, id) {
    if (!(await this.AssetExists(ctx, id))) throw new Error(`the asset ${id} does not exist`);
    await ctx.stub.deleteState(id);
  }

  async AssetExists(ctx, id) {
    const bytes = await ctx.stub.getState(id);
    return Boolean(bytes && bytes.length > 0);
  }

  /** Gives an asset a new owner and returns the previous one. */
  async TransferAsset(ctx, id, newOwner) {
    const asset = JSON.parse(await this.ReadAsset(ctx, id));
    const previous = asset.Owner;
    asset.Owner = newOwner;
    await ctx.stub.putState(id, toBytes(asset));
    return previous;
  }

  async GetAllAssets(ctx) {
    const all = [];
    const iterator = await ctx.stub.getStateByRange("", "");
    try {
      for (let r = await iterator.next(); !r.done; r = await iterator.next()) {
        all.push(JSON.parse(Buffer.from(r.value.value).toString("utf8")));
      }
    } finally {
      await iterator.close();
    }
    return JSON.stringify(all);
  }
}

module.exports.AssetTransferContract = AssetTransferContract;
