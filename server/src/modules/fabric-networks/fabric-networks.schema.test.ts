import { describe, expect, it } from "vitest";
import { createFabricNetworkBody } from "./fabric-networks.schema.js";
import { createNodeBody } from "../nodes/nodes.schema.js";
import { channelStatus } from "./fabric-networks.service.js";

/** Enums and limits as the upstream API (and so its Terraform provider) has them. */
describe("upstream enums and limits", () => {
  const network = (batchSize: Record<string, number>) =>
    createFabricNetworkBody.safeParse({
      name: "ch1",
      config: { peerOrganizations: [], ordererOrganizations: [], batchSize },
    });

  it("accepts batch sizes up to 2^32-1, including the provider's default 103809024", () => {
    const ok = network({ absoluteMaxBytes: 103809024, preferredMaxBytes: 103809024 });
    expect(ok.error?.issues.filter((i) => i.path.includes("batchSize")) ?? []).toEqual([]);
    expect(network({ absoluteMaxBytes: 2 ** 32 - 1 }).error?.issues.some((i) => i.path.includes("batchSize"))).not.toBe(
      true,
    );
    const tooBig = network({ absoluteMaxBytes: 2 ** 32 });
    expect(tooBig.error?.issues.some((i) => i.path.join(".") === "config.batchSize.absoluteMaxBytes")).toBe(true);
  });

  it("reads metricsProtocol in any case and stores the canonical spelling", () => {
    for (const spelling of ["prometheus", "Prometheus", "PROMETHEUS"]) {
      const r = createNodeBody.safeParse({
        name: "besu-1",
        blockchainPlatform: "BESU",
        besuNode: { networkId: 1, keyId: 1, p2pPort: 30303, rpcPort: 8545, metricsProtocol: spelling },
      });
      const issues = r.error?.issues.filter((i) => i.path.includes("metricsProtocol")) ?? [];
      expect(issues, spelling).toEqual([]);
      if (r.success)
        expect((r.data as { besuNode?: { metricsProtocol?: string } }).besuNode?.metricsProtocol).toBe("PROMETHEUS");
    }
    const bad = createNodeBody.safeParse({
      name: "b",
      blockchainPlatform: "BESU",
      besuNode: { metricsProtocol: "statsd" },
    });
    expect(bad.error?.issues.some((i) => i.path.includes("metricsProtocol"))).toBe(true);
  });
});

describe("a channel's status comes from its members", () => {
  const m = (role: string, status: string, node_status: string | null = "RUNNING") => ({ role, status, node_status });
  it("moves on from genesis_block_created as nodes join, stop and fail", () => {
    expect(channelStatus("genesis_block_created", [])).toBe("genesis_block_created");
    expect(channelStatus("genesis_block_created", [m("orderer", "pending"), m("peer", "pending")])).toBe(
      "genesis_block_created",
    );
    expect(channelStatus("genesis_block_created", [m("orderer", "failed"), m("peer", "pending")])).toBe("join_failed");
    expect(channelStatus("genesis_block_created", [m("orderer", "joined"), m("peer", "failed")])).toBe(
      "partially_joined",
    );
    expect(channelStatus("genesis_block_created", [m("orderer", "joined"), m("peer", "joined")])).toBe("running");
    expect(channelStatus("genesis_block_created", [m("orderer", "joined"), m("peer", "joined", "STOPPED")])).toBe(
      "degraded",
    );
    expect(
      channelStatus("genesis_block_created", [m("orderer", "joined", "STOPPED"), m("peer", "joined", "RUNNING")]),
    ).toBe("stopped");
    // An imported channel whose orderers are elsewhere: its joined, running peers make it run.
    expect(channelStatus("imported", [m("peer", "joined")])).toBe("running");
  });
});
