import {
  type BftConsenter,
  type ChannelConfigInput,
  type EtcdRaftConsenter,
  type OrdererOrgInput,
  type PeerOrgInput,
  type SmartBftOptions,
} from "../../fabric/configtx/index.js";
import { buildChannelMsp } from "../../fabric/msp/index.js";
import { InputError } from "../../http/errors.js";
import { libraryInput, splitHostPort, type FabricContext, type FabricNodeInfo } from "./fabric-networks.context.js";
import type { CreateFabricNetworkBody } from "./fabric-networks.schema.js";

function bftOptions(o: NonNullable<CreateFabricNetworkBody["config"]["smartBFTOptions"]>): Partial<SmartBftOptions> {
  const { leaderRotation, ...rest } = o;
  const out: Partial<SmartBftOptions> = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  if (leaderRotation) out.leaderRotation = /off/i.test(leaderRotation) ? 1 : /on/i.test(leaderRotation) ? 2 : 0;
  return out;
}

const isV3 = (v: string): boolean => /^v?3\./.test(v);

/**
 * What a channel is created from: the request's orgs and nodes resolved and checked (roles,
 * ownership, RUNNING consenters, Fabric 3.x for BFT), and the library's channel config input.
 */
export function createChannelInputs(ctx: FabricContext) {
  type Resolved = { org: Awaited<ReturnType<typeof ctx.org>>; nodes: FabricNodeInfo[] };

  async function resolveOrgs(
    list: CreateFabricNetworkBody["config"]["ordererOrganizations"],
    role: "peer" | "orderer",
    key: string,
    bft = false,
  ): Promise<Resolved[]> {
    const out: Resolved[] = [];
    for (const [i, o] of list.entries()) {
      const org = await ctx.org(o.id, `config.${key}[${i}].id`);
      const nodes: FabricNodeInfo[] = [];
      for (const [j, nodeId] of o.nodeIds.entries()) {
        const field = `config.${key}[${i}].nodeIds[${j}]`;
        const n = await ctx.node(nodeId, field);
        if (n.role !== role)
          throw new InputError(`${field}: node '${n.name}' is a ${n.role}, not a ${role}`, { field });
        if (n.organizationId !== o.id) {
          throw new InputError(`${field}: node '${n.name}' belongs to ${n.mspId}, not ${org.mspId}`, { field });
        }
        if (role === "orderer") {
          if (!n.tlsCert) throw new InputError(`${field}: orderer '${n.name}' has no TLS certificate`, { field });
          if (bft && !isV3(n.version)) {
            throw new InputError(`config.consensusType: BFT needs Fabric 3.x orderers; '${n.name}' runs ${n.version}`, {
              field: "config.consensusType",
            });
          }
          if (n.status !== "RUNNING") {
            throw new InputError(
              `${field}: orderer '${n.name}' is ${n.status}; consenters must be RUNNING to create the channel`,
              { field },
            );
          }
        }
        nodes.push(n);
      }
      out.push({ org, nodes });
    }
    return out;
  }

  function channelInput(body: CreateFabricNetworkBody, peers: Resolved[], orderers: Resolved[]): ChannelConfigInput {
    const c = body.config;
    const bft = c.consensusType !== "etcdraft";
    const ordererNodes = orderers.flatMap((o) => o.nodes);
    const versions = [...new Set(ordererNodes.map((n) => n.version))];
    if (bft) {
      const old = ordererNodes.find((n) => !isV3(n.version));
      if (old) {
        throw new InputError(`config.consensusType: BFT needs Fabric 3.x orderers; '${old.name}' runs ${old.version}`, {
          field: "config.consensusType",
        });
      }
    }
    const msp = (mspId: string, ca: string, tls: string, field: string) =>
      libraryInput(`${field}.`, () => buildChannelMsp({ mspId, caCertPem: ca, tlsCaCertPem: tls }));
    const peerOrgs: PeerOrgInput[] = [
      ...peers.map((p, i) => ({
        msp: msp(p.org.mspId, p.org.signCaCert, p.org.tlsCaCert, `config.peerOrganizations[${i}]`),
      })),
      ...c.externalPeerOrgs.map((e, i) => ({
        msp: msp(e.mspid, e.signCACert, e.tlsCACert, `config.externalPeerOrgs[${i}]`),
      })),
    ];
    const ordererOrgs: OrdererOrgInput[] = [
      ...orderers.map((o, i) => ({
        msp: msp(o.org.mspId, o.org.signCaCert, o.org.tlsCaCert, `config.ordererOrganizations[${i}]`),
        ordererEndpoints: o.nodes.map((n) => n.endpoint),
      })),
      ...c.externalOrdererOrgs.map((e, i) => ({
        msp: msp(e.mspid, e.signCACert, e.tlsCACert, `config.externalOrdererOrgs[${i}]`),
        ordererEndpoints: e.consenters.map((k) => `${k.host}:${k.port}`),
      })),
    ];
    const raft: EtcdRaftConsenter[] = [
      ...ordererNodes.map((n) => ({
        ...splitHostPort(n.endpoint),
        clientTlsCert: n.tlsCert,
        serverTlsCert: n.tlsCert,
      })),
      ...c.externalOrdererOrgs.flatMap((e) =>
        e.consenters.map((k) => ({ host: k.host, port: k.port, clientTlsCert: k.tlsCert, serverTlsCert: k.tlsCert })),
      ),
    ];
    if (raft.length === 0) {
      throw new InputError("config.ordererOrganizations: the channel needs at least one orderer node (consenter)", {
        field: "config.ordererOrganizations",
      });
    }
    if (bft && c.externalOrdererOrgs.some((e) => e.consenters.length > 0)) {
      throw new InputError("config.externalOrdererOrgs: external BFT consenters are not supported", {
        field: "config.externalOrdererOrgs",
      });
    }
    const bftConsenters: BftConsenter[] = ordererNodes.map((n, i) => ({
      id: i + 1,
      ...splitHostPort(n.endpoint),
      mspId: n.mspId,
      identity: n.signCert,
      clientTlsCert: n.tlsCert,
      serverTlsCert: n.tlsCert,
    }));
    return {
      channelId: body.name,
      ...(versions.length === 1 && versions[0] ? { fabricVersion: versions[0] } : {}),
      peerOrgs,
      ordererOrgs,
      consensus: bft
        ? {
            type: "BFT",
            consenters: bftConsenters,
            ...(c.smartBFTOptions ? { options: bftOptions(c.smartBFTOptions) } : {}),
          }
        : { type: "etcdraft", consenters: raft, ...(c.etcdRaftOptions ? { options: c.etcdRaftOptions } : {}) },
      ...(c.batchSize ? { batchSize: c.batchSize } : {}),
      ...(c.batchTimeout ? { batchTimeout: c.batchTimeout } : {}),
      capabilities: {
        ...(c.channelCapabilities ? { channel: c.channelCapabilities } : {}),
        ...(c.ordererCapabilities ? { orderer: c.ordererCapabilities } : {}),
        ...(c.applicationCapabilities ? { application: c.applicationCapabilities } : {}),
      },
      ...(c.channelPolicies ? { channelPolicies: c.channelPolicies } : {}),
      ...(c.ordererPolicies ? { ordererPolicies: c.ordererPolicies } : {}),
      ...(c.applicationPolicies ? { applicationPolicies: c.applicationPolicies } : {}),
    };
  }

  return { resolveOrgs, channelInput };
}
