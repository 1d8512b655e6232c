import { common, msp, orderer, peer } from "@hyperledger/fabric-protos";

/**
 * Channel config as JSON, in the shape `configtxlator proto_decode` prints (Fabric's
 * protolator): proto field names, uint64 as strings, bytes as base64, enums by name, every
 * field present, and each opaque `value`/`metadata`/`principal` decoded by its key. Keeping
 * that shape means our JSON diffs line up with what Fabric operators already know, and the
 * tests can compare it with the real tool byte for byte.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const b64 = (b: Uint8Array): string => Buffer.from(b).toString("base64");
/** Opaque bytes protolator decodes into a message: empty → null. */
const opaque = (b: Uint8Array, decode: (b: Uint8Array) => Json): Json => (b.length === 0 ? null : decode(b));
const enumName = (e: object, v: number): Json => Object.entries(e).find(([, n]) => n === v)?.[0] ?? v;

function mapToJson<V>(
  map: { forEach(cb: (v: V, k: string) => void): void },
  fn: (v: V, k: string) => Json,
): JsonObject {
  const out: JsonObject = {};
  const entries: [string, V][] = [];
  map.forEach((v, k) => entries.push([k, v]));
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [k, v] of entries) out[k] = fn(v, k);
  return out;
}

function ouIdentifierJson(o: msp.FabricOUIdentifier | undefined): Json {
  if (!o) return null;
  return {
    certificate: b64(o.getCertificate_asU8()),
    organizational_unit_identifier: o.getOrganizationalUnitIdentifier(),
  };
}

function fabricMspJson(b: Uint8Array): Json {
  const f = msp.FabricMSPConfig.deserializeBinary(b);
  const cc = f.getCryptoConfig();
  const n = f.getFabricNodeOus();
  const si = f.getSigningIdentity();
  return {
    admins: f.getAdminsList_asU8().map(b64),
    crypto_config: cc
      ? {
          identity_identifier_hash_function: cc.getIdentityIdentifierHashFunction(),
          signature_hash_family: cc.getSignatureHashFamily(),
        }
      : null,
    fabric_node_ous: n
      ? {
          admin_ou_identifier: ouIdentifierJson(n.getAdminOuIdentifier()),
          client_ou_identifier: ouIdentifierJson(n.getClientOuIdentifier()),
          enable: n.getEnable(),
          orderer_ou_identifier: ouIdentifierJson(n.getOrdererOuIdentifier()),
          peer_ou_identifier: ouIdentifierJson(n.getPeerOuIdentifier()),
        }
      : null,
    intermediate_certs: f.getIntermediateCertsList_asU8().map(b64),
    name: f.getName(),
    organizational_unit_identifiers: f.getOrganizationalUnitIdentifiersList().map(ouIdentifierJson),
    revocation_list: f.getRevocationListList_asU8().map(b64),
    root_certs: f.getRootCertsList_asU8().map(b64),
    signing_identity: si
      ? {
          private_signer: si.getPrivateSigner()
            ? {
                key_identifier: si.getPrivateSigner()?.getKeyIdentifier() ?? "",
                key_material: b64(si.getPrivateSigner()?.getKeyMaterial_asU8() ?? new Uint8Array()),
              }
            : null,
          public_signer: b64(si.getPublicSigner_asU8()),
        }
      : null,
    tls_intermediate_certs: f.getTlsIntermediateCertsList_asU8().map(b64),
    tls_root_certs: f.getTlsRootCertsList_asU8().map(b64),
  };
}

function mspConfigJson(b: Uint8Array): Json {
  const m = msp.MSPConfig.deserializeBinary(b);
  return {
    config: m.getType() === 0 ? opaque(m.getConfig_asU8(), fabricMspJson) : b64(m.getConfig_asU8()),
    type: m.getType(),
  };
}

/** A SerializedIdentity: mspid plus the PEM bytes (base64, as protolator prints them). */
export function serializedIdentityJson(b: Uint8Array): Json {
  const id = msp.SerializedIdentity.deserializeBinary(b);
  return { id_bytes: b64(id.getIdBytes_asU8()), mspid: id.getMspid() };
}

function principalJson(p: msp.MSPPrincipal): Json {
  const cls = p.getPrincipalClassification();
  const raw = p.getPrincipal_asU8();
  let principal: Json;
  if (cls === msp.MSPPrincipal.Classification.ROLE) {
    principal = opaque(raw, (x) => {
      const r = msp.MSPRole.deserializeBinary(x);
      return { msp_identifier: r.getMspIdentifier(), role: enumName(msp.MSPRole.MSPRoleType, r.getRole()) };
    });
  } else if (cls === msp.MSPPrincipal.Classification.IDENTITY) {
    principal = opaque(raw, serializedIdentityJson);
  } else if (cls === msp.MSPPrincipal.Classification.ORGANIZATION_UNIT) {
    principal = opaque(raw, (x) => {
      const o = msp.OrganizationUnit.deserializeBinary(x);
      return {
        certifiers_identifier: b64(o.getCertifiersIdentifier_asU8()),
        msp_identifier: o.getMspIdentifier(),
        organizational_unit_identifier: o.getOrganizationalUnitIdentifier(),
      };
    });
  } else principal = b64(raw);
  return { principal, principal_classification: enumName(msp.MSPPrincipal.Classification, cls) };
}

function signaturePolicyJson(sp: common.SignaturePolicy): Json {
  if (sp.hasNOutOf()) {
    const n = sp.getNOutOf() as common.SignaturePolicy.NOutOf;
    return { n_out_of: { n: n.getN(), rules: n.getRulesList().map(signaturePolicyJson) } };
  }
  return { signed_by: sp.getSignedBy() };
}

function policyJson(p: common.Policy | undefined): Json {
  if (!p) return null;
  const raw = p.getValue_asU8();
  let value: Json;
  if (p.getType() === common.Policy.PolicyType.SIGNATURE) {
    value = opaque(raw, (x) => {
      const e = common.SignaturePolicyEnvelope.deserializeBinary(x);
      const rule = e.getRule();
      return {
        identities: e.getIdentitiesList().map(principalJson),
        rule: rule ? signaturePolicyJson(rule) : null,
        version: e.getVersion(),
      };
    });
  } else if (p.getType() === common.Policy.PolicyType.IMPLICIT_META) {
    value = opaque(raw, (x) => {
      const i = common.ImplicitMetaPolicy.deserializeBinary(x);
      return { rule: enumName(common.ImplicitMetaPolicy.Rule, i.getRule()), sub_policy: i.getSubPolicy() };
    });
  } else value = b64(raw);
  return { type: p.getType(), value };
}

type Scope = "channel" | "orderer" | "orderer-org" | "application" | "application-org" | "unknown";

function consensusJson(b: Uint8Array): Json {
  const c = orderer.ConsensusType.deserializeBinary(b);
  const md = c.getMetadata_asU8();
  let metadata: Json;
  if (c.getType() === "etcdraft") {
    metadata = opaque(md, (x) => {
      const m = orderer.etcdraft.ConfigMetadata.deserializeBinary(x);
      const o = m.getOptions();
      return {
        consenters: m.getConsentersList().map((k) => ({
          client_tls_cert: b64(k.getClientTlsCert_asU8()),
          host: k.getHost(),
          port: k.getPort(),
          server_tls_cert: b64(k.getServerTlsCert_asU8()),
        })),
        options: o
          ? {
              election_tick: o.getElectionTick(),
              heartbeat_tick: o.getHeartbeatTick(),
              max_inflight_blocks: o.getMaxInflightBlocks(),
              snapshot_interval_size: o.getSnapshotIntervalSize(),
              tick_interval: o.getTickInterval(),
            }
          : null,
      };
    });
  } else if (c.getType() === "BFT") {
    metadata = opaque(md, (x) => {
      const o = orderer.smartbft.Options.deserializeBinary(x);
      return {
        collect_timeout: o.getCollectTimeout(),
        decisions_per_leader: String(o.getDecisionsPerLeader()),
        incoming_message_buffer_size: String(o.getIncomingMessageBufferSize()),
        leader_heartbeat_count: String(o.getLeaderHeartbeatCount()),
        leader_heartbeat_timeout: o.getLeaderHeartbeatTimeout(),
        leader_rotation: enumName(orderer.smartbft.Options.Rotation, o.getLeaderRotation()),
        request_auto_remove_timeout: o.getRequestAutoRemoveTimeout(),
        request_batch_max_bytes: String(o.getRequestBatchMaxBytes()),
        request_batch_max_count: String(o.getRequestBatchMaxCount()),
        request_batch_max_interval: o.getRequestBatchMaxInterval(),
        request_complain_timeout: o.getRequestComplainTimeout(),
        request_forward_timeout: o.getRequestForwardTimeout(),
        request_max_bytes: String(o.getRequestMaxBytes()),
        request_pool_size: String(o.getRequestPoolSize()),
        speed_up_view_change: o.getSpeedUpViewChange(),
        sync_on_start: o.getSyncOnStart(),
        view_change_resend_interval: o.getViewChangeResendInterval(),
        view_change_timeout: o.getViewChangeTimeout(),
      };
    });
  } else metadata = md.length === 0 ? null : b64(md);
  return { metadata, state: enumName(orderer.ConsensusType.State, c.getState()), type: c.getType() };
}

const capabilitiesJson = (b: Uint8Array): Json => ({
  capabilities: mapToJson(common.Capabilities.deserializeBinary(b).getCapabilitiesMap(), () => ({})),
});

/** Decodes a config value by its key and the group it sits in, as protolator does. */
function valueContentJson(key: string, scope: Scope, b: Uint8Array): Json {
  switch (key) {
    case "Capabilities":
      return opaque(b, capabilitiesJson);
    case "MSP":
      return opaque(b, mspConfigJson);
    case "HashingAlgorithm":
      return opaque(b, (x) => ({ name: common.HashingAlgorithm.deserializeBinary(x).getName() }));
    case "BlockDataHashingStructure":
      return opaque(b, (x) => ({ width: common.BlockDataHashingStructure.deserializeBinary(x).getWidth() }));
    case "OrdererAddresses":
    case "Endpoints":
      return opaque(b, (x) => ({ addresses: common.OrdererAddresses.deserializeBinary(x).getAddressesList() }));
    case "Consortium":
      return opaque(b, (x) => ({ name: common.Consortium.deserializeBinary(x).getName() }));
    case "BatchSize":
      return opaque(b, (x) => {
        const v = orderer.BatchSize.deserializeBinary(x);
        return {
          absolute_max_bytes: v.getAbsoluteMaxBytes(),
          max_message_count: v.getMaxMessageCount(),
          preferred_max_bytes: v.getPreferredMaxBytes(),
        };
      });
    case "BatchTimeout":
      return opaque(b, (x) => ({ timeout: orderer.BatchTimeout.deserializeBinary(x).getTimeout() }));
    case "ChannelRestrictions":
      return opaque(b, (x) => ({ max_count: String(orderer.ChannelRestrictions.deserializeBinary(x).getMaxCount()) }));
    case "ConsensusType":
      return opaque(b, consensusJson);
    case "Orderers":
      return opaque(b, (x) => ({
        consenter_mapping: common.Orderers.deserializeBinary(x)
          .getConsenterMappingList()
          .map((c) => ({
            client_tls_cert: b64(c.getClientTlsCert_asU8()),
            host: c.getHost(),
            id: c.getId(),
            identity: b64(c.getIdentity_asU8()),
            msp_id: c.getMspId(),
            port: c.getPort(),
            server_tls_cert: b64(c.getServerTlsCert_asU8()),
          })),
      }));
    case "AnchorPeers":
      return opaque(b, (x) => ({
        anchor_peers: peer.AnchorPeers.deserializeBinary(x)
          .getAnchorPeersList()
          .map((a) => ({ host: a.getHost(), port: a.getPort() })),
      }));
    case "ACLs":
      return opaque(b, (x) => ({
        acls: mapToJson<peer.APIResource>(peer.ACLs.deserializeBinary(x).getAclsMap(), (r) => ({
          policy_ref: r.getPolicyRef(),
        })),
      }));
    default:
      void scope;
      return b.length === 0 ? null : b64(b);
  }
}

function childScope(parent: Scope, key: string): Scope {
  if (parent === "channel") return key === "Orderer" ? "orderer" : key === "Application" ? "application" : "unknown";
  if (parent === "orderer") return "orderer-org";
  if (parent === "application") return "application-org";
  return "unknown";
}

/** One ConfigGroup (and its subtree) as protolator JSON. `scope` is where it sits in the tree. */
export function configGroupToJson(g: common.ConfigGroup, scope: Scope = "channel"): JsonObject {
  return {
    groups: mapToJson<common.ConfigGroup>(g.getGroupsMap(), (child, k) =>
      configGroupToJson(child, childScope(scope, k)),
    ),
    mod_policy: g.getModPolicy(),
    policies: mapToJson<common.ConfigPolicy>(g.getPoliciesMap(), (p) => ({
      mod_policy: p.getModPolicy(),
      policy: policyJson(p.getPolicy()),
      version: String(p.getVersion()),
    })),
    values: mapToJson<common.ConfigValue>(g.getValuesMap(), (v, k) => ({
      mod_policy: v.getModPolicy(),
      value: valueContentJson(k, scope, v.getValue_asU8()),
      version: String(v.getVersion()),
    })),
    version: String(g.getVersion()),
  };
}

/** A channel config (common.Config) as `configtxlator proto_decode --type common.Config` prints it. */
export function configToJson(config: common.Config): JsonObject {
  const g = config.getChannelGroup();
  return { channel_group: g ? configGroupToJson(g, "channel") : null, sequence: String(config.getSequence()) };
}

/** A ConfigUpdate (read set, write set) as `configtxlator proto_decode --type common.ConfigUpdate` prints it. */
export function configUpdateToJson(update: common.ConfigUpdate): JsonObject {
  const rs = update.getReadSet();
  const ws = update.getWriteSet();
  return {
    channel_id: update.getChannelId(),
    isolated_data: mapToJson(update.getIsolatedDataMap(), (v: Uint8Array | string) =>
      b64(typeof v === "string" ? Buffer.from(v, "base64") : v),
    ),
    read_set: rs ? configGroupToJson(rs, "channel") : null,
    write_set: ws ? configGroupToJson(ws, "channel") : null,
  };
}
