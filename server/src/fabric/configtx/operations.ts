import { common, msp as mspProtos, orderer } from "@hyperledger/fabric-protos";
import type { ChannelMspConfig } from "../msp/channel-msp.js";
import { GROUP_KEYS, ordererOrgGroup, peerOrgGroup } from "./channel-config.js";
import { ConfigtxInputError } from "./errors.js";
import type {
  BatchSize,
  BftConsenter,
  EtcdRaftConsenter,
  EtcdRaftOptions,
  HostPort,
  OrdererOrgInput,
  PeerOrgInput,
} from "./types.js";
import { assertDuration } from "./validate.js";
import {
  anchorPeersValue,
  batchSizeValue,
  batchTimeoutValue,
  bftBlockValidationPolicy,
  bftConsenterProto,
  configValue,
  endpointsValue,
  mspValue,
  pemBytes,
  VALUE_KEYS,
} from "./values.js";

/**
 * Config edits: each takes a channel config and returns an edited deep copy, ready for
 * computeConfigUpdate(original, edited). The input is never mutated.
 */

/** A deep copy of a config. */
export function cloneConfig(config: common.Config): common.Config {
  return common.Config.deserializeBinary(config.serializeBinary());
}

function channelGroup(config: common.Config): common.ConfigGroup {
  const g = config.getChannelGroup();
  if (!g) throw new ConfigtxInputError("config", "the config has no channel group");
  return g;
}

function subGroup(config: common.Config, key: "Application" | "Orderer"): common.ConfigGroup {
  const g = channelGroup(config).getGroupsMap().get(key);
  if (!g) throw new ConfigtxInputError("config", `the channel has no ${key} group`);
  return g;
}

function orgGroup(config: common.Config, key: "Application" | "Orderer", mspId: string): common.ConfigGroup {
  const g = subGroup(config, key).getGroupsMap().get(mspId);
  if (!g) throw new ConfigtxInputError("mspId", `organization ${mspId} is not in the channel's ${key} group`);
  return g;
}

/** Replaces a value's content, keeping its mod_policy. */
function setValue(group: common.ConfigGroup, key: string, msg: { serializeBinary(): Uint8Array }): void {
  const old = group.getValuesMap().get(key);
  group.getValuesMap().set(key, configValue(msg, old?.getModPolicy() || "Admins"));
}

function edit(config: common.Config, fn: (c: common.Config) => void): common.Config {
  const c = cloneConfig(config);
  fn(c);
  return c;
}

export function addApplicationOrg(config: common.Config, org: PeerOrgInput): common.Config {
  return edit(config, (c) => {
    const app = subGroup(c, GROUP_KEYS.application);
    if (app.getGroupsMap().has(org.msp.name)) {
      throw new ConfigtxInputError("msp.name", `organization ${org.msp.name} is already in the channel`);
    }
    app.getGroupsMap().set(org.msp.name, peerOrgGroup(org));
  });
}

export function removeApplicationOrg(config: common.Config, mspId: string): common.Config {
  return edit(config, (c) => {
    orgGroup(c, GROUP_KEYS.application, mspId);
    subGroup(c, GROUP_KEYS.application).getGroupsMap().del(mspId);
  });
}

export function addOrdererOrg(config: common.Config, org: OrdererOrgInput): common.Config {
  return edit(config, (c) => {
    const ord = subGroup(c, GROUP_KEYS.orderer);
    if (ord.getGroupsMap().has(org.msp.name)) {
      throw new ConfigtxInputError("msp.name", `orderer organization ${org.msp.name} is already in the channel`);
    }
    ord.getGroupsMap().set(org.msp.name, ordererOrgGroup(org));
  });
}

export function removeOrdererOrg(config: common.Config, mspId: string): common.Config {
  return edit(config, (c) => {
    orgGroup(c, GROUP_KEYS.orderer, mspId);
    subGroup(c, GROUP_KEYS.orderer).getGroupsMap().del(mspId);
  });
}

/** Sets (or with an empty list removes) an application org's anchor peers. */
export function setAnchorPeers(config: common.Config, mspId: string, anchors: HostPort[]): common.Config {
  return edit(config, (c) => {
    const g = orgGroup(c, GROUP_KEYS.application, mspId);
    if (anchors.length === 0) g.getValuesMap().del(VALUE_KEYS.anchorPeers);
    else setValue(g, VALUE_KEYS.anchorPeers, anchorPeersValue(anchors));
  });
}

/** Sets an orderer org's endpoints. */
export function setOrdererEndpoints(config: common.Config, mspId: string, endpoints: string[]): common.Config {
  return edit(config, (c) =>
    setValue(orgGroup(c, GROUP_KEYS.orderer, mspId), VALUE_KEYS.endpoints, endpointsValue(endpoints)),
  );
}

/**
 * Replaces an org's MSP (root/intermediate/TLS certs, CRLs) in every group it belongs to
 * (application and/or orderer).
 */
export function updateOrgMsp(config: common.Config, mspId: string, msp: ChannelMspConfig): common.Config {
  if (msp.name !== mspId) throw new ConfigtxInputError("msp.name", `the MSP is named ${msp.name}, not ${mspId}`);
  return edit(config, (c) => {
    let found = false;
    for (const key of [GROUP_KEYS.application, GROUP_KEYS.orderer] as const) {
      const g = channelGroup(c).getGroupsMap().get(key)?.getGroupsMap().get(mspId);
      if (!g) continue;
      found = true;
      setValue(g, VALUE_KEYS.msp, mspValue(msp));
    }
    if (!found) throw new ConfigtxInputError("mspId", `organization ${mspId} is not in the channel`);
  });
}

/** Replaces the revocation list of an org's channel MSP with these PEM CRLs (publishing a CRL). */
export function setOrgCrls(config: common.Config, mspId: string, crlPems: string[]): common.Config {
  return edit(config, (c) => {
    let found = false;
    for (const key of [GROUP_KEYS.application, GROUP_KEYS.orderer] as const) {
      const g = channelGroup(c).getGroupsMap().get(key)?.getGroupsMap().get(mspId);
      const v = g?.getValuesMap().get(VALUE_KEYS.msp);
      if (!g || !v) continue;
      found = true;
      const m = mspProtos.MSPConfig.deserializeBinary(v.getValue_asU8());
      const f = mspProtos.FabricMSPConfig.deserializeBinary(m.getConfig_asU8());
      f.setRevocationListList(crlPems.map(pemBytes));
      m.setConfig(f.serializeBinary());
      setValue(g, VALUE_KEYS.msp, m);
    }
    if (!found) throw new ConfigtxInputError("mspId", `organization ${mspId} is not in the channel`);
  });
}

function readOrdererValue<T>(c: common.Config, key: string, decode: (b: Uint8Array) => T): T {
  const v = subGroup(c, GROUP_KEYS.orderer).getValuesMap().get(key);
  if (!v) throw new ConfigtxInputError("config", `the Orderer group has no ${key} value`);
  return decode(v.getValue_asU8());
}

export function setBatchSize(config: common.Config, size: Partial<BatchSize>): common.Config {
  return edit(config, (c) => {
    const cur = readOrdererValue(c, VALUE_KEYS.batchSize, (b) => orderer.BatchSize.deserializeBinary(b));
    const next: BatchSize = {
      maxMessageCount: size.maxMessageCount ?? cur.getMaxMessageCount(),
      absoluteMaxBytes: size.absoluteMaxBytes ?? cur.getAbsoluteMaxBytes(),
      preferredMaxBytes: size.preferredMaxBytes ?? cur.getPreferredMaxBytes(),
    };
    for (const [k, v] of Object.entries(next)) {
      if (!Number.isInteger(v) || v < 1)
        throw new ConfigtxInputError(`batchSize.${k}`, `batchSize.${k} must be a positive integer`);
    }
    if (next.preferredMaxBytes > next.absoluteMaxBytes) {
      throw new ConfigtxInputError("batchSize.preferredMaxBytes", "preferredMaxBytes can't exceed absoluteMaxBytes");
    }
    setValue(subGroup(c, GROUP_KEYS.orderer), VALUE_KEYS.batchSize, batchSizeValue(next));
  });
}

export function setBatchTimeout(config: common.Config, timeout: string): common.Config {
  assertDuration(timeout, "batchTimeout");
  return edit(config, (c) =>
    setValue(subGroup(c, GROUP_KEYS.orderer), VALUE_KEYS.batchTimeout, batchTimeoutValue(timeout)),
  );
}

function consensus(c: common.Config): orderer.ConsensusType {
  return readOrdererValue(c, VALUE_KEYS.consensusType, (b) => orderer.ConsensusType.deserializeBinary(b));
}

function editRaft(config: common.Config, fn: (md: orderer.etcdraft.ConfigMetadata) => void): common.Config {
  return edit(config, (c) => {
    const ct = consensus(c);
    if (ct.getType() !== "etcdraft")
      throw new ConfigtxInputError("consensus.type", `the channel runs ${ct.getType()}, not etcdraft`);
    const md = orderer.etcdraft.ConfigMetadata.deserializeBinary(ct.getMetadata_asU8());
    fn(md);
    ct.setMetadata(md.serializeBinary());
    setValue(subGroup(c, GROUP_KEYS.orderer), VALUE_KEYS.consensusType, ct);
  });
}

export function setEtcdRaftOptions(config: common.Config, options: Partial<EtcdRaftOptions>): common.Config {
  if (options.tickInterval !== undefined) assertDuration(options.tickInterval, "options.tickInterval");
  return editRaft(config, (md) => {
    const o = md.getOptions() ?? new orderer.etcdraft.Options();
    if (options.tickInterval !== undefined) o.setTickInterval(options.tickInterval);
    if (options.electionTick !== undefined) o.setElectionTick(options.electionTick);
    if (options.heartbeatTick !== undefined) o.setHeartbeatTick(options.heartbeatTick);
    if (options.maxInflightBlocks !== undefined) o.setMaxInflightBlocks(options.maxInflightBlocks);
    if (options.snapshotIntervalSize !== undefined) o.setSnapshotIntervalSize(options.snapshotIntervalSize);
    md.setOptions(o);
  });
}

const raftProto = (k: EtcdRaftConsenter): orderer.etcdraft.Consenter => {
  const p = new orderer.etcdraft.Consenter();
  p.setHost(k.host);
  p.setPort(k.port);
  p.setClientTlsCert(pemBytes(k.clientTlsCert));
  p.setServerTlsCert(pemBytes(k.serverTlsCert));
  return p;
};

/** Adds an etcdraft consenter. */
export function addRaftConsenter(config: common.Config, consenter: EtcdRaftConsenter): common.Config {
  return editRaft(config, (md) => {
    if (md.getConsentersList().some((k) => k.getHost() === consenter.host && k.getPort() === consenter.port)) {
      throw new ConfigtxInputError(
        "consenter",
        `consenter ${consenter.host}:${consenter.port} is already in the channel`,
      );
    }
    md.addConsenters(raftProto(consenter));
  });
}

/** Removes the etcdraft consenter at host:port. */
export function removeRaftConsenter(config: common.Config, target: HostPort): common.Config {
  return editRaft(config, (md) => {
    const list = md.getConsentersList();
    const rest = list.filter((k) => !(k.getHost() === target.host && k.getPort() === target.port));
    if (rest.length === list.length)
      throw new ConfigtxInputError("consenter", `no consenter ${target.host}:${target.port}`);
    if (rest.length === 0) throw new ConfigtxInputError("consenter", "the last consenter can't be removed");
    md.setConsentersList(rest);
  });
}

/** Replaces the etcdraft consenter at host:port (e.g. new TLS certs, or a new address). */
export function updateRaftConsenter(
  config: common.Config,
  target: HostPort,
  consenter: EtcdRaftConsenter,
): common.Config {
  return editRaft(config, (md) => {
    const list = md.getConsentersList();
    const i = list.findIndex((k) => k.getHost() === target.host && k.getPort() === target.port);
    if (i < 0) throw new ConfigtxInputError("consenter", `no consenter ${target.host}:${target.port}`);
    list[i] = raftProto(consenter);
    md.setConsentersList(list);
  });
}

/**
 * Replaces the BFT consenter mapping (add, remove or update consenters), and re-derives the
 * BlockValidation policy from it as configtxgen does.
 */
export function setBftConsenters(config: common.Config, consenters: BftConsenter[]): common.Config {
  if (consenters.length === 0) throw new ConfigtxInputError("consenters", "at least one consenter is needed");
  return edit(config, (c) => {
    if (consensus(c).getType() !== "BFT")
      throw new ConfigtxInputError("consensus.type", "the channel does not run BFT");
    const ord = subGroup(c, GROUP_KEYS.orderer);
    const mapping = new common.Orderers();
    mapping.setConsenterMappingList(consenters.map(bftConsenterProto));
    setValue(ord, VALUE_KEYS.orderers, mapping);
    const cp = new common.ConfigPolicy();
    cp.setModPolicy(ord.getPoliciesMap().get("BlockValidation")?.getModPolicy() || "Admins");
    cp.setPolicy(bftBlockValidationPolicy(consenters));
    ord.getPoliciesMap().set("BlockValidation", cp);
  });
}
