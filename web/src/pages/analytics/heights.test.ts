import { describe, expect, it } from "vitest";
import { channelHeights, type MapNode } from "@/pages/analytics/heights";

const n = (id: string, role: string, height: number, healthy = true): MapNode => ({
  nodeId: id.length,
  id,
  role,
  mspId: "Org1MSP",
  mine: true,
  healthy,
  height,
  joinStatus: "joined",
});

describe("channelHeights", () => {
  it("measures each answering node against the highest", () => {
    const h = channelHeights([n("peer1", "peer", 8), n("peer0", "peer", 10), n("orderer0", "orderer", 10)]);
    expect(h.max).toBe(10);
    expect(h.rows.map((r) => [r.id, r.behind])).toEqual([
      ["orderer0", 0],
      ["peer0", 0],
      ["peer1", 2],
    ]);
  });

  it("gives no 'behind' to nodes that did not answer and keeps them out of the max", () => {
    const h = channelHeights([n("peer0", "peer", 5), n("peer1", "peer", 0), n("peer2", "peer", 99, false)]);
    expect(h.max).toBe(5);
    expect(h.rows.map((r) => r.behind)).toEqual([0, null, null]);
  });

  it("is empty for a channel without members", () => {
    expect(channelHeights([])).toEqual({ max: 0, rows: [] });
  });
});
