"use strict";

const { AssetTransferContract } = require("./lib/assetTransfer");

module.exports.AssetTransferContract = AssetTransferContract;
module.exports.contracts = [AssetTransferContract];
