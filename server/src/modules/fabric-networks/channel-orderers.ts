import { common } from "@hyperledger/fabric-protos";
import { channelSummary, type ChannelSummary } from "../../fabric/configtx/index.js";
import { configFromBlock } from "../../fabric/deliver.js";
import { dialAddress, type FabricContext, type FabricNodeInfo } from "./fabric-networks.context.js";
import type { FabricNetworksRepo, NetworkRow } from "./fabric-networks.repo.js";

/** An orderer of a channel as a client reaches it. */
export interface ChannelOrderer {
  /** The node's name when this console runs it, else its endpoint. */
  name: string;
  mspId: string;
  /** host:port to dial. */
  address: string;
  /** PEM of its org's TLS CA(s). */
  tlsCaPem: string;
  /** The node when this console runs it. */
  node?: FabricNodeInfo;
}

/**
 * The channel config of the newest block the console stored for a network: the config block
 * reload-block read last, else the genesis block (or the config block it was imported from);
 * undefined when there is none or it does not decode.
 */
export function storedChannelSummary(row: NetworkRow): ChannelSummary | undefined {
  const stored = row.config_block || row.genesis;
  if (!stored) return undefined;
  try {
    return channelSummary(configFromBlock(common.Block.deserializeBinary(Buffer.from(stored, "base64"))));
  } catch {
    return undefined;
  }
}

/** PEM blocks concatenated, each ending with a line break. */
export function pemBundle(pems: string[]): string {
  return pems.map((p) => (p.endsWith("\n") ? p : `${p}\n`)).join("");
}

/** A network's joined members of one role, as nodes this console runs (members whose node is gone are left out). */
export async function joinedNodes(
  ctx: Pick<FabricContext, "tryNode" | "toInfo">,
  repo: Pick<FabricNetworksRepo, "members">,
  networkId: number,
  role: "peer" | "orderer",
): Promise<FabricNodeInfo[]> {
  const out: FabricNodeInfo[] = [];
  for (const m of await repo.members(networkId)) {
    if (m.role !== role || m.status !== "joined") continue;
    const n = await ctx.tryNode(m.node_id);
    const info = n && ctx.toInfo(n);
    if (info) out.push(info);
  }
  return out;
}

/**
 * The orderers of a channel from what the console knows without asking a node: its joined
 * orderers, then the endpoints the orderer orgs publish in the stored channel config that none of
 * those already serves (orderers of other consoles). Orderers added by a later config update
 * that this console does not run are known once reload-block has read that config block.
 */
export async function channelOrderers(
  ctx: Pick<FabricContext, "tryNode" | "toInfo">,
  repo: Pick<FabricNetworksRepo, "members">,
  row: NetworkRow,
): Promise<ChannelOrderer[]> {
  const out: ChannelOrderer[] = (await joinedNodes(ctx, repo, row.id, "orderer")).map((n) => ({
    name: n.name,
    mspId: n.mspId,
    address: dialAddress(n.endpoint),
    tlsCaPem: n.tlsCaCert,
    node: n,
  }));
  const known = new Set(out.map((o) => o.address));
  for (const org of storedChannelSummary(row)?.orderer ?? []) {
    for (const ep of org.endpoints) {
      const address = dialAddress(ep);
      if (known.has(address)) continue;
      known.add(address);
      out.push({ name: ep, mspId: org.mspId, address, tlsCaPem: pemBundle(org.tlsCaCerts) });
    }
  }
  return out;
}

/**
 * The TLS CAs of every orderer org the console knows, by MSP id: the orgs of the orderers it runs
 * on its channels and the orderer orgs in the channel configs it stored. What the peer CLI's
 * `--cafile` needs to reach any of those orderers.
 */
export async function knownOrdererTlsCas(
  ctx: Pick<FabricContext, "tryNode" | "toInfo">,
  repo: Pick<FabricNetworksRepo, "members" | "all">,
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const add = (mspId: string, pems: string[]): void => {
    const list = out.get(mspId) ?? [];
    for (const pem of pems.map((p) => `${p.trim()}\n`)) if (pem.trim() && !list.includes(pem)) list.push(pem);
    out.set(mspId, list);
  };
  for (const row of await repo.all()) {
    for (const n of await joinedNodes(ctx, repo, row.id, "orderer")) add(n.mspId, [n.tlsCaCert]);
    for (const org of storedChannelSummary(row)?.orderer ?? []) add(org.mspId, org.tlsCaCerts);
  }
  return new Map([...out].filter(([, pems]) => pems.length > 0).sort(([a], [b]) => a.localeCompare(b)));
}
