import { common } from "@hyperledger/fabric-protos";
import type { SigningIdentity } from "../identity.js";
import { ConfigtxInputError } from "./errors.js";
import { channelHeader, computeTxId, signatureHeader } from "./genesis.js";

type GroupDelta = { readSet: common.ConfigGroup; writeSet: common.ConfigGroup; updated: boolean };

const bytesEqual = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));
const policyBytes = (p: common.Policy | undefined): Uint8Array => p?.serializeBinary() ?? new Uint8Array();

function entries<V>(map: { forEach(cb: (v: V, k: string) => void): void }): Map<string, V> {
  const out = new Map<string, V>();
  map.forEach((v, k) => out.set(k, v));
  return out;
}

function groupWith(
  version: number,
  parts: {
    policies: Map<string, common.ConfigPolicy>;
    values: Map<string, common.ConfigValue>;
    groups: Map<string, common.ConfigGroup>;
  },
  modPolicy = "",
): common.ConfigGroup {
  const g = new common.ConfigGroup();
  g.setVersion(version);
  g.setModPolicy(modPolicy);
  parts.policies.forEach((v, k) => g.getPoliciesMap().set(k, v));
  parts.values.forEach((v, k) => g.getValuesMap().set(k, v));
  parts.groups.forEach((v, k) => g.getGroupsMap().set(k, v));
  return g;
}

/** Same algorithm as Fabric's configtxlator update.Compute (internal/configtxlator/update). */
function computeGroupUpdate(original: common.ConfigGroup, updated: common.ConfigGroup): GroupDelta {
  const rs = {
    policies: new Map<string, common.ConfigPolicy>(),
    values: new Map<string, common.ConfigValue>(),
    groups: new Map<string, common.ConfigGroup>(),
  };
  const ws = {
    policies: new Map<string, common.ConfigPolicy>(),
    values: new Map<string, common.ConfigValue>(),
    groups: new Map<string, common.ConfigGroup>(),
  };
  const same = {
    policies: new Map<string, common.ConfigPolicy>(),
    values: new Map<string, common.ConfigValue>(),
    groups: new Map<string, common.ConfigGroup>(),
  };
  let membersUpdated = false;

  const op = entries<common.ConfigPolicy>(original.getPoliciesMap());
  const up = entries<common.ConfigPolicy>(updated.getPoliciesMap());
  for (const [name, o] of op) {
    const u = up.get(name);
    if (!u) {
      membersUpdated = true;
      continue;
    }
    if (o.getModPolicy() === u.getModPolicy() && bytesEqual(policyBytes(o.getPolicy()), policyBytes(u.getPolicy()))) {
      const p = new common.ConfigPolicy();
      p.setVersion(o.getVersion());
      same.policies.set(name, p);
      continue;
    }
    const p = new common.ConfigPolicy();
    p.setVersion(o.getVersion() + 1);
    p.setModPolicy(u.getModPolicy());
    const pol = u.getPolicy();
    if (pol) p.setPolicy(pol);
    ws.policies.set(name, p);
  }
  for (const [name, u] of up) {
    if (op.has(name)) continue;
    membersUpdated = true;
    const p = new common.ConfigPolicy();
    p.setVersion(0);
    p.setModPolicy(u.getModPolicy());
    const pol = u.getPolicy();
    if (pol) p.setPolicy(pol);
    ws.policies.set(name, p);
  }

  const ov = entries<common.ConfigValue>(original.getValuesMap());
  const uv = entries<common.ConfigValue>(updated.getValuesMap());
  for (const [name, o] of ov) {
    const u = uv.get(name);
    if (!u) {
      membersUpdated = true;
      continue;
    }
    if (o.getModPolicy() === u.getModPolicy() && bytesEqual(o.getValue_asU8(), u.getValue_asU8())) {
      const v = new common.ConfigValue();
      v.setVersion(o.getVersion());
      same.values.set(name, v);
      continue;
    }
    const v = new common.ConfigValue();
    v.setVersion(o.getVersion() + 1);
    v.setModPolicy(u.getModPolicy());
    v.setValue(u.getValue_asU8());
    ws.values.set(name, v);
  }
  for (const [name, u] of uv) {
    if (ov.has(name)) continue;
    membersUpdated = true;
    const v = new common.ConfigValue();
    v.setVersion(0);
    v.setModPolicy(u.getModPolicy());
    v.setValue(u.getValue_asU8());
    ws.values.set(name, v);
  }

  const og = entries<common.ConfigGroup>(original.getGroupsMap());
  const ug = entries<common.ConfigGroup>(updated.getGroupsMap());
  for (const [name, o] of og) {
    const u = ug.get(name);
    if (!u) {
      membersUpdated = true;
      continue;
    }
    const d = computeGroupUpdate(o, u);
    if (!d.updated) {
      same.groups.set(name, d.readSet);
      continue;
    }
    rs.groups.set(name, d.readSet);
    ws.groups.set(name, d.writeSet);
  }
  for (const [name, u] of ug) {
    if (og.has(name)) continue;
    membersUpdated = true;
    const d = computeGroupUpdate(new common.ConfigGroup(), u);
    const g = d.writeSet;
    g.setVersion(0);
    g.setModPolicy(u.getModPolicy());
    ws.groups.set(name, g);
  }

  if (!membersUpdated && original.getModPolicy() === updated.getModPolicy()) {
    const nothing =
      rs.policies.size + ws.policies.size + rs.values.size + ws.values.size + rs.groups.size + ws.groups.size === 0;
    if (nothing) {
      const empty = (): common.ConfigGroup =>
        groupWith(original.getVersion(), { policies: new Map(), values: new Map(), groups: new Map() });
      return { readSet: empty(), writeSet: empty(), updated: false };
    }
    return {
      readSet: groupWith(original.getVersion(), rs),
      writeSet: groupWith(original.getVersion(), ws),
      updated: true,
    };
  }
  for (const kind of ["policies", "values", "groups"] as const) {
    (same[kind] as Map<string, unknown>).forEach((v, k) => {
      (rs[kind] as Map<string, unknown>).set(k, v);
      (ws[kind] as Map<string, unknown>).set(k, v);
    });
  }
  return {
    readSet: groupWith(original.getVersion(), rs),
    writeSet: groupWith(original.getVersion() + 1, ws, updated.getModPolicy()),
    updated: true,
  };
}

/**
 * The read/write-set delta that turns `original` into `updated`, as `configtxlator
 * compute_update` computes it: unchanged siblings of a changed element are read at their
 * version, changed elements are written at version + 1, new elements at version 0.
 * @throws ConfigtxInputError("updated") when the configs are the same
 */
export function computeConfigUpdate(
  channelId: string,
  original: common.Config,
  updated: common.Config,
): common.ConfigUpdate {
  const o = original.getChannelGroup();
  const u = updated.getChannelGroup();
  if (!o || !u) throw new ConfigtxInputError(o ? "updated" : "original", "the config has no channel group");
  const d = computeGroupUpdate(o, u);
  if (!d.updated) throw new ConfigtxInputError("updated", "no differences between the original and the updated config");
  const update = new common.ConfigUpdate();
  update.setChannelId(channelId);
  update.setReadSet(d.readSet);
  update.setWriteSet(d.writeSet);
  return update;
}

/** A ConfigUpdateEnvelope around the update, with no signatures yet. */
export function createConfigUpdateEnvelope(update: common.ConfigUpdate): common.ConfigUpdateEnvelope {
  const env = new common.ConfigUpdateEnvelope();
  env.setConfigUpdate(update.serializeBinary());
  env.setSignaturesList([]);
  return env;
}

/**
 * A ConfigSignature of `signer` over the envelope's config update: the signature header
 * (creator = serialized identity, fresh nonce) and a low-S signature over header ‖ config_update,
 * which is what the orderer verifies against the modification policies.
 */
export function signConfigUpdate(
  envelope: common.ConfigUpdateEnvelope,
  signer: SigningIdentity,
): common.ConfigSignature {
  const header = signatureHeader(signer.serialize()).serializeBinary();
  const sig = new common.ConfigSignature();
  sig.setSignatureHeader(header);
  sig.setSignature(signer.sign(Buffer.concat([header, envelope.getConfigUpdate_asU8()])));
  return sig;
}

/** Adds each signer's ConfigSignature to the envelope (collecting admin signatures); returns it. */
export function addConfigSignatures(
  envelope: common.ConfigUpdateEnvelope,
  signers: SigningIdentity[],
): common.ConfigUpdateEnvelope {
  for (const s of signers) envelope.addSignatures(signConfigUpdate(envelope, s));
  return envelope;
}

/**
 * The CONFIG_UPDATE transaction to broadcast: Payload{ChannelHeader CONFIG_UPDATE, SignatureHeader
 * of the submitter, data = ConfigUpdateEnvelope} signed by the submitter (who must be a channel Writer).
 */
export function configUpdateTransaction(
  channelId: string,
  envelope: common.ConfigUpdateEnvelope,
  submitter: SigningIdentity,
): common.Envelope {
  // A transaction id like any other transaction's: SHA-256(nonce || creator), so the update can be
  // referred to (and found in the block that the orderer cuts for it).
  const creator = submitter.serialize();
  const sigHeader = signatureHeader(creator);
  const txId = computeTxId(sigHeader.getNonce_asU8(), creator);
  const header = new common.Header();
  header.setChannelHeader(channelHeader({ type: common.HeaderType.CONFIG_UPDATE, channelId, txId }).serializeBinary());
  header.setSignatureHeader(sigHeader.serializeBinary());
  const payload = new common.Payload();
  payload.setHeader(header);
  payload.setData(envelope.serializeBinary());
  const bytes = payload.serializeBinary();
  const env = new common.Envelope();
  env.setPayload(bytes);
  env.setSignature(submitter.sign(bytes));
  return env;
}

/**
 * Convenience: compute the update between two configs, sign it by every admin in `signers`,
 * and wrap it for broadcast signed by `submitter` (default the first signer).
 */
export function buildSignedConfigUpdate(params: {
  channelId: string;
  original: common.Config;
  updated: common.Config;
  signers: SigningIdentity[];
  submitter?: SigningIdentity;
}): common.Envelope {
  const submitter = params.submitter ?? params.signers[0];
  if (!submitter) throw new ConfigtxInputError("signers", "a config update needs at least one signer");
  const envelope = addConfigSignatures(
    createConfigUpdateEnvelope(computeConfigUpdate(params.channelId, params.original, params.updated)),
    params.signers,
  );
  return configUpdateTransaction(params.channelId, envelope, submitter);
}
