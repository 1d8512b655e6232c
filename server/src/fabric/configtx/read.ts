import { common, msp, orderer } from "@hyperledger/fabric-protos";
import { firstEnvelopeHeader } from "../envelope.js";
import { VALUE_KEYS } from "./values.js";

/** An org of a channel as read back from its config: MSP id, TLS roots and (orderers) endpoints. */
export interface ChannelOrgSummary {
  mspId: string;
  /** PEM of the org's TLS root and intermediate CA certs. */
  tlsCaCerts: string[];
  /** Orderer orgs: the host:port endpoints the org publishes (empty for peer orgs). */
  endpoints: string[];
}

export interface ChannelSummary {
  application: ChannelOrgSummary[];
  orderer: ChannelOrgSummary[];
  /** The channel-level OrdererAddresses (deprecated in Fabric 2.x, still honoured by clients). */
  globalOrdererAddresses: string[];
  /** The orderer's consensus type: etcdraft, BFT (or solo/kafka on old channels). */
  consensusType: string;
}

const pem = (b: Uint8Array): string => Buffer.from(b).toString("utf8");

function orgSummary(mspId: string, g: common.ConfigGroup): ChannelOrgSummary {
  const values = g.getValuesMap();
  const tlsCaCerts: string[] = [];
  const mspValue = values.get(VALUE_KEYS.msp);
  if (mspValue) {
    const m = msp.MSPConfig.deserializeBinary(mspValue.getValue_asU8());
    if (m.getType() === 0) {
      const f = msp.FabricMSPConfig.deserializeBinary(m.getConfig_asU8());
      tlsCaCerts.push(...f.getTlsRootCertsList_asU8().map(pem), ...f.getTlsIntermediateCertsList_asU8().map(pem));
    }
  }
  const ep = values.get(VALUE_KEYS.endpoints);
  const endpoints = ep ? common.OrdererAddresses.deserializeBinary(ep.getValue_asU8()).getAddressesList() : [];
  return { mspId, tlsCaCerts, endpoints };
}

/** The orgs of a channel config, with what a client needs to reach its orderers. */
export function channelSummary(config: common.Config): ChannelSummary {
  const root = config.getChannelGroup();
  const orgs = (key: string): ChannelOrgSummary[] => {
    const out: ChannelOrgSummary[] = [];
    root
      ?.getGroupsMap()
      .get(key)
      ?.getGroupsMap()
      .forEach((g: common.ConfigGroup, mspId: string) => out.push(orgSummary(mspId, g)));
    return out.sort((a, b) => a.mspId.localeCompare(b.mspId));
  };
  const global = root?.getValuesMap().get(VALUE_KEYS.ordererAddresses);
  const consensus = root?.getGroupsMap().get("Orderer")?.getValuesMap().get(VALUE_KEYS.consensusType);
  return {
    application: orgs("Application"),
    orderer: orgs("Orderer"),
    globalOrdererAddresses: global
      ? common.OrdererAddresses.deserializeBinary(global.getValue_asU8()).getAddressesList()
      : [],
    consensusType: consensus ? orderer.ConsensusType.deserializeBinary(consensus.getValue_asU8()).getType() : "",
  };
}

/** MSP ids of every org of the channel (application and orderer orgs). */
export function channelMspIds(config: common.Config): Set<string> {
  const out = new Set<string>();
  for (const key of ["Application", "Orderer"]) {
    config
      .getChannelGroup()
      ?.getGroupsMap()
      .get(key)
      ?.getGroupsMap()
      .forEach((_g: unknown, mspId: string) => out.add(mspId));
  }
  return out;
}

/**
 * The consenters of a channel config as host:port: the etcdraft metadata's consenters, or the
 * BFT consenter mapping (the Orderers value). Empty for other consensus types.
 */
export function consenterAddresses(config: common.Config): string[] {
  const ord = config.getChannelGroup()?.getGroupsMap().get("Orderer");
  const ct = ord?.getValuesMap().get(VALUE_KEYS.consensusType);
  if (!ord || !ct) return [];
  const consensus = orderer.ConsensusType.deserializeBinary(ct.getValue_asU8());
  if (consensus.getType() === "etcdraft") {
    return orderer.etcdraft.ConfigMetadata.deserializeBinary(consensus.getMetadata_asU8())
      .getConsentersList()
      .map((k) => `${k.getHost()}:${k.getPort()}`);
  }
  const mapping = ord.getValuesMap().get(VALUE_KEYS.orderers);
  if (consensus.getType() === "BFT" && mapping) {
    return common.Orderers.deserializeBinary(mapping.getValue_asU8())
      .getConsenterMappingList()
      .map((k) => `${k.getHost()}:${k.getPort()}`);
  }
  return [];
}

/** The channel id and block number of a block, from its first transaction's channel header. */
export function blockChannel(block: common.Block): { channelId: string; number: number } {
  const { channelHeader } = firstEnvelopeHeader(block);
  return { channelId: channelHeader.getChannelId(), number: block.getHeader()?.getNumber() ?? 0 };
}
