import { common } from "@hyperledger/fabric-protos";
import { BroadcastError } from "../../fabric/broadcast.js";
import {
  addApplicationOrg,
  addConfigSignatures,
  addOrdererOrg,
  addRaftConsenter,
  channelMspIds,
  cloneConfig,
  computeConfigUpdate,
  configUpdateToJson,
  configUpdateTransaction,
  createConfigUpdateEnvelope,
  encodePolicy,
  removeApplicationOrg,
  removeOrdererOrg,
  removeRaftConsenter,
  setAnchorPeers,
  setBatchSize,
  setBatchTimeout,
  setEtcdRaftOptions,
  setOrgCrls,
  updateOrgMsp,
  updateRaftConsenter,
  type PolicyInput,
} from "../../fabric/configtx/index.js";
import { configFromBlock, fetchNewestConfigBlock } from "../../fabric/deliver.js";
import { broadcastWhenLeader, untilLeader } from "../../fabric/leader-wait.js";
import { envelopeHeader } from "../../fabric/envelope.js";
import type { SigningIdentity } from "../../fabric/identity.js";
import { buildChannelMsp } from "../../fabric/msp/index.js";
import { errorMessage, InputError, UpstreamError } from "../../http/errors.js";
import { backoffSchedule } from "../../runtime/backoff.js";
import { libraryInput, type FabricContext, type OrgMaterial } from "./fabric-networks.context.js";
import type { FabricInspect, Reader } from "./fabric-networks.inspect.js";
import type { FabricNetworksRepo, NetworkRow } from "./fabric-networks.repo.js";
import type { ConfigOperation, ConfigOperationInput } from "./fabric-networks.change.schema.js";
import type { ExternalRefs } from "./fabric-networks.external.js";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const SUBMIT_TIMEOUT_MS = 30_000;
const PEER_CATCH_UP_MS = 15_000;
/** Polls start at 25 ms and back off to 300 ms: leader election usually settles well inside a second. */
const LEADER_OPTS = { timeoutMs: SUBMIT_TIMEOUT_MS, capMs: 300 };

function setPolicy(config: common.Config, path: "Application" | "Orderer" | null, name: string, p: PolicyInput) {
  const c = cloneConfig(config);
  const root = c.getChannelGroup();
  const group = path ? root?.getGroupsMap().get(path) : root;
  if (!group) throw new InputError(`the channel has no ${path ?? "Channel"} group`);
  const existing = group.getPoliciesMap().get(name);
  const cp = existing ?? new common.ConfigPolicy();
  if (!existing) cp.setModPolicy("Admins");
  cp.setPolicy(libraryInput("policy.", () => encodePolicy(p)));
  group.getPoliciesMap().set(name, cp);
  return c;
}

/** One upstream operation applied to a config (a pure edit, validated by the library). */
export function applyOperation(config: common.Config, o: ConfigOperation, i: number): common.Config {
  const prefix = `operations[${i}].payload.`;
  return libraryInput(prefix, () => {
    const msp = (p: { msp_id: string; root_certs: string[]; tls_root_certs: string[] }) =>
      buildChannelMsp({
        mspId: p.msp_id,
        caCertPem: p.root_certs[0] as string,
        tlsCaCertPem: p.tls_root_certs[0] as string,
        intermediateCertPems: p.root_certs.slice(1),
        tlsIntermediateCertPems: p.tls_root_certs.slice(1),
      });
    switch (o.type) {
      case "add_org":
        return addApplicationOrg(config, { msp: msp(o.payload) });
      case "remove_org":
        return removeApplicationOrg(config, o.payload.msp_id);
      case "update_org_msp":
      case "update_orderer_org_msp":
        return updateOrgMsp(config, o.payload.msp_id, msp(o.payload));
      case "add_orderer_org":
        return addOrdererOrg(config, { msp: msp(o.payload), ordererEndpoints: o.payload.orderer_endpoints });
      case "remove_orderer_org":
        return removeOrdererOrg(config, o.payload.msp_id);
      case "set_anchor_peers":
        return setAnchorPeers(config, o.payload.msp_id, o.payload.anchor_peers);
      case "add_consenter":
        return addRaftConsenter(config, {
          host: o.payload.host,
          port: o.payload.port,
          clientTlsCert: o.payload.client_tls_cert,
          serverTlsCert: o.payload.server_tls_cert,
        });
      case "remove_consenter":
        return removeRaftConsenter(config, o.payload);
      case "update_consenter":
        return updateRaftConsenter(
          config,
          { host: o.payload.host, port: o.payload.port },
          {
            host: o.payload.new_host,
            port: o.payload.new_port,
            clientTlsCert: o.payload.client_tls_cert,
            serverTlsCert: o.payload.server_tls_cert,
          },
        );
      case "update_etcd_raft_options": {
        const p = o.payload;
        return setEtcdRaftOptions(config, {
          ...(p.tick_interval !== undefined ? { tickInterval: p.tick_interval } : {}),
          ...(p.election_tick !== undefined ? { electionTick: p.election_tick } : {}),
          ...(p.heartbeat_tick !== undefined ? { heartbeatTick: p.heartbeat_tick } : {}),
          ...(p.max_inflight_blocks !== undefined ? { maxInflightBlocks: p.max_inflight_blocks } : {}),
          ...(p.snapshot_interval_size !== undefined ? { snapshotIntervalSize: p.snapshot_interval_size } : {}),
        });
      }
      case "update_batch_size": {
        const p = o.payload;
        return setBatchSize(config, {
          ...(p.max_message_count !== undefined ? { maxMessageCount: p.max_message_count } : {}),
          ...(p.absolute_max_bytes !== undefined ? { absoluteMaxBytes: p.absolute_max_bytes } : {}),
          ...(p.preferred_max_bytes !== undefined ? { preferredMaxBytes: p.preferred_max_bytes } : {}),
        });
      }
      case "update_batch_timeout":
        return setBatchTimeout(config, o.payload.timeout);
      case "update_application_policy":
        return setPolicy(config, "Application", o.payload.policy_name, o.payload.policy);
      case "update_orderer_policy":
        return setPolicy(config, "Orderer", o.payload.policy_name, o.payload.policy);
      case "update_channel_policy":
        return setPolicy(config, null, o.payload.policy_name, o.payload.policy);
    }
  });
}

function txIdOf(env: common.Envelope): string {
  return envelopeHeader(env).channelHeader.getTxId();
}

/**
 * Channel config changes: read the newest config from a joined orderer, apply the edits, sign
 * the update by the admins of the orgs this console holds (enough for MAJORITY Admins when it
 * holds a majority), broadcast it and wait until the new config block is on the chain.
 */
export function createFabricChange(deps: {
  ctx: FabricContext;
  repo: FabricNetworksRepo;
  inspect: FabricInspect;
  pki: { crl(org: OrgMaterial["row"], caType?: "sign" | "tls"): Promise<string> };
  external: Pick<ExternalRefs, "resolveOperations">;
}) {
  const { ctx, inspect } = deps;

  /** The newest config of the channel, read from a joined, running orderer (waiting out a raft election). */
  async function readCurrent(network: NetworkRow) {
    const readers = await inspect.readers(network);
    const r = readers.find((x) => x.service === "orderer");
    if (!r) {
      throw new InputError(`network '${network.name}' has no joined, running orderer to submit the update to`);
    }
    const read = () =>
      fetchNewestConfigBlock({ endpoint: r.endpoint, service: "orderer", signer: r.signer, channelId: network.name });
    // Right after the joins the orderers answer SERVICE_UNAVAILABLE until raft has a leader.
    const block = await untilLeader(read, LEADER_OPTS).catch((err: unknown) => {
      throw new UpstreamError(`reading the config from '${r.node.name}': ${errorMessage(err)}`);
    });
    return { current: configFromBlock(block), orderer: r, readers, read };
  }

  /**
   * Broadcasts a signed ConfigUpdateEnvelope (wrapped by `submitter`, a channel Writer) and waits
   * for the config block that raises the sequence above `before`, then for the peers to catch up.
   */
  async function broadcastSigned(
    network: NetworkRow,
    at: Awaited<ReturnType<typeof readCurrent>>,
    envelope: common.ConfigUpdateEnvelope,
    submitter: SigningIdentity,
  ) {
    const { orderer: r, readers, read } = at;
    const until = Date.now() + SUBMIT_TIMEOUT_MS;
    const tx = configUpdateTransaction(network.name, envelope, submitter);
    try {
      await broadcastWhenLeader(r.endpoint, tx, LEADER_OPTS);
    } catch (err) {
      if (err instanceof BroadcastError && ["BAD_REQUEST", "FORBIDDEN"].includes(err.statusName)) {
        throw new InputError(`the orderer refused the config update: ${err.info || err.statusName}`);
      }
      throw new UpstreamError(`submitting to '${r.node.name}': ${errorMessage(err)}`);
    }
    const before = at.current.getSequence();
    const blockWait = backoffSchedule({ capMs: 200 });
    for (;;) {
      const b = await read().catch(() => undefined);
      if (b && configFromBlock(b).getSequence() > before) {
        await peersCaughtUp(
          network,
          readers.filter((x) => x.service === "peer"),
          before,
        );
        return { txId: txIdOf(tx), blockNumber: b.getHeader()?.getNumber() ?? 0 };
      }
      if (Date.now() > until)
        throw new UpstreamError("the config update was accepted but no new config block appeared");
      await sleep(blockWait());
    }
  }

  async function submit(
    network: NetworkRow,
    edit: (c: common.Config) => common.Config,
    signerOrgs: (current: common.Config) => Promise<OrgMaterial[]>,
  ) {
    const at = await readCurrent(network);
    const { current } = at;
    const updated = edit(current);
    const update = libraryInput("", () => computeConfigUpdate(network.name, current, updated));
    const orgs = await signerOrgs(current);
    if (orgs.length === 0) throw new InputError("signing_org_ids: no organization of this console can sign the update");
    const signers: SigningIdentity[] = await Promise.all(orgs.map((o) => o.admin()));
    const envelope = addConfigSignatures(createConfigUpdateEnvelope(update), signers);
    const res = await broadcastSigned(network, at, envelope, signers[0] as SigningIdentity);
    return { ...res, update: configUpdateToJson(update) };
  }

  /**
   * The orderer has cut the config block; wait (briefly) until the running joined peers have
   * committed it too, so reads that go through a peer right after the update see the change.
   * A peer that lags longer is not an error: the update is on the chain either way.
   */
  async function peersCaughtUp(network: NetworkRow, peers: Reader[], before: number) {
    const until = Date.now() + PEER_CATCH_UP_MS;
    for (const p of peers) {
      const wait = backoffSchedule({ capMs: 200 });
      for (;;) {
        const b = await fetchNewestConfigBlock({
          endpoint: p.endpoint,
          service: "peer",
          signer: p.signer,
          channelId: network.name,
        }).catch(() => undefined);
        if ((b && configFromBlock(b).getSequence() > before) || Date.now() > until) break;
        await sleep(wait());
      }
    }
  }

  /** Every org of the channel that this console holds. */
  async function heldOrgs(current: common.Config): Promise<OrgMaterial[]> {
    const out: OrgMaterial[] = [];
    for (const mspId of channelMspIds(current)) {
      const m = await ctx.orgByMspId(mspId);
      if (m) out.push(m);
    }
    return out;
  }

  return {
    readCurrent,
    /**
     * The newest config this console can read: from a running orderer of the channel, else from a
     * joined running peer (which may lag the orderer by a block or two).
     */
    newestConfig: (network: NetworkRow): Promise<common.Config> => inspect.newestConfig(network, "orderer"),
    broadcastSigned,
    heldOrgs,
    /**
     * The update that `input` makes to the channel's current config (nothing is signed or sent):
     * what a governance proposal stores and every org signs.
     */
    async prepare(id: number, input: ConfigOperationInput[]) {
      const network = await ctx.network(id);
      const operations = await deps.external.resolveOperations(input);
      const at = await readCurrent(network);
      const updated = operations.reduce((acc, o, i) => applyOperation(acc, o, i), at.current);
      const update = libraryInput("", () => computeConfigUpdate(network.name, at.current, updated));
      return { network, operations, current: at.current, update, preview: configUpdateToJson(update) };
    },
    async updateConfig(id: number, input: ConfigOperationInput[], signingOrgIds: number[] | undefined, by: string) {
      const network = await ctx.network(id);
      const operations = await deps.external.resolveOperations(input);
      const res = await submit(
        network,
        (c) => operations.reduce((acc, o, i) => applyOperation(acc, o, i), c),
        async (current) =>
          signingOrgIds?.length
            ? Promise.all(signingOrgIds.map((o, i) => ctx.org(o, `signing_org_ids[${i}]`)))
            : heldOrgs(current),
      );
      return {
        id: res.txId,
        network_id: network.id,
        channel_name: network.name,
        status: "applied",
        operations,
        preview_json: JSON.stringify(res.update),
        created_at: new Date().toISOString(),
        created_by: by,
        configBlockNumber: res.blockNumber,
      };
    },
    async anchorPeers(id: number, organizationId: number, anchors: { host: string; port: number }[]) {
      const network = await ctx.network(id);
      const org = await ctx.org(organizationId, "organizationId");
      const res = await submit(
        network,
        (c) => libraryInput("", () => setAnchorPeers(c, org.mspId, anchors)),
        async () => [org],
      );
      return { transactionId: res.txId };
    },
    async organizationCrl(id: number, organizationId: number) {
      const network = await ctx.network(id);
      const org = await ctx.org(organizationId, "organizationId");
      const crl = await deps.pki.crl(org.row, "sign");
      const res = await submit(
        network,
        (c) => libraryInput("", () => setOrgCrls(c, org.mspId, [crl])),
        async () => [org],
      );
      return { transactionId: res.txId };
    },
  };
}

export type FabricChange = ReturnType<typeof createFabricChange>;
