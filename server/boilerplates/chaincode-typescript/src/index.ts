import { AssetTransferContract } from "./assetTransfer";

export { AssetTransferContract } from "./assetTransfer";
export const contracts: unknown[] = [AssetTransferContract];
