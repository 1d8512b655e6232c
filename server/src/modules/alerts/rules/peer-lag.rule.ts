import type { PromSample } from "../../../runtime/prom-text.js";
import type { AlertRule, Condition } from "../alerts.engine.js";
import type { AlertsRepo } from "../alerts.repo.js";
import { channelMetric, fabricSnapshot } from "./fabric-snapshot.js";

/** The ledger height gauge; peers and orderers both export it, labelled by channel. */
export const HEIGHT = "ledger_blockchain_height";

/**
 * A running peer whose height on a channel is more than `alertPeerLagBlocks` below the highest of
 * the channel's running orderers, for `alertPeerLagMinutes`. A peer that is not running, or a
 * channel with no orderer answering, gives no condition this cycle: a stopped peer is the downtime
 * rule's business, and an unknown height is not a lag.
 */
export function peerLagRule(
  repo: Pick<AlertsRepo, "fabricNodes" | "channelMembers">,
  scrape?: (url: string, timeoutMs: number) => Promise<PromSample[]>,
): AlertRule {
  return {
    id: "peer.lag",
    event: "peer.lagging",
    resolveEvent: "peer.caught_up",
    forMs: (s) => s.alertPeerLagMinutes * 60_000,
    async evaluate(ctx): Promise<Condition[]> {
      const snap = await fabricSnapshot(ctx, repo, scrape);
      const out: Condition[] = [];
      for (const ch of snap.channels) {
        const heights = ch.orderers
          .map((o) => channelMetric(snap, o.id, HEIGHT, ch.name))
          .filter((h): h is number => h !== undefined);
        if (!heights.length) continue;
        const ordererHeight = Math.max(...heights);
        for (const p of ch.peers) {
          const peerHeight = channelMetric(snap, p.id, HEIGHT, ch.name);
          if (peerHeight === undefined) continue;
          const lag = Math.max(0, ordererHeight - peerHeight);
          out.push({
            key: `peer:${p.id}:network:${ch.networkId}`,
            subject: `${p.name} on ${ch.name}`,
            active: lag > ctx.settings.alertPeerLagBlocks,
            data: {
              node_id: p.id,
              node_name: p.name,
              channel_name: ch.name,
              network_id: ch.networkId,
              peer_height: peerHeight,
              orderer_height: ordererHeight,
              lag,
            },
          });
        }
      }
      return out;
    },
  };
}
