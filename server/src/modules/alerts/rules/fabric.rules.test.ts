import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePromText, type PromSample } from "../../../runtime/prom-text.js";
import { settingConfig } from "../../settings/settings.schema.js";
import type { RuleContext } from "../alerts.engine.js";
import type { ChannelMemberRow, FabricNodeRow } from "../alerts.repo.js";
import { peerLagRule } from "./peer-lag.rule.js";
import { raftConsenterRule, raftLeaderRule } from "./raft.rules.js";

/**
 * The rules on real exposition text (scraped from Fabric 3.1.0 on channel "alchannel", see
 * runtime/testdata), with values changed line by line to make the cases the real-node test can't
 * make reliably (a 3-node cluster without a leader, a lost consenter elsewhere).
 */
const REAL = {
  peer: readFileSync(new URL("../../../runtime/testdata/fabric-3.1.0-peer.metrics.txt", import.meta.url), "utf8"),
  orderer: readFileSync(new URL("../../../runtime/testdata/fabric-3.1.0-orderer.metrics.txt", import.meta.url), "utf8"),
};

/** The real text with some per-channel values set (metric name -> value on alchannel). */
function edited(role: "peer" | "orderer", values: Record<string, number>): string {
  return REAL[role]
    .split("\n")
    .map((line) => {
      for (const [name, v] of Object.entries(values)) {
        if (line.startsWith(`${name}{channel="alchannel"} `)) return `${name}{channel="alchannel"} ${v}`;
      }
      return line;
    })
    .join("\n");
}

function node(id: number, name: string, type: "FABRIC_PEER" | "FABRIC_ORDERER", status = "RUNNING"): FabricNodeRow {
  return {
    id,
    name,
    node_type: type,
    status,
    deployment: JSON.stringify({ healthUrl: `http://127.0.0.1:${9000 + id}/healthz` }),
    key_id: null,
    tls_key_id: null,
  };
}

function world(nodes: FabricNodeRow[], texts: Record<number, string | Error>, consensusType = "etcdraft") {
  const members: ChannelMemberRow[] = nodes.map((n) => ({
    network_id: 5,
    channel_name: "alchannel",
    node_id: n.id,
    role: n.node_type === "FABRIC_PEER" ? "peer" : "orderer",
    network_config: JSON.stringify({ consensusType }),
  }));
  const repo = { fabricNodes: async () => nodes, channelMembers: async () => members };
  const scraped: string[] = [];
  const scrape = async (url: string): Promise<PromSample[]> => {
    scraped.push(url);
    const id = Number(new URL(url).port) - 9000;
    const t = texts[id];
    if (t === undefined || t instanceof Error) throw t ?? new Error("connection refused");
    return parsePromText(t);
  };
  return { repo, scrape, scraped };
}

function ctx(overrides: Record<string, unknown> = {}): RuleContext {
  const memo = new Map<string, Promise<unknown>>();
  return {
    now: new Date(),
    settings: settingConfig.parse({ alertPeerLagBlocks: 10, ...overrides }),
    once<T>(key: string, fn: () => Promise<T>): Promise<T> {
      if (!memo.has(key)) memo.set(key, fn());
      return memo.get(key) as Promise<T>;
    },
  };
}

describe("peer lag rule", () => {
  const peer = node(1, "peer0", "FABRIC_PEER");
  const o1 = node(2, "orderer0", "FABRIC_ORDERER");
  const o2 = node(3, "orderer1", "FABRIC_ORDERER");

  it("compares each peer with the highest running orderer, and fires above the threshold only", async () => {
    const h = (v: number) => ({ ledger_blockchain_height: v });
    const cases: Array<[number, boolean]> = [
      [40, false], // 10 behind: at the threshold
      [39, true], // 11 behind
      [60, false], // ahead of the orderers (they lag, not the peer)
    ];
    for (const [peerHeight, active] of cases) {
      const w = world([peer, o1, o2], {
        1: edited("peer", h(peerHeight)),
        2: edited("orderer", h(50)),
        3: edited("orderer", h(45)),
      });
      const [c] = await peerLagRule(w.repo, w.scrape).evaluate(ctx());
      expect(c).toMatchObject({ key: "peer:1:network:5", active });
      expect(c?.data).toEqual({
        node_id: 1,
        node_name: "peer0",
        channel_name: "alchannel",
        network_id: 5,
        peer_height: peerHeight,
        orderer_height: 50,
        lag: Math.max(0, 50 - peerHeight),
      });
    }
  });

  it("says nothing of a stopped peer, a peer that does not answer, or a channel with no orderer answering", async () => {
    const stopped = world([node(1, "peer0", "FABRIC_PEER", "STOPPED"), o1], { 2: REAL.orderer });
    expect(await peerLagRule(stopped.repo, stopped.scrape).evaluate(ctx())).toEqual([]);
    // A stopped node is not even scraped.
    expect(stopped.scraped).toEqual(["http://127.0.0.1:9002/metrics"]);
    const mute = world([peer, o1], { 1: new Error("timeout"), 2: REAL.orderer });
    expect(await peerLagRule(mute.repo, mute.scrape).evaluate(ctx())).toEqual([]);
    const noOrderer = world([peer, node(2, "orderer0", "FABRIC_ORDERER", "ERROR")], { 1: REAL.peer });
    expect(await peerLagRule(noOrderer.repo, noOrderer.scrape).evaluate(ctx())).toEqual([]);
  });
});

describe("raft rules", () => {
  const o = [1, 2, 3].map((i) => node(i, `orderer${i}`, "FABRIC_ORDERER"));
  const raft = (leader: number, size: number, active: number) =>
    edited("orderer", {
      consensus_etcdraft_is_leader: leader,
      consensus_etcdraft_cluster_size: size,
      consensus_etcdraft_active_nodes: active,
    });

  it("finds the real single orderer a healthy leader", async () => {
    const w = world([o[0]!], { 1: REAL.orderer });
    const [leader] = await raftLeaderRule(w.repo, w.scrape).evaluate(ctx());
    expect(leader).toMatchObject({ key: "network:5", active: false, data: { leader: "orderer1", cluster_size: 1 } });
    const [consenters] = await raftConsenterRule(w.repo, w.scrape).evaluate(ctx());
    expect(consenters).toMatchObject({ active: false, data: { unreachable: [], active_nodes: null } });
  });

  it("reports no leader when the whole cluster is this console's and none of it leads", async () => {
    const w = world(o, { 1: raft(0, 3, 0), 2: raft(0, 3, 0), 3: raft(0, 3, 0) });
    const [c] = await raftLeaderRule(w.repo, w.scrape).evaluate(ctx());
    expect(c).toMatchObject({ active: true, data: { problem: "no_leader", leader: null, cluster_size: 3 } });
    // Two of five consenters are ours: the leader may be elsewhere, so nothing is said.
    const part = world(o.slice(0, 2), { 1: raft(0, 5, 4), 2: raft(0, 5, 4) });
    expect(await raftLeaderRule(part.repo, part.scrape).evaluate(ctx())).toEqual([]);
  });

  it("reports a consenter unreachable: ours stopped or mute, or fewer active nodes than the cluster", async () => {
    const stopped = world([o[0]!, o[1]!, node(3, "orderer3", "FABRIC_ORDERER", "STOPPED")], {
      1: raft(1, 3, 2),
      2: raft(0, 3, 2),
    });
    const [a] = await raftConsenterRule(stopped.repo, stopped.scrape).evaluate(ctx());
    expect(a).toMatchObject({ active: true, data: { unreachable: ["orderer3"], cluster_size: 3, active_nodes: 2 } });

    const mute = world(o, { 1: raft(1, 3, 3), 2: raft(0, 3, 3), 3: new Error("timeout") });
    const [b] = await raftConsenterRule(mute.repo, mute.scrape).evaluate(ctx());
    expect(b).toMatchObject({ active: true, data: { unreachable: ["orderer3"] } });

    // Our one orderer of a 3-node cluster sees only 2 active: a consenter run elsewhere is gone.
    const elsewhere = world([o[0]!], { 1: raft(1, 3, 2) });
    const [c] = await raftConsenterRule(elsewhere.repo, elsewhere.scrape).evaluate(ctx());
    expect(c).toMatchObject({ active: true, data: { unreachable: [], cluster_size: 3, active_nodes: 2 } });

    const healthy = world(o, { 1: raft(1, 3, 3), 2: raft(0, 3, 3), 3: raft(0, 3, 3) });
    const [d] = await raftConsenterRule(healthy.repo, healthy.scrape).evaluate(ctx());
    expect(d?.active).toBe(false);
  });

  it("leaves BFT channels alone", async () => {
    const w = world(o, { 1: REAL.orderer }, "BFT");
    expect(await raftLeaderRule(w.repo, w.scrape).evaluate(ctx())).toEqual([]);
    expect(await raftConsenterRule(w.repo, w.scrape).evaluate(ctx())).toEqual([]);
  });
});
