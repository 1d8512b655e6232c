import { byLabel, scrapeMetrics, type PromSample } from "../../../runtime/prom-text.js";
import { durationMs } from "../../nodes/nodes.health.js";
import type { RuleContext } from "../alerts.engine.js";
import type { AlertsRepo, FabricNodeRow } from "../alerts.repo.js";

/** Scrapes in flight at once: the nodes are local processes, and the machine may be small. */
const SCRAPE_CONCURRENCY = 4;

export type Scrape = { ok: true; samples: PromSample[] } | { ok: false; error: string };

export interface ChannelView {
  networkId: number;
  name: string;
  /** etcdraft unless the channel was created as BFT. */
  raft: boolean;
  peers: FabricNodeRow[];
  orderers: FabricNodeRow[];
}

/** One cycle's view of the Fabric channels: members, their status and what their `/metrics` said. */
export interface FabricSnapshot {
  channels: ChannelView[];
  /** Per RUNNING member node; nodes that are not running are not scraped. */
  scrapes: Map<number, Scrape>;
}

/** The operations `/metrics` URL of a node: next to its `/healthz` (the operations listener). */
export function metricsUrl(deployment: string): string | undefined {
  try {
    const d = JSON.parse(deployment) as { healthUrl?: unknown };
    if (typeof d.healthUrl !== "string") return undefined;
    const u = new URL(d.healthUrl);
    u.pathname = "/metrics";
    return u.toString();
  } catch {
    return undefined;
  }
}

function isRaft(config: string): boolean {
  try {
    const c = JSON.parse(config) as { consensusType?: unknown };
    return c.consensusType !== "smartbft" && c.consensusType !== "BFT";
  } catch {
    return true;
  }
}

/** Runs `fn` over `items` with at most `limit` at a time. */
async function mapLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Reads the channels and scrapes their running members once per cycle (shared by the Fabric rules). */
export function fabricSnapshot(
  ctx: RuleContext,
  repo: Pick<AlertsRepo, "fabricNodes" | "channelMembers">,
  scrape: (url: string, timeoutMs: number) => Promise<PromSample[]> = scrapeMetrics,
): Promise<FabricSnapshot> {
  return ctx.once("fabric", async () => {
    const [nodes, members] = await Promise.all([repo.fabricNodes(), repo.channelMembers()]);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const channels = new Map<number, ChannelView>();
    for (const m of members) {
      const node = byId.get(m.node_id);
      if (!node) continue;
      let ch = channels.get(m.network_id);
      if (!ch) {
        ch = { networkId: m.network_id, name: m.channel_name, raft: isRaft(m.network_config), peers: [], orderers: [] };
        channels.set(m.network_id, ch);
      }
      (m.role === "orderer" ? ch.orderers : ch.peers).push(node);
    }
    const toScrape = new Map<number, FabricNodeRow>();
    for (const ch of channels.values()) {
      for (const n of [...ch.peers, ...ch.orderers]) if (n.status === "RUNNING") toScrape.set(n.id, n);
    }
    const timeoutMs = Math.min(durationMs(ctx.settings.healthCheckTimeout, 5000), 30_000);
    const scrapes = new Map<number, Scrape>();
    await mapLimited([...toScrape.values()], SCRAPE_CONCURRENCY, async (n) => {
      const url = metricsUrl(n.deployment);
      if (!url) return void scrapes.set(n.id, { ok: false, error: "no operations address" });
      try {
        scrapes.set(n.id, { ok: true, samples: await scrape(url, timeoutMs) });
      } catch (err) {
        scrapes.set(n.id, { ok: false, error: err instanceof Error ? err.message : String(err) });
      }
    });
    return { channels: [...channels.values()], scrapes };
  });
}

/** A node's value of a per-channel metric, when its scrape worked and has it. */
export function channelMetric(
  snap: FabricSnapshot,
  nodeId: number,
  metric: string,
  channel: string,
): number | undefined {
  const s = snap.scrapes.get(nodeId);
  if (!s?.ok) return undefined;
  return byLabel(s.samples, metric, "channel").get(channel);
}
