import type { PromSample } from "../../../runtime/prom-text.js";
import type { AlertRule, Condition } from "../alerts.engine.js";
import type { AlertsRepo } from "../alerts.repo.js";
import { channelMetric, fabricSnapshot, type ChannelView, type FabricSnapshot } from "./fabric-snapshot.js";

/** Fabric 3.1's etcdraft gauges, labelled by channel (checked against a real orderer's /metrics). */
export const IS_LEADER = "consensus_etcdraft_is_leader";
export const CLUSTER_SIZE = "consensus_etcdraft_cluster_size";
export const ACTIVE_NODES = "consensus_etcdraft_active_nodes";

type Scraper = (url: string, timeoutMs: number) => Promise<PromSample[]>;
type Repo = Pick<AlertsRepo, "fabricNodes" | "channelMembers">;

function raftView(snap: FabricSnapshot, ch: ChannelView) {
  const answering = ch.orderers.filter((o) => channelMetric(snap, o.id, CLUSTER_SIZE, ch.name) !== undefined);
  const leaders = answering.filter((o) => channelMetric(snap, o.id, IS_LEADER, ch.name) === 1);
  const clusterSize = Math.max(0, ...answering.map((o) => channelMetric(snap, o.id, CLUSTER_SIZE, ch.name) ?? 0));
  return { answering, leaders, clusterSize };
}

const base = (ch: ChannelView): Record<string, unknown> => ({ channel_name: ch.name, network_id: ch.networkId });

/**
 * A Raft channel where none of the orderers answering says it is the leader, for `alertRaftMinutes`.
 * `is_leader` is 1 only on the leader, so the rule speaks only when this console runs the whole
 * cluster (as many orderer members as `cluster_size`); with consenters elsewhere the leader may be
 * one of theirs. With no orderer answering the state is unknown, and the consenter rule reports it.
 */
export function raftLeaderRule(repo: Repo, scrape?: Scraper): AlertRule {
  return {
    id: "raft.leader",
    event: "raft.no_leader",
    resolveEvent: "raft.recovered",
    forMs: (s) => s.alertRaftMinutes * 60_000,
    async evaluate(ctx): Promise<Condition[]> {
      const snap = await fabricSnapshot(ctx, repo, scrape);
      const out: Condition[] = [];
      for (const ch of snap.channels) {
        if (!ch.raft) continue;
        const { answering, leaders, clusterSize } = raftView(snap, ch);
        if (!answering.length || ch.orderers.length < clusterSize) continue;
        out.push({
          key: `network:${ch.networkId}`,
          subject: `channel ${ch.name}`,
          active: leaders.length === 0,
          data: {
            ...base(ch),
            problem: "no_leader",
            leader: leaders[0]?.name ?? null,
            cluster_size: clusterSize,
            orderers_answering: answering.map((o) => o.name),
          },
        });
      }
      return out;
    },
  };
}

/**
 * A Raft channel with a consenter unreachable, for `alertRaftMinutes`: one of this console's
 * orderers on the channel is not running (stopped on purpose too: the cluster has lost a member
 * either way) or its metrics do not answer, or an orderer's `active_nodes` (the leader's count,
 * which followers receive with its heartbeats) is below `cluster_size`, which also sees consenters
 * run elsewhere.
 */
export function raftConsenterRule(repo: Repo, scrape?: Scraper): AlertRule {
  return {
    id: "raft.consenters",
    event: "raft.consenter_unreachable",
    resolveEvent: "raft.recovered",
    forMs: (s) => s.alertRaftMinutes * 60_000,
    async evaluate(ctx): Promise<Condition[]> {
      const snap = await fabricSnapshot(ctx, repo, scrape);
      const out: Condition[] = [];
      for (const ch of snap.channels) {
        if (!ch.raft || !ch.orderers.length) continue;
        const unreachable = ch.orderers
          .filter((o) => o.status !== "RUNNING" || snap.scrapes.get(o.id)?.ok === false)
          .map((o) => o.name);
        const { answering, clusterSize } = raftView(snap, ch);
        // 0 means "not reported": every orderer starts at 0, and a one-node cluster never sets it.
        const active = Math.max(0, ...answering.map((o) => channelMetric(snap, o.id, ACTIVE_NODES, ch.name) ?? 0));
        const missing = active > 0 && clusterSize > 1 ? Math.max(0, clusterSize - active) : 0;
        out.push({
          key: `network:${ch.networkId}`,
          subject: `channel ${ch.name}`,
          active: unreachable.length > 0 || missing > 0,
          data: {
            ...base(ch),
            problem: "consenter_unreachable",
            unreachable,
            cluster_size: clusterSize || null,
            active_nodes: active || null,
          },
        });
      }
      return out;
    },
  };
}
