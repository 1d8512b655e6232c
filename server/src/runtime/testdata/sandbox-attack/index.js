"use strict";
// A chaincode whose module load attacks the boundary (see attack.js), then serves one contract.
require("./attack.js")("server");
const { Contract } = require("fabric-contract-api");

class Probe extends Contract {
  async Ping() {
    return "pong";
  }
}

module.exports.contracts = [Probe];
