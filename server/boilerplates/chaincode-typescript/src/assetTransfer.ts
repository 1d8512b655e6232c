import { Context, Contract, Info, Returns, Transaction } from "fabric-contract-api";
import { Asset } from "./asset";

/**
 * Assets by id: create, read, update, transfer and delete them, and list them all.
 * Values are stored as JSON with sorted keys, so every peer writes the same bytes.
 */
@Info({ title: "AssetTransfer", description: "Create, read, update, transfer and delete assets" })
export class AssetTransferContract extends Contract {
  constructor() {
    super("AssetTransfer");
  }

  /** Creates an asset; fails when the id is taken. */
  @Transaction()
  public async CreateAsset(
    ctx: Context,
    id: string,
    color: string,
    size: number,
    owner: string,
    appraisedValue: number,
  ): Promise<void> {
    if (await this.AssetExists(ctx, id)) throw new Error(`the asset ${id} already exists`);
    const asset: Asset = {
      ID: id,
      Color: color,
      Size: Number(size),
      Owner: owner,
      AppraisedValue: Number(appraisedValue),
    };
    await ctx.stub.putState(id, toBytes(asset));
  }

  /** Returns the asset stored under id. */
  @Transaction(false)
  @Returns("Asset")
  public async ReadAsset(ctx: Context, id: string): Promise<Asset> {
    const bytes = await ctx.stub.getState(id);
    if (!bytes || bytes.length === 0) throw new Error(`the asset ${id} does not exist`);
    return JSON.parse(Buffer.from(bytes).toString("utf8")) as Asset;
  }

  /** Replaces an existing asset's fields. */
  @Transaction()
  public async UpdateAsset(
    ctx: Context,
    id: string,
    color: string,
    size: number,
    owner: string,
    appraisedValue: number,
  ): Promise<void> {
    if (!(await this.AssetExists(ctx, id))) throw new Error(`the asset ${id} does not exist`);
    const asset: Asset = {
      ID: id,
      Color: color,
      Size: Number(size),
      Owner: owner,
      AppraisedValue: Number(appraisedValue),
    };
    await ctx.stub.putState(id, toBytes(asset));
  }

  /** Deletes an asset. */
  @Transaction()
  public async DeleteAsset(ctx: Context, id: string): Promise<void> {
    if (!(await this.AssetExists(ctx, id))) throw new Error(`the asset ${id} does not exist`);
    await ctx.stub.deleteState(id);
  }

  /** Whether an asset is stored under id. */
  @Transaction(false)
  @Returns("boolean")
  public async AssetExists(ctx: Context, id: string): Promise<boolean> {
    const bytes = await ctx.stub.getState(id);
    return Boolean(bytes && bytes.length > 0);
  }

  /** Gives an asset a new owner and returns the previous one. */
  @Transaction()
  @Returns("string")
  public async TransferAsset(ctx: Context, id: string, newOwner: string): Promise<string> {
    const asset = await this.ReadAsset(ctx, id);
    const previous = asset.Owner;
    asset.Owner = newOwner;
    await ctx.stub.putState(id, toBytes(asset));
    return previous;
  }

  /** Every asset, in key order. */
  @Transaction(false)
  @Returns("string")
  public async GetAllAssets(ctx: Context): Promise<string> {
    const all: Asset[] = [];
    const iterator = await ctx.stub.getStateByRange("", "");
    try {
      for (let r = await iterator.next(); !r.done; r = await iterator.next()) {
        all.push(JSON.parse(Buffer.from(r.value.value).toString("utf8")) as Asset);
      }
    } finally {
      await iterator.close();
    }
    return JSON.stringify(all);
  }
}

/** JSON with keys in sorted order: deterministic across peers. */
function toBytes(asset: Asset): Buffer {
  const sorted = Object.fromEntries(Object.entries(asset).sort(([a], [b]) => a.localeCompare(b)));
  return Buffer.from(JSON.stringify(sorted));
}
