"use strict";
// A test chaincode (Node.js, fabric-contract-api) for ChainLaunch's lifecycle tests.
// The upgrade test rewrites the next line to version "2"; keep it on one line.
const CONTRACT_VERSION = "1";

const { Contract } = require("fabric-contract-api");

class AssetContract extends Contract {
  constructor() {
    super("AssetContract");
  }

  async AssetExists(ctx, id) {
    const bytes = await ctx.stub.getState(id);
    return Boolean(bytes && bytes.length > 0);
  }

  async CreateAsset(ctx, id, value) {
    if (await this.AssetExists(ctx, id)) throw new Error(`asset ${id} already exists`);
    await ctx.stub.putState(id, Buffer.from(JSON.stringify({ id, value })));
    return JSON.stringify({ id, value });
  }

  async UpdateAsset(ctx, id, value) {
    if (!(await this.AssetExists(ctx, id))) throw new Error(`asset ${id} does not exist`);
    await ctx.stub.putState(id, Buffer.from(JSON.stringify({ id, value })));
  }

  async ReadAsset(ctx, id) {
    const bytes = await ctx.stub.getState(id);
    if (!bytes || bytes.length === 0) throw new Error(`asset ${id} does not exist`);
    const asset = JSON.parse(bytes.toString());
    return JSON.stringify({ id: asset.id, value: asset.value, version: CONTRACT_VERSION });
  }
}

module.exports.AssetContract = AssetContract;
module.exports.contracts = [AssetContract];
