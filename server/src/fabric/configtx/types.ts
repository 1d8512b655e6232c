import type { ChannelMspConfig } from "../msp/channel-msp.js";

/**
 * A policy as configtx.yaml writes it: `Signature` with a policy DSL rule
 * (`OR('Org1MSP.admin')`, `AND(...)`, `OutOf(2, ...)`) or `ImplicitMeta` with
 * `ANY|ALL|MAJORITY <SubPolicy>`.
 */
export interface PolicyInput {
  type: "Signature" | "ImplicitMeta";
  rule: string;
}

/** Policies by name (`Readers`, `Writers`, `Admins`, `Endorsement`, ...). */
export type PolicyMap = Record<string, PolicyInput>;

export interface HostPort {
  host: string;
  port: number;
}

/** An application (peer) organization in the channel. The group key is its MSP id. */
export interface PeerOrgInput {
  msp: ChannelMspConfig;
  anchorPeers?: HostPort[];
  /** Replaces the default org policies of the same name (others stay). */
  policies?: PolicyMap;
}

/** An orderer organization: MSP plus the endpoints (`host:port`) clients and peers use. */
export interface OrdererOrgInput {
  msp: ChannelMspConfig;
  ordererEndpoints: string[];
  policies?: PolicyMap;
}

/** An etcdraft consenter: the cluster endpoint and its TLS certs (PEM). */
export interface EtcdRaftConsenter extends HostPort {
  clientTlsCert: string;
  serverTlsCert: string;
}

/** etcdraft options; durations are Go duration strings ("500ms"). */
export interface EtcdRaftOptions {
  tickInterval: string;
  electionTick: number;
  heartbeatTick: number;
  maxInflightBlocks: number;
  /** Bytes. */
  snapshotIntervalSize: number;
}

/** A BFT consenter mapping entry (common.Consenter); identity and TLS certs are PEM. */
export interface BftConsenter extends HostPort {
  id: number;
  mspId: string;
  identity: string;
  clientTlsCert: string;
  serverTlsCert: string;
}

/** smartbft.Options (durations are Go duration strings). */
export interface SmartBftOptions {
  requestBatchMaxCount: number;
  requestBatchMaxBytes: number;
  requestBatchMaxInterval: string;
  incomingMessageBufferSize: number;
  requestPoolSize: number;
  requestForwardTimeout: string;
  requestComplainTimeout: string;
  requestAutoRemoveTimeout: string;
  requestMaxBytes: number;
  viewChangeResendInterval: string;
  viewChangeTimeout: string;
  leaderHeartbeatTimeout: string;
  leaderHeartbeatCount: number;
  collectTimeout: string;
  syncOnStart: boolean;
  speedUpViewChange: boolean;
  /** 0 unspecified, 1 off, 2 on. */
  leaderRotation: 0 | 1 | 2;
  decisionsPerLeader: number;
}

export type ConsensusInput =
  | { type: "etcdraft"; consenters: EtcdRaftConsenter[]; options?: Partial<EtcdRaftOptions> }
  | { type: "BFT"; consenters: BftConsenter[]; options?: Partial<SmartBftOptions> };

export interface BatchSize {
  maxMessageCount: number;
  absoluteMaxBytes: number;
  preferredMaxBytes: number;
}

export interface CapabilitiesInput {
  channel?: string[];
  orderer?: string[];
  application?: string[];
}

/** Everything that goes into an application channel's genesis config. */
export interface ChannelConfigInput {
  channelId: string;
  /** The Fabric version the orderers run ("3.1.0"); BFT needs 3.x. Unset: no version check. */
  fabricVersion?: string;
  peerOrgs: PeerOrgInput[];
  ordererOrgs: OrdererOrgInput[];
  consensus: ConsensusInput;
  batchSize?: Partial<BatchSize>;
  /** Go duration, default "2s". */
  batchTimeout?: string;
  /** Defaults: V2_0 everywhere, channel V3_0 for BFT. */
  capabilities?: CapabilitiesInput;
  channelPolicies?: PolicyMap;
  applicationPolicies?: PolicyMap;
  ordererPolicies?: PolicyMap;
  /** Application ACLs (resource → policy path). Unset: no ACLs value, so the peer's defaults apply. */
  acls?: Record<string, string>;
}
