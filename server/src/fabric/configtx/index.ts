export {
  buildChannelConfig,
  DEFAULT_BATCH_SIZE,
  DEFAULT_BATCH_TIMEOUT,
  DEFAULT_ETCDRAFT_OPTIONS,
  DEFAULT_SMARTBFT_OPTIONS,
  GROUP_KEYS,
  ordererOrgGroup,
  peerOrgGroup,
} from "./channel-config.js";
export {
  configGroupToJson,
  configToJson,
  configUpdateToJson,
  serializedIdentityJson,
  type Json,
} from "./config-json.js";
export { ConfigtxInputError } from "./errors.js";
export {
  blockDataHash,
  blockHeaderHash,
  buildGenesisBlock,
  channelHeader,
  computeTxId,
  genesisBlockFromConfig,
  newNonce,
  NONCE_BYTES,
  signatureHeader,
  timestampOf,
} from "./genesis.js";
export {
  DEFAULT_APPLICATION_POLICIES,
  DEFAULT_CHANNEL_POLICIES,
  DEFAULT_ORDERER_POLICIES,
  defaultOrgPolicies,
  encodePolicy,
  implicitMetaFromString,
  signaturePolicyFromDsl,
  signaturePolicyToDsl,
} from "./policies.js";
export type * from "./types.js";
export { assertValidChannelId, validateChannelConfigInput } from "./validate.js";
export {
  addApplicationOrg,
  addOrdererOrg,
  addRaftConsenter,
  cloneConfig,
  removeApplicationOrg,
  removeOrdererOrg,
  removeRaftConsenter,
  setAnchorPeers,
  setBatchSize,
  setBatchTimeout,
  setBftConsenters,
  setEtcdRaftOptions,
  setOrdererEndpoints,
  setOrgCrls,
  updateOrgMsp,
  updateRaftConsenter,
} from "./operations.js";
export {
  addConfigSignatures,
  buildSignedConfigUpdate,
  computeConfigUpdate,
  configUpdateTransaction,
  createConfigUpdateEnvelope,
  signConfigUpdate,
} from "./update.js";
export {
  blockChannel,
  channelMspIds,
  channelSummary,
  consenterAddresses,
  type ChannelOrgSummary,
  type ChannelSummary,
} from "./read.js";
export {
  evaluatePolicy,
  evaluateUpdatePolicies,
  requiredModPolicies,
  type ModPolicyVerdict,
  type PolicyEvaluation,
} from "./mod-policy.js";
export { verifyConfigSignature } from "./verify-signature.js";
