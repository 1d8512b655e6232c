import { common, msp, orderer, peer } from "@hyperledger/fabric-protos";
import type { ChannelMspConfig, FabricOuIdentifier } from "../msp/channel-msp.js";
import type {
  BatchSize,
  BftConsenter,
  EtcdRaftConsenter,
  EtcdRaftOptions,
  HostPort,
  SmartBftOptions,
} from "./types.js";

/** Config value keys, as channelconfig names them. */
export const VALUE_KEYS = {
  msp: "MSP",
  anchorPeers: "AnchorPeers",
  endpoints: "Endpoints",
  batchSize: "BatchSize",
  batchTimeout: "BatchTimeout",
  channelRestrictions: "ChannelRestrictions",
  capabilities: "Capabilities",
  consensusType: "ConsensusType",
  hashingAlgorithm: "HashingAlgorithm",
  blockDataHashingStructure: "BlockDataHashingStructure",
  orderers: "Orderers",
  ordererAddresses: "OrdererAddresses",
  acls: "ACLs",
} as const;

/** PEM text as the bytes Fabric stores: configtxgen reads files, which end in a newline. */
export function pemBytes(pem: string): Uint8Array {
  return Buffer.from(pem.endsWith("\n") ? pem : `${pem}\n`, "utf8");
}

interface Serializable {
  serializeBinary(): Uint8Array;
}

/** A ConfigValue holding `msg`, modifiable by `modPolicy` (default Admins). */
export function configValue(msg: Serializable, modPolicy = "Admins"): common.ConfigValue {
  const v = new common.ConfigValue();
  v.setValue(msg.serializeBinary());
  v.setModPolicy(modPolicy);
  return v;
}

/** An empty ConfigGroup with the given mod_policy. */
export function newGroup(modPolicy = "Admins"): common.ConfigGroup {
  const g = new common.ConfigGroup();
  g.setModPolicy(modPolicy);
  return g;
}

function ouIdentifier(ou: FabricOuIdentifier): msp.FabricOUIdentifier {
  const id = new msp.FabricOUIdentifier();
  id.setCertificate(pemBytes(ou.certificate));
  id.setOrganizationalUnitIdentifier(ou.organizationalUnitIdentifier);
  return id;
}

/** msp.MSPConfig (type FABRIC) wrapping the org's FabricMSPConfig. */
export function mspValue(m: ChannelMspConfig): msp.MSPConfig {
  const f = new msp.FabricMSPConfig();
  f.setName(m.name);
  f.setRootCertsList(m.rootCerts.map(pemBytes));
  f.setIntermediateCertsList(m.intermediateCerts.map(pemBytes));
  f.setAdminsList(m.admins.map(pemBytes));
  f.setRevocationListList(m.revocationList.map(pemBytes));
  f.setOrganizationalUnitIdentifiersList(m.organizationalUnitIdentifiers.map(ouIdentifier));
  const cc = new msp.FabricCryptoConfig();
  cc.setSignatureHashFamily(m.cryptoConfig.signatureHashFamily);
  cc.setIdentityIdentifierHashFunction(m.cryptoConfig.identityIdentifierHashFunction);
  f.setCryptoConfig(cc);
  f.setTlsRootCertsList(m.tlsRootCerts.map(pemBytes));
  f.setTlsIntermediateCertsList(m.tlsIntermediateCerts.map(pemBytes));
  const n = m.fabricNodeOus;
  const ous = new msp.FabricNodeOUs();
  ous.setEnable(n.enable);
  ous.setClientOuIdentifier(ouIdentifier(n.clientOuIdentifier));
  ous.setPeerOuIdentifier(ouIdentifier(n.peerOuIdentifier));
  ous.setAdminOuIdentifier(ouIdentifier(n.adminOuIdentifier));
  ous.setOrdererOuIdentifier(ouIdentifier(n.ordererOuIdentifier));
  f.setFabricNodeOus(ous);
  const config = new msp.MSPConfig();
  config.setType(0);
  config.setConfig(f.serializeBinary());
  return config;
}

export function anchorPeersValue(anchors: HostPort[]): peer.AnchorPeers {
  const v = new peer.AnchorPeers();
  v.setAnchorPeersList(
    anchors.map((a) => {
      const p = new peer.AnchorPeer();
      p.setHost(a.host);
      p.setPort(a.port);
      return p;
    }),
  );
  return v;
}

export function endpointsValue(addresses: string[]): common.OrdererAddresses {
  const v = new common.OrdererAddresses();
  v.setAddressesList(addresses);
  return v;
}

export function batchSizeValue(b: BatchSize): orderer.BatchSize {
  const v = new orderer.BatchSize();
  v.setMaxMessageCount(b.maxMessageCount);
  v.setAbsoluteMaxBytes(b.absoluteMaxBytes);
  v.setPreferredMaxBytes(b.preferredMaxBytes);
  return v;
}

export function batchTimeoutValue(timeout: string): orderer.BatchTimeout {
  const v = new orderer.BatchTimeout();
  v.setTimeout(timeout);
  return v;
}

export function capabilitiesValue(names: string[]): common.Capabilities {
  const v = new common.Capabilities();
  for (const n of names) v.getCapabilitiesMap().set(n, new common.Capability());
  return v;
}

export function etcdRaftMetadata(consenters: EtcdRaftConsenter[], o: EtcdRaftOptions): orderer.etcdraft.ConfigMetadata {
  const md = new orderer.etcdraft.ConfigMetadata();
  md.setConsentersList(
    consenters.map((c) => {
      const p = new orderer.etcdraft.Consenter();
      p.setHost(c.host);
      p.setPort(c.port);
      p.setClientTlsCert(pemBytes(c.clientTlsCert));
      p.setServerTlsCert(pemBytes(c.serverTlsCert));
      return p;
    }),
  );
  const opts = new orderer.etcdraft.Options();
  opts.setTickInterval(o.tickInterval);
  opts.setElectionTick(o.electionTick);
  opts.setHeartbeatTick(o.heartbeatTick);
  opts.setMaxInflightBlocks(o.maxInflightBlocks);
  opts.setSnapshotIntervalSize(o.snapshotIntervalSize);
  md.setOptions(opts);
  return md;
}

export function smartBftOptions(o: SmartBftOptions): orderer.smartbft.Options {
  const v = new orderer.smartbft.Options();
  v.setRequestBatchMaxCount(o.requestBatchMaxCount);
  v.setRequestBatchMaxBytes(o.requestBatchMaxBytes);
  v.setRequestBatchMaxInterval(o.requestBatchMaxInterval);
  v.setIncomingMessageBufferSize(o.incomingMessageBufferSize);
  v.setRequestPoolSize(o.requestPoolSize);
  v.setRequestForwardTimeout(o.requestForwardTimeout);
  v.setRequestComplainTimeout(o.requestComplainTimeout);
  v.setRequestAutoRemoveTimeout(o.requestAutoRemoveTimeout);
  v.setRequestMaxBytes(o.requestMaxBytes);
  v.setViewChangeResendInterval(o.viewChangeResendInterval);
  v.setViewChangeTimeout(o.viewChangeTimeout);
  v.setLeaderHeartbeatTimeout(o.leaderHeartbeatTimeout);
  v.setLeaderHeartbeatCount(o.leaderHeartbeatCount);
  v.setCollectTimeout(o.collectTimeout);
  v.setSyncOnStart(o.syncOnStart);
  v.setSpeedUpViewChange(o.speedUpViewChange);
  v.setLeaderRotation(o.leaderRotation);
  v.setDecisionsPerLeader(o.decisionsPerLeader);
  return v;
}

export function bftConsenterProto(c: BftConsenter): common.Consenter {
  const p = new common.Consenter();
  p.setId(c.id);
  p.setHost(c.host);
  p.setPort(c.port);
  p.setMspId(c.mspId);
  p.setIdentity(pemBytes(c.identity));
  p.setClientTlsCert(pemBytes(c.clientTlsCert));
  p.setServerTlsCert(pemBytes(c.serverTlsCert));
  return p;
}

export function consensusTypeValue(type: string, metadata: Uint8Array): orderer.ConsensusType {
  const v = new orderer.ConsensusType();
  v.setType(type);
  v.setMetadata(metadata);
  return v;
}

/**
 * The BFT BlockValidation policy as configtxgen derives it (policies.EncodeBFTBlockVerificationPolicy):
 * a quorum of ceil((n+f+1)/2) consenter identities, f = floor((n-1)/3).
 */
export function bftBlockValidationPolicy(consenters: BftConsenter[]): common.Policy {
  const n = consenters.length;
  const f = Math.floor((n - 1) / 3);
  const quorum = Math.ceil((n + f + 1) / 2);
  const env = new common.SignaturePolicyEnvelope();
  env.setVersion(0);
  const rules: common.SignaturePolicy[] = [];
  const identities: msp.MSPPrincipal[] = [];
  consenters.forEach((c, i) => {
    const r = new common.SignaturePolicy();
    r.setSignedBy(i);
    rules.push(r);
    const id = new msp.SerializedIdentity();
    id.setMspid(c.mspId);
    id.setIdBytes(pemBytes(c.identity));
    const p = new msp.MSPPrincipal();
    p.setPrincipalClassification(msp.MSPPrincipal.Classification.IDENTITY);
    p.setPrincipal(id.serializeBinary());
    identities.push(p);
  });
  const nOutOf = new common.SignaturePolicy.NOutOf();
  nOutOf.setN(quorum);
  nOutOf.setRulesList(rules);
  const rule = new common.SignaturePolicy();
  rule.setNOutOf(nOutOf);
  env.setRule(rule);
  env.setIdentitiesList(identities);
  const policy = new common.Policy();
  policy.setType(common.Policy.PolicyType.SIGNATURE);
  policy.setValue(env.serializeBinary());
  return policy;
}

export function aclsValue(acls: Record<string, string>): peer.ACLs {
  const v = new peer.ACLs();
  for (const [resource, policyRef] of Object.entries(acls)) {
    const r = new peer.APIResource();
    r.setPolicyRef(policyRef);
    v.getAclsMap().set(resource, r);
  }
  return v;
}
