/**
 * Besu library: QBFT genesis and extraData, secp256k1 node keys and enode URLs, the node
 * key file, local permissioning files, and the `besu` command line. No HTTP or DB imports.
 */
export { BesuInputError } from "./errors.js";
export {
  addressFromPublicKey,
  enodeIdFromPublicKey,
  enodeUrl,
  normalizePublicKey,
  parseEnodeUrl,
  publicKeyFromPrivateKey,
  type EnodeUrlParts,
  type PublicKeyInput,
} from "./keys.js";
export {
  QBFT_VANITY,
  buildQbftContractExtraData,
  buildQbftExtraData,
  decodeQbftExtraData,
  parseValidatorAddresses,
  type QbftExtraData,
  type QbftVote,
} from "./extra-data.js";
export {
  BESU_MILESTONES,
  DEFAULT_GAS_LIMIT,
  DEFAULT_QBFT_MILESTONES,
  QBFT_MIX_HASH,
  buildQbftGenesis,
  type BesuGenesis,
  type BesuGenesisAccount,
  type BesuGenesisConfig,
  type BesuMilestone,
  type GenesisAllocInput,
  type QbftGenesisConfig,
  type QbftGenesisParams,
  type QuantityInput,
} from "./genesis.js";
export { BESU_QBFT_DEFAULTS, parseGenesis, type ParsedQbftConfig, type ParsedQbftGenesis } from "./genesis-import.js";
export { formatNodeKeyFile, parseNodeKeyFile } from "./key-file.js";
export { renderBesuConfigToml } from "./config-toml.js";
export { renderPermissionsConfigToml, type PermissionsConfigInput } from "./permissions.js";
export {
  BESU_JWT_ALGORITHMS,
  BESU_PROFILES,
  BESU_RPC_APIS,
  DEFAULT_JAVA_OPTS,
  DEFAULT_MIN_GAS_PRICE,
  REQUIRED_RPC_APIS,
  buildBesuCommand,
  buildBesuOptions,
  optionToArg,
  type BesuCommand,
  type BesuCommandOptions,
  type BesuOption,
  type BesuRpcApi,
} from "./command.js";
// The JSON-RPC client (rpc.ts) and the contract client (contracts.ts) load viem's client code; callers
// import them on first use so the server does not pay for them at start-up.
export { BesuRpcError } from "./errors.js";
