import { common, orderer } from "@hyperledger/fabric-protos";
import {
  addPolicies,
  DEFAULT_APPLICATION_POLICIES,
  DEFAULT_CHANNEL_POLICIES,
  DEFAULT_ORDERER_POLICIES,
  defaultOrgPolicies,
} from "./policies.js";
import type {
  BatchSize,
  ChannelConfigInput,
  EtcdRaftOptions,
  OrdererOrgInput,
  PeerOrgInput,
  SmartBftOptions,
} from "./types.js";
import { validateChannelConfigInput } from "./validate.js";
import {
  aclsValue,
  anchorPeersValue,
  batchSizeValue,
  batchTimeoutValue,
  bftBlockValidationPolicy,
  bftConsenterProto,
  capabilitiesValue,
  configValue,
  consensusTypeValue,
  endpointsValue,
  etcdRaftMetadata,
  mspValue,
  newGroup,
  smartBftOptions,
  VALUE_KEYS,
} from "./values.js";

/** Group keys of the channel config tree. */
export const GROUP_KEYS = { application: "Application", orderer: "Orderer" } as const;

/** chainlaunch's batch defaults: 500 messages, 10 MB absolute, 2 MB preferred. */
export const DEFAULT_BATCH_SIZE: BatchSize = {
  maxMessageCount: 500,
  absoluteMaxBytes: 10 * 1024 * 1024,
  preferredMaxBytes: 2 * 1024 * 1024,
};
export const DEFAULT_BATCH_TIMEOUT = "2s";

export const DEFAULT_ETCDRAFT_OPTIONS: EtcdRaftOptions = {
  tickInterval: "500ms",
  electionTick: 10,
  heartbeatTick: 1,
  maxInflightBlocks: 5,
  snapshotIntervalSize: 16 * 1024 * 1024,
};

/** The SmartBFT options of Fabric's sample BFT profile. */
export const DEFAULT_SMARTBFT_OPTIONS: SmartBftOptions = {
  requestBatchMaxCount: 100,
  requestBatchMaxBytes: 10485760,
  requestBatchMaxInterval: "50ms",
  incomingMessageBufferSize: 200,
  requestPoolSize: 100000,
  requestForwardTimeout: "2s",
  requestComplainTimeout: "20s",
  requestAutoRemoveTimeout: "3m0s",
  requestMaxBytes: 0,
  viewChangeResendInterval: "5s",
  viewChangeTimeout: "20s",
  leaderHeartbeatTimeout: "1m0s",
  leaderHeartbeatCount: 10,
  collectTimeout: "1s",
  syncOnStart: false,
  speedUpViewChange: false,
  leaderRotation: 0,
  decisionsPerLeader: 0,
};

/** An application org group: MSP, policies, and AnchorPeers when there are any (as configtxgen). */
export function peerOrgGroup(org: PeerOrgInput, field = "peerOrg"): common.ConfigGroup {
  const g = newGroup();
  addPolicies(g, { ...defaultOrgPolicies(org.msp.name), ...org.policies }, `${field}.policies`);
  g.getValuesMap().set(VALUE_KEYS.msp, configValue(mspValue(org.msp)));
  if (org.anchorPeers && org.anchorPeers.length > 0) {
    g.getValuesMap().set(VALUE_KEYS.anchorPeers, configValue(anchorPeersValue(org.anchorPeers)));
  }
  return g;
}

/** An orderer org group: MSP, policies, Endpoints. */
export function ordererOrgGroup(org: OrdererOrgInput, field = "ordererOrg"): common.ConfigGroup {
  const g = newGroup();
  addPolicies(g, { ...defaultOrgPolicies(org.msp.name), ...org.policies }, `${field}.policies`);
  g.getValuesMap().set(VALUE_KEYS.msp, configValue(mspValue(org.msp)));
  if (org.ordererEndpoints.length > 0) {
    g.getValuesMap().set(VALUE_KEYS.endpoints, configValue(endpointsValue(org.ordererEndpoints)));
  }
  return g;
}

/**
 * Builds the config of a new application channel, group for group what configtxgen's encoder
 * writes for an equivalent profile: Channel (HashingAlgorithm, BlockDataHashingStructure,
 * Capabilities), Orderer (BatchSize, BatchTimeout, ChannelRestrictions, Capabilities,
 * ConsensusType, BFT Orderers; orgs with Endpoints) and Application (ACLs, Capabilities; orgs
 * with AnchorPeers). No global OrdererAddresses: every orderer org carries its Endpoints,
 * which V3_0 requires. All mod_policies are `Admins`.
 * @throws ConfigtxInputError for input Fabric would reject
 */
export function buildChannelConfig(input: ChannelConfigInput): common.Config {
  validateChannelConfigInput(input);
  const c = input.consensus;
  const channelCaps = input.capabilities?.channel ?? [c.type === "BFT" ? "V3_0" : "V2_0"];

  const ordererGroup = newGroup();
  addPolicies(ordererGroup, { ...DEFAULT_ORDERER_POLICIES, ...input.ordererPolicies }, "ordererPolicies");
  const ov = ordererGroup.getValuesMap();
  ov.set(VALUE_KEYS.batchSize, configValue(batchSizeValue({ ...DEFAULT_BATCH_SIZE, ...input.batchSize })));
  ov.set(VALUE_KEYS.batchTimeout, configValue(batchTimeoutValue(input.batchTimeout ?? DEFAULT_BATCH_TIMEOUT)));
  // Always present in configtxgen output; max_count 0 (no limit) encodes as an empty message.
  ov.set(VALUE_KEYS.channelRestrictions, configValue(new orderer.ChannelRestrictions()));
  ov.set(VALUE_KEYS.capabilities, configValue(capabilitiesValue(input.capabilities?.orderer ?? ["V2_0"])));
  if (c.type === "etcdraft") {
    const md = etcdRaftMetadata(c.consenters, { ...DEFAULT_ETCDRAFT_OPTIONS, ...c.options });
    ov.set(VALUE_KEYS.consensusType, configValue(consensusTypeValue("etcdraft", md.serializeBinary())));
  } else {
    const mapping = new common.Orderers();
    mapping.setConsenterMappingList(c.consenters.map(bftConsenterProto));
    ov.set(VALUE_KEYS.orderers, configValue(mapping));
    const opts = smartBftOptions({ ...DEFAULT_SMARTBFT_OPTIONS, ...c.options });
    ov.set(VALUE_KEYS.consensusType, configValue(consensusTypeValue("BFT", opts.serializeBinary())));
    const bv = ordererGroup.getPoliciesMap().get("BlockValidation");
    const cp = new common.ConfigPolicy();
    cp.setModPolicy(bv?.getModPolicy() ?? "Admins");
    cp.setPolicy(bftBlockValidationPolicy(c.consenters));
    ordererGroup.getPoliciesMap().set("BlockValidation", cp);
  }
  input.ordererOrgs.forEach((org, i) =>
    ordererGroup.getGroupsMap().set(org.msp.name, ordererOrgGroup(org, `ordererOrgs[${i}]`)),
  );

  const appGroup = newGroup();
  addPolicies(appGroup, { ...DEFAULT_APPLICATION_POLICIES, ...input.applicationPolicies }, "applicationPolicies");
  if (input.acls && Object.keys(input.acls).length > 0) {
    appGroup.getValuesMap().set(VALUE_KEYS.acls, configValue(aclsValue(input.acls)));
  }
  appGroup
    .getValuesMap()
    .set(VALUE_KEYS.capabilities, configValue(capabilitiesValue(input.capabilities?.application ?? ["V2_0"])));
  input.peerOrgs.forEach((org, i) => appGroup.getGroupsMap().set(org.msp.name, peerOrgGroup(org, `peerOrgs[${i}]`)));

  const channel = newGroup();
  addPolicies(channel, { ...DEFAULT_CHANNEL_POLICIES, ...input.channelPolicies }, "channelPolicies");
  const cv = channel.getValuesMap();
  const hashing = new common.HashingAlgorithm();
  hashing.setName("SHA256");
  cv.set(VALUE_KEYS.hashingAlgorithm, configValue(hashing));
  const bdhs = new common.BlockDataHashingStructure();
  bdhs.setWidth(0xffffffff);
  cv.set(VALUE_KEYS.blockDataHashingStructure, configValue(bdhs));
  cv.set(VALUE_KEYS.capabilities, configValue(capabilitiesValue(channelCaps)));
  channel.getGroupsMap().set(GROUP_KEYS.orderer, ordererGroup);
  channel.getGroupsMap().set(GROUP_KEYS.application, appGroup);

  const config = new common.Config();
  config.setSequence(0);
  config.setChannelGroup(channel);
  return config;
}
