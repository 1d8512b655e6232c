import { describe, expect, it } from "vitest";
import type { Alert } from "@/api/client";
import { activeAlerts } from "@/data/alerts/alert-display";

const alert = (over: Partial<Alert>): Alert => ({
  id: 1,
  rule: "peer.lag",
  key: "peer:9:network:12",
  subject: "peer0 on mychannel",
  status: "firing",
  pendingSince: "2026-01-01T00:00:00Z",
  firingSince: "2026-01-01T00:05:00Z",
  resolvedAt: null,
  notified: true,
  data: {
    node_id: 9,
    node_name: "peer0",
    channel_name: "mychannel",
    network_id: 12,
    lag: 30,
    peer_height: 90,
    orderer_height: 120,
  },
  ...over,
});

describe("activeAlerts", () => {
  it("reads each rule's alert as its notification, pending and firing only, newest first", () => {
    const list = activeAlerts([
      alert({}),
      alert({ id: 2, status: "resolved" }),
      alert({
        id: 3,
        rule: "certificate.expiry",
        status: "firing",
        firingSince: "2026-01-02T00:00:00Z",
        data: { kind: "ca", name: "Org1", link: "/organizations/4", days_left: 3 },
      }),
      alert({
        id: 4,
        rule: "raft.leader",
        status: "pending",
        firingSince: null,
        pendingSince: "2026-01-01T12:00:00Z",
        data: { channel_name: "mychannel", network_id: 12 },
      }),
    ]);
    expect(list.map((a) => [a.key, a.title, a.state, a.link])).toEqual([
      ["certificate.expiry:peer:9:network:12", "Certificate Expiring", "Firing", "/organizations/4"],
      ["raft.leader:peer:9:network:12", "Raft Leader Lost", "Pending", "/networks/12/fabric"],
      ["peer.lag:peer:9:network:12", "Peer Lagging", "Firing", "/nodes/9"],
    ]);
    expect(list[2]?.message).toBe("Peer peer0 is 30 blocks behind on channel mychannel (height 90 of 120)");
    expect(list[0]?.kind).toBe("warning");
  });

  it("shows a node outage the node runtime tracks as 'Node Down'", () => {
    const [down] = activeAlerts([
      alert({
        id: 9,
        rule: "node.downtime",
        key: "node:9",
        status: "pending",
        firingSince: null,
        data: { node_id: 9, node_name: "peer0", downtime_mins: 0.5, reason: "the process exited (signal SIGKILL)" },
      }),
    ]);
    expect(down).toMatchObject({ key: "node.downtime:node:9", title: "Node Down", state: "Pending", link: "/nodes/9" });
    expect(down?.message).toBe("Node peer0 has been down for 30 seconds: the process exited (signal SIGKILL)");
  });
});
