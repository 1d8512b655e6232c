import { common } from "@hyperledger/fabric-protos";
import { decodeBlock, type DecodedBlock } from "../../fabric/block-decode.js";
import { configToJson } from "../../fabric/configtx/index.js";
import {
  configFromBlock,
  fetchBlock,
  fetchBlocks,
  fetchChainInfo,
  fetchNewestConfigBlock,
} from "../../fabric/deliver.js";
import type { GrpcEndpoint } from "../../fabric/grpc-connection.js";
import type { SigningIdentity } from "../../fabric/identity.js";
import { osnGetChannel } from "../../fabric/osnadmin.js";
import { createPeerClient, type ChainInfo } from "../../fabric/peer-client.js";
import { AppError, errorMessage, InputError, NotFoundError, UpstreamError } from "../../http/errors.js";
import { dialAddress, splitHostPort, type FabricContext, type FabricNodeInfo } from "./fabric-networks.context.js";
import type { FabricNetworksRepo, NetworkRow } from "./fabric-networks.repo.js";
import type { BlockDto, TransactionDto } from "./fabric-networks.inspect.schema.js";

/** A joined node of the network to read the chain from, with the identity its org signs with. */
export interface Reader {
  node: FabricNodeInfo;
  service: "peer" | "orderer";
  endpoint: GrpcEndpoint;
  signer: SigningIdentity;
}

const upstream = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new UpstreamError(`${what}: ${errorMessage(err)}`);
  }
};

export function toBlockDto(d: DecodedBlock): BlockDto {
  const createdAt = d.transactions.find((t) => t.timestamp)?.timestamp ?? "";
  return {
    number: d.number,
    hash: d.hash,
    previousHash: d.previousHash,
    dataHash: d.dataHash,
    createdAt,
    transactions: d.transactions.map((t): TransactionDto => {
      const a = t.actions?.[0];
      const rw = a?.rwSets ?? [];
      return {
        id: t.txId,
        type: t.type,
        channelId: t.channelId,
        createdAt: t.timestamp ?? "",
        creatorMspId: t.creatorMspId ?? "",
        validationCode: t.validationCode ?? "",
        chaincodeId: a?.chaincode ?? "",
        version: a?.chaincodeVersion ?? "",
        path: "",
        request: a?.args ?? [],
        response: a ? `${a.response.status} ${a.response.message}`.trim() : "",
        reads: rw.flatMap((s) =>
          s.reads.map((r) => ({
            chaincodeId: s.namespace,
            key: r.key,
            blockNumVersion: r.version?.blockNum ?? 0,
            txNumVersion: r.version?.txNum ?? 0,
          })),
        ),
        writes: rw.flatMap((s) =>
          s.writes.map((w) => ({ chaincodeId: s.namespace, key: w.key, value: w.value, deleted: w.isDelete })),
        ),
      };
    }),
  };
}

/** Reads a channel through a joined node: chain info, blocks, configs and the node map. */
export function createFabricInspect(deps: { ctx: FabricContext; repo: FabricNetworksRepo }) {
  const { ctx, repo } = deps;

  async function readers(network: NetworkRow): Promise<Reader[]> {
    const members = (await repo.members(network.id)).filter((m) => m.status === "joined");
    const out: Reader[] = [];
    for (const m of members) {
      const n = await ctx.tryNode(m.node_id);
      const info = n && ctx.toInfo(n);
      if (!info || info.status !== "RUNNING") continue;
      const signer = await (await ctx.org(info.organizationId, "organizationId")).admin();
      out.push({ node: info, service: info.role, endpoint: ctx.grpcEndpoint(info), signer });
    }
    // Peers first: they serve QSCC and hold the validated chain.
    return out.sort((a, b) => (a.service === b.service ? 0 : a.service === "peer" ? -1 : 1));
  }

  async function reader(network: NetworkRow, prefer?: "peer" | "orderer"): Promise<Reader> {
    const all = await readers(network);
    const r = (prefer && all.find((x) => x.service === prefer)) ?? all[0];
    if (!r) throw new InputError(`network '${network.name}' has no joined, running peer or orderer to read from`);
    return r;
  }

  async function chainInfo(r: Reader, channelId: string): Promise<ChainInfo> {
    if (r.service === "peer") {
      const client = createPeerClient(r.endpoint, r.signer);
      try {
        return await client.getChainInfo(channelId);
      } finally {
        client.close();
      }
    }
    return fetchChainInfo({ endpoint: r.endpoint, service: r.service, signer: r.signer, channelId });
  }

  async function newestConfig(network: NetworkRow, prefer?: "peer" | "orderer"): Promise<common.Config> {
    const r = await reader(network, prefer);
    return upstream(`reading the config of '${network.name}' from '${r.node.name}'`, async () =>
      configFromBlock(
        await fetchNewestConfigBlock({
          endpoint: r.endpoint,
          service: r.service,
          signer: r.signer,
          channelId: network.name,
        }),
      ),
    );
  }

  return {
    readers,
    reader,
    newestConfig,
    async info(id: number): Promise<ChainInfo> {
      const network = await ctx.network(id);
      const r = await reader(network);
      return upstream(`chain info from '${r.node.name}'`, () => chainInfo(r, network.name));
    },
    async blocks(id: number, limit: number, offset: number, reverse: boolean) {
      const network = await ctx.network(id);
      const r = await reader(network);
      return upstream(`blocks from '${r.node.name}'`, async () => {
        const { height } = await chainInfo(r, network.name);
        let from: number;
        let to: number;
        if (reverse) {
          to = height - 1 - offset;
          from = Math.max(0, to - limit + 1);
        } else {
          from = offset;
          to = Math.min(height - 1, offset + limit - 1);
        }
        if (to < 0 || from > height - 1 || from > to) return { blocks: [], total: height };
        const blocks = await fetchBlocks({
          endpoint: r.endpoint,
          service: r.service,
          signer: r.signer,
          channelId: network.name,
          start: from,
          stop: to,
        });
        const dtos = blocks.map((b) => toBlockDto(decodeBlock(b)));
        return { blocks: reverse ? dtos.reverse() : dtos, total: height };
      });
    },
    async block(id: number, blockNum: number) {
      const network = await ctx.network(id);
      const r = await reader(network);
      return upstream(`block ${blockNum} from '${r.node.name}'`, async () => {
        const { height } = await chainInfo(r, network.name);
        if (blockNum >= height) throw new NotFoundError(`block ${blockNum} not found: the chain height is ${height}`);
        const b = await fetchBlock({
          endpoint: r.endpoint,
          service: r.service,
          signer: r.signer,
          channelId: network.name,
          target: blockNum,
        });
        return { block: toBlockDto(decodeBlock(b)) };
      });
    },
    async genesisConfig(id: number) {
      const network = await ctx.network(id);
      const block = common.Block.deserializeBinary(ctx.genesisOf(network));
      return { name: network.name, config: configToJson(configFromBlock(block)) };
    },
    async currentConfig(id: number) {
      const network = await ctx.network(id);
      return { name: network.name, config: configToJson(await newestConfig(network)) };
    },
    async map(id: number) {
      const network = await ctx.network(id);
      const members = await repo.members(network.id);
      const nodes = await Promise.all(
        members.map(async (m) => {
          const n = await ctx.tryNode(m.node_id);
          const info = n && ctx.toInfo(n);
          const hp = info ? splitHostPort(dialAddress(info.endpoint)) : { host: "", port: 0 };
          const base = {
            nodeId: m.node_id,
            id: info?.name ?? String(m.node_id),
            host: hp.host,
            port: hp.port,
            role: m.role,
            mspId: info?.mspId ?? "",
            mine: true,
            joinStatus: m.status,
          };
          if (!info || m.status !== "joined") return { ...base, healthy: false, height: 0, latency: "", latencyNs: 0 };
          const t0 = process.hrtime.bigint();
          try {
            let height: number;
            if (info.role === "orderer") {
              height = (await osnGetChannel(await ctx.osnEndpoint(info), network.name)).height;
            } else {
              const signer = await (await ctx.org(info.organizationId, "organizationId")).admin();
              height = (
                await chainInfo({ node: info, service: "peer", endpoint: ctx.grpcEndpoint(info), signer }, network.name)
              ).height;
            }
            const ns = Number(process.hrtime.bigint() - t0);
            return { ...base, healthy: true, height, latency: `${(ns / 1e6).toFixed(1)}ms`, latencyNs: ns };
          } catch (err) {
            return {
              ...base,
              healthy: false,
              height: 0,
              latency: "",
              latencyNs: 0,
              error: errorMessage(err),
            };
          }
        }),
      );
      return { networkId: network.id, platform: "FABRIC", nodes };
    },
  };
}

export type FabricInspect = ReturnType<typeof createFabricInspect>;
