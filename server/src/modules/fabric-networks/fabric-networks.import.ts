import type { ExternalRefs } from "./fabric-networks.external.js";
import { X509Certificate } from "node:crypto";
import { common } from "@hyperledger/fabric-protos";
import {
  assertValidChannelId,
  blockChannel,
  channelMspIds,
  channelSummary,
  type ChannelSummary,
} from "../../fabric/configtx/index.js";
import { configFromBlock, DeliverError, fetchBlock, fetchNewestConfigBlock } from "../../fabric/deliver.js";
import type { GrpcEndpoint } from "../../fabric/grpc-connection.js";
import type { SigningIdentity } from "../../fabric/identity.js";
import { nowIso } from "../../db/db.js";
import { errorMessage, InputError, UpstreamError } from "../../http/errors.js";
import { dialAddress, type FabricContext } from "./fabric-networks.context.js";
import type { FabricNetworksRepo, NetworkRow } from "./fabric-networks.repo.js";

/** How long one orderer gets to answer a deliver request during an import. */
const IMPORT_DELIVER_TIMEOUT_MS = 15_000;

/** What an imported network stores as its `config` (the web reads the org lists like a created one's). */
export interface ImportedNetworkConfig {
  imported: {
    source: "block" | "orderer";
    /** Number of the block the network was imported from (0 = genesis). */
    blockNumber: number;
    ordererUrl?: string;
    organizationId?: number;
  };
  /** From the channel config (etcdraft or BFT), as a created network's request names it. */
  consensusType: string;
  peerOrganizations: { id: number; nodeIds: number[] }[];
  ordererOrganizations: { id: number; nodeIds: number[] }[];
}

const reason = (err: unknown): string => errorMessage(err).slice(0, 500);

/** host:port from "grpcs://host:port", "host:port" (TLS only: Fabric nodes here always use TLS). */
export function parseOrdererUrl(url: string): string {
  const s = url.trim();
  const m = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\[[0-9a-f:.]+\]|[^\s:/[\]]+):(\d{1,5})\/?$/i.exec(s);
  if (!m) throw new InputError("ordererUrl: expected host:port or grpcs://host:port", { field: "ordererUrl" });
  const scheme = m[1]?.toLowerCase();
  if (scheme && scheme !== "grpcs" && scheme !== "https") {
    throw new InputError(`ordererUrl: '${scheme}://' is not supported; orderers are reached over TLS (grpcs://)`, {
      field: "ordererUrl",
    });
  }
  const port = Number(m[3]);
  if (port < 1 || port > 65535) throw new InputError("ordererUrl: port must be 1-65535", { field: "ordererUrl" });
  return `${m[2]}:${port}`;
}

function parseCert(pem: string, field: string): X509Certificate {
  if (!/-----BEGIN CERTIFICATE-----/.test(pem)) {
    throw new InputError(`${field}: expected a PEM certificate (-----BEGIN CERTIFICATE-----)`, { field });
  }
  try {
    return new X509Certificate(pem);
  } catch (err) {
    throw new InputError(`${field}: not a valid certificate: ${reason(err)}`, { field });
  }
}

/** Decodes the base64 of a Fabric block and checks that it is a config block. */
export function parseConfigBlock(b64: string): { block: common.Block; channelId: string; number: number } {
  const field = "genesisFile";
  const text = b64.replace(/\s+/g, "");
  if (text.length === 0) throw new InputError(`${field}: is empty`, { field });
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 === 1) {
    throw new InputError(`${field}: expected the base64 of a block (e.g. base64 -w0 genesis.block)`, { field });
  }
  let block: common.Block;
  try {
    block = common.Block.deserializeBinary(Buffer.from(text, "base64"));
  } catch (err) {
    throw new InputError(`${field}: not a Fabric block: ${reason(err)}`, { field });
  }
  try {
    configFromBlock(block);
    const { channelId, number } = blockChannel(block);
    assertValidChannelId(channelId);
    return { block, channelId, number };
  } catch (err) {
    throw new InputError(`${field}: not a channel config block: ${reason(err)}`, { field });
  }
}

/** Deliver errors as named 4xx/502s for an import. */
function deliverFailure(err: unknown, channelId: string, where: string, mspId: string): Error {
  if (err instanceof DeliverError) {
    if (err.status === common.Status.NOT_FOUND) {
      return new InputError(`channelId: ${where} has no channel '${channelId}'`, { field: "channelId" });
    }
    if (err.status === common.Status.FORBIDDEN) {
      return new InputError(
        `organizationId: ${where} refused to deliver '${channelId}' to ${mspId}; is the org a member of the channel?`,
        { field: "organizationId" },
      );
    }
  }
  // grpc-js wraps the TLS cause: "14 UNAVAILABLE: No connection established. Last error: Error: <cause>. Resolution note: …"
  const text = /Last error: (?:Error: )?(.+?)\.? Resolution note/.exec(reason(err))?.[1] ?? reason(err);
  if (/does not match certificate's altnames/i.test(text)) {
    return new InputError(
      `ordererUrl: the orderer's TLS certificate is not issued for this address (${text}); use a host name or IP it names`,
      { field: "ordererUrl" },
    );
  }
  if (/certificate|self.signed|issuer|handshake|SSL/i.test(text)) {
    return new InputError(
      `ordererTlsCert: the TLS handshake with ${where} failed (${text}); give the TLS CA certificate that issued the orderer's TLS certificate`,
      { field: "ordererTlsCert" },
    );
  }
  return new UpstreamError(`reading channel '${channelId}' from ${where}: ${text}`);
}

/**
 * Block 0 of a channel, fetched from the orderers its config lists (each orderer org's
 * Endpoints, dialled with that org's TLS CAs), signed by `signer`. Peers can only join from it.
 */
export async function fetchGenesisFromOrderers(
  channelId: string,
  summary: ChannelSummary,
  signer: SigningIdentity,
): Promise<common.Block> {
  return fromListedOrderers(summary, (endpoint) =>
    fetchBlock({ endpoint, service: "orderer", signer, channelId, target: 0, timeoutMs: IMPORT_DELIVER_TIMEOUT_MS }),
  );
}

/**
 * The newest config block of a channel, read from the orderers its config lists (as `signer`). For
 * a channel whose orderers all belong to another console (one shared with this console, say): the
 * stored block may predate the config update that added this console's org.
 */
export async function fetchNewestConfigFromOrderers(
  channelId: string,
  summary: ChannelSummary,
  signer: SigningIdentity,
): Promise<common.Block> {
  return fromListedOrderers(summary, (endpoint) =>
    fetchNewestConfigBlock({ endpoint, service: "orderer", signer, channelId, timeoutMs: IMPORT_DELIVER_TIMEOUT_MS }),
  );
}

/** Tries each orderer endpoint a channel config lists, in order, until one answers. */
async function fromListedOrderers(
  summary: ChannelSummary,
  read: (endpoint: GrpcEndpoint) => Promise<common.Block>,
): Promise<common.Block> {
  const errors: string[] = [];
  const allCas = summary.orderer.flatMap((o) => o.tlsCaCerts).join("\n");
  const targets = [
    ...summary.orderer.flatMap((o) => o.endpoints.map((address) => ({ address, ca: o.tlsCaCerts.join("\n") }))),
    ...summary.globalOrdererAddresses.map((address) => ({ address, ca: allCas })),
  ];
  for (const t of targets) {
    try {
      return await read({ address: dialAddress(t.address), tlsRootCert: t.ca });
    } catch (err) {
      errors.push(`${t.address}: ${reason(err)}`);
    }
  }
  throw new Error(targets.length ? errors.join("; ") : "the channel config lists no orderer endpoints");
}

/**
 * Import of existing channels: from a config block someone hands over, or read from one of the
 * channel's orderers with an org this console holds. The record then works like a created one:
 * add this console's nodes and join them.
 */
export function createFabricImport(deps: {
  ctx: FabricContext;
  repo: FabricNetworksRepo;
  external: Pick<ExternalRefs, "orderer">;
}) {
  const { ctx, repo } = deps;

  /** This console's orgs among the channel's, as the config lists for the record. */
  async function heldOrgIds(summary: ChannelSummary) {
    const ids = async (orgs: ChannelSummary["application"]) => {
      const out: { id: number; nodeIds: number[] }[] = [];
      for (const o of orgs) {
        const m = await ctx.orgByMspId(o.mspId);
        if (m) out.push({ id: m.row.id, nodeIds: [] });
      }
      return out;
    };
    return { peerOrganizations: await ids(summary.application), ordererOrganizations: await ids(summary.orderer) };
  }

  async function insert(
    channelId: string,
    description: string | undefined,
    genesis: common.Block,
    config: ImportedNetworkConfig,
  ): Promise<NetworkRow> {
    await ctx.assertNameFree(channelId, "channelId");
    const now = nowIso();
    return repo.insert(
      {
        name: channelId,
        platform: "FABRIC",
        description: description ?? null,
        status: "imported",
        chain_id: null,
        config: JSON.stringify(config),
        genesis: Buffer.from(genesis.serializeBinary()).toString("base64"),
        validators: "[]",
        created_at: now,
        updated_at: now,
      },
      [],
    );
  }

  return {
    /**
     * From a genesis (or later config) block. For a later block, block 0 is fetched from the
     * channel's orderers when an org of this console can read it, since peers join from block 0;
     * otherwise that is retried at the first peer join.
     */
    async importBlock(body: { description?: string | undefined; genesisFile: string }) {
      const { block, channelId, number } = parseConfigBlock(body.genesisFile);
      const summary = channelSummary(configFromBlock(block));
      const orgs = await heldOrgIds(summary);
      let genesis = block;
      let note = "";
      if (number > 0) {
        const reader = [...orgs.peerOrganizations, ...orgs.ordererOrganizations][0];
        if (!reader) {
          note = `; block ${number} is not the genesis block and no org of this console is in the channel to fetch it`;
        } else {
          const signer = await (await ctx.org(reader.id, "organizationId")).admin();
          genesis = await fetchGenesisFromOrderers(channelId, summary, signer).catch((err: unknown) => {
            note = `; block 0 could not be fetched yet (${reason(err)}), it is retried when a peer joins`;
            return block;
          });
        }
      }
      const row = await insert(channelId, body.description, genesis, {
        imported: { source: "block", blockNumber: blockChannel(genesis).number },
        consensusType: summary.consensusType,
        ...orgs,
      });
      return { row, response: { message: `Imported channel '${channelId}'${note}`, networkId: row.id } };
    },

    /**
     * From a channel's orderer: its URL and TLS CA, or an external orderer synced from another
     * console (`externalOrdererId`: its endpoint and TLS CA), read with the admin of one of our
     * member orgs.
     */
    async importWithOrg(body: {
      channelId: string;
      description?: string | undefined;
      ordererTlsCert?: string | undefined;
      ordererUrl?: string | undefined;
      externalOrdererId?: number | undefined;
      organizationId: number;
    }) {
      try {
        assertValidChannelId(body.channelId);
      } catch (err) {
        throw new InputError(`channelId: ${reason(err)}`, { field: "channelId" });
      }
      let url = body.ordererUrl;
      let tlsCert = body.ordererTlsCert;
      if (body.externalOrdererId !== undefined) {
        if (url !== undefined || tlsCert !== undefined) {
          throw new InputError("externalOrdererId: give either externalOrdererId or ordererUrl and ordererTlsCert", {
            field: "externalOrdererId",
          });
        }
        const ext = await deps.external.orderer(body.externalOrdererId, "externalOrdererId");
        url = ext.url;
        tlsCert = ext.tlsCaCert;
      }
      if (url === undefined) {
        throw new InputError("ordererUrl: required (or externalOrdererId)", { field: "ordererUrl" });
      }
      if (tlsCert === undefined) {
        throw new InputError("ordererTlsCert: required with ordererUrl", { field: "ordererTlsCert" });
      }
      const address = parseOrdererUrl(url);
      const cert = parseCert(tlsCert, "ordererTlsCert");
      const org = await ctx.org(body.organizationId, "organizationId");
      await ctx.assertNameFree(body.channelId, "channelId");
      const signer = await org.admin();
      // Orderers that require client certificates (mutual TLS) get the org admin's TLS identity.
      const clientTls = await org.adminTls().catch(() => undefined);
      const endpoint: GrpcEndpoint = {
        address: dialAddress(address),
        tlsRootCert: cert.toString(),
        ...(clientTls ? { clientCert: clientTls.certPem, clientKey: clientTls.keyPem } : {}),
      };
      const where = `orderer ${address}`;
      const params = {
        endpoint,
        service: "orderer" as const,
        signer,
        channelId: body.channelId,
        timeoutMs: IMPORT_DELIVER_TIMEOUT_MS,
      };
      const genesis = await fetchBlock({ ...params, target: 0 }).catch((err: unknown) => {
        throw deliverFailure(err, body.channelId, where, org.mspId);
      });
      const newest = await fetchNewestConfigBlock(params).catch((err: unknown) => {
        throw deliverFailure(err, body.channelId, where, org.mspId);
      });
      const current = configFromBlock(newest);
      const summary = channelSummary(current);
      if (!channelMspIds(current).has(org.mspId)) {
        throw new InputError(`organizationId: ${org.mspId} is not a member of channel '${body.channelId}'`, {
          field: "organizationId",
        });
      }
      const row = await insert(body.channelId, body.description, genesis, {
        imported: {
          source: "orderer",
          blockNumber: 0,
          ordererUrl: address,
          organizationId: org.row.id,
        },
        consensusType: summary.consensusType,
        ...(await heldOrgIds(summary)),
      });
      return { row, response: { message: `Imported channel '${body.channelId}' from ${address}`, networkId: row.id } };
    },
  };
}

export type FabricImport = ReturnType<typeof createFabricImport>;

/**
 * The block a peer joins from: the stored one when it is block 0, else block 0 fetched now
 * from the channel's orderers (and stored). Peers cannot join from a later config block.
 */
export async function genesisForPeer(
  deps: { ctx: FabricContext; repo: FabricNetworksRepo },
  network: NetworkRow,
  signer: SigningIdentity,
): Promise<Uint8Array> {
  const stored = deps.ctx.genesisOf(network);
  const block = common.Block.deserializeBinary(stored);
  if ((block.getHeader()?.getNumber() ?? 0) === 0) return stored;
  const summary = channelSummary(configFromBlock(block));
  const genesis = await fetchGenesisFromOrderers(network.name, summary, signer).catch((err: unknown) => {
    throw new InputError(
      `network '${network.name}' was imported from config block ${block.getHeader()?.getNumber()}; peers join from block 0, which the channel's orderers did not serve: ${reason(err)}`,
    );
  });
  const bytes = genesis.serializeBinary();
  await deps.repo.setGenesis(network.id, Buffer.from(bytes).toString("base64"));
  return bytes;
}
