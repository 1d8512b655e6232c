import { describe, expect, it } from "vitest";
import type { ApiNotification } from "@/api/client";
import { badgeText, bytesToMB, EVENT_TYPES, mapNotification } from "@/app/notifications/event-mapping";

const n = (
  event_type: string,
  event_data: Record<string, unknown> = {},
  created_at = "2025-01-02T03:04:05Z",
): ApiNotification => ({
  id: 7,
  event_type,
  event_data,
  created_at,
  is_read: false,
});

const data = {
  channel_name: "mychannel",
  from_user: "alice",
  network_id: 12,
  proposal_id: 34,
  signer_msp_id: "Org2MSP",
  platform: "fabric",
  network_name: "supply",
  chaincode_name: "basic",
  chaincode_id: 56,
  version: "1.0",
  shared_with_nodes: 3,
  target_name: "s3-main",
  size: 1572864,
  reason: "disk full",
  node_name: "peer0",
  node_id: 9,
  downtime_mins: 15,
  bucket: "backups",
  endpoint: "http://minio:9000",
  kind: "ca",
  name: "Org1",
  id: 4,
  link: "/organizations/4",
  days_left: 12,
  peer_height: 90,
  orderer_height: 120,
  lag: 30,
  unreachable: ["orderer2"],
};

describe("mapNotification", () => {
  it.each([
    ["proposal.received", "info", "New Proposal Received", "/networks/fabric/proposals/34/sign"],
    ["proposal.shared", "success", "Proposal Shared", "/networks/12/fabric/proposals/34"],
    ["signature.received", "info", "New Signature Received", "/networks/12/fabric/proposals/34"],
    ["signature.shared", "success", "Signature Shared", "/networks/12/fabric/proposals/34"],
    ["network.received", "info", "Network Shared With You", "/networks/fabric/shared"],
    ["network.shared", "success", "Network Shared", "/networks/12/fabric"],
    ["chaincode.received", "info", "Chaincode Received", "/networks/12/fabric?tab=proposals"],
    ["chaincode.shared", "success", "Chaincode Shared", "/networks/12/fabric?tab=proposals"],
    ["backup.success", "success", "Backup Completed", "/settings/backups"],
    ["backup.failure", "error", "Backup Failed", "/settings/backups"],
    ["node.downtime", "error", "Node Down", "/nodes/9"],
    ["node.recovery", "success", "Node Recovered", "/nodes/9"],
    ["s3.connection.issue", "warning", "S3 Connection Issue", "/settings/backups"],
    ["certificate.expiring", "warning", "Certificate Expiring", "/organizations/4"],
    ["peer.lagging", "warning", "Peer Lagging", "/nodes/9"],
    ["peer.caught_up", "success", "Peer Caught Up", "/nodes/9"],
    ["raft.no_leader", "error", "Raft Leader Lost", "/networks/12/fabric"],
    ["raft.consenter_unreachable", "error", "Raft Consenter Unreachable", "/networks/12/fabric"],
    ["raft.recovered", "success", "Raft Recovered", "/networks/12/fabric"],
  ])("%s → %s '%s' linking to %s", (type, kind, title, link) => {
    const m = mapNotification(n(type, data));
    expect(m.type).toBe(kind);
    expect(m.title).toBe(title);
    expect(m.link).toBe(link);
    expect(m.linkText).toBeTruthy();
    expect(m.message.length).toBeGreaterThan(0);
    expect(m.eventType).toBe(type);
    expect(m.read).toBe(false);
    expect(m.id).toBe(7);
  });

  it("covers every event type of spec §9 and the console's alerts", () => {
    expect(EVENT_TYPES).toHaveLength(19);
    for (const t of EVENT_TYPES) expect(mapNotification(n(t, data)).title).not.toBe("System Notification");
  });

  it("links a proposal with no local network (network_id 0) to its sign page", () => {
    for (const type of ["proposal.shared", "signature.received", "signature.shared", "proposal.received"]) {
      expect(mapNotification(n(type, { ...data, network_id: 0, proposal_id: "p-1" })).link).toBe(
        "/networks/fabric/proposals/p-1/sign",
      );
    }
  });

  it("links Besu network shares to the Besu network screen", () => {
    expect(mapNotification(n("network.shared", { ...data, platform: "besu" })).link).toBe("/networks/12/besu");
  });

  it("links a chaincode proposal of a channel without a local network to the shared networks", () => {
    for (const type of ["chaincode.received", "chaincode.shared"]) {
      expect(mapNotification(n(type, { ...data, network_id: 0 })).link).toBe("/networks/fabric/shared");
    }
  });

  it("shows backup size in MB with two decimals", () => {
    expect(mapNotification(n("backup.success", data)).message).toContain("1.50 MB");
    expect(bytesToMB(0)).toBe("0.00");
    expect(bytesToMB(1048576 * 2.345)).toBe("2.35");
    expect(bytesToMB("garbage")).toBe("0.00");
  });

  it("puts the reason into failure messages and the downtime into node messages", () => {
    expect(mapNotification(n("backup.failure", data)).message).toContain("disk full");
    expect(mapNotification(n("node.downtime", data)).message).toContain("15 minutes");
    // The reason the server gives is shown, and short downtimes in seconds.
    expect(
      mapNotification(
        n("node.downtime", { node_name: "peer0", downtime_mins: 0.5, reason: "the process exited (signal SIGKILL)" }),
      ).message,
    ).toBe("Node peer0 has been down for 30 seconds: the process exited (signal SIGKILL)");
    expect(mapNotification(n("s3.connection.issue", data)).message).toContain("backups");
  });

  it("says what the alerts found, from their data", () => {
    expect(mapNotification(n("certificate.expiring", data)).message).toBe(
      "The CA certificate of Org1 expires in 12 days",
    );
    const identity = mapNotification(
      n("certificate.expiring", { kind: "identity", name: "admin", link: "/settings/keys/8", days_left: 1 }),
    );
    expect(identity).toMatchObject({ link: "/settings/keys/8", linkText: "View Key" });
    expect(identity.message).toBe("The identity certificate of admin expires in 1 day");
    expect(mapNotification(n("certificate.expiring", { kind: "node", name: "peer0", days_left: -2 })).message).toBe(
      "The node certificate of peer0 expired 2 days ago",
    );
    // A link that is not a console path is not followed.
    expect(mapNotification(n("certificate.expiring", { link: "https://evil.example" })).link).toBe("/settings/keys");
    expect(mapNotification(n("certificate.expiring", { link: "//evil.example" })).link).toBe("/settings/keys");
    expect(mapNotification(n("peer.lagging", data)).message).toBe(
      "Peer peer0 is 30 blocks behind on channel mychannel (height 90 of 120)",
    );
    expect(mapNotification(n("peer.caught_up", data)).message).toBe("Peer peer0 has caught up on channel mychannel");
    expect(mapNotification(n("raft.consenter_unreachable", data)).message).toBe(
      "Channel mychannel: orderer2 is unreachable",
    );
    expect(
      mapNotification(
        n("raft.consenter_unreachable", { channel_name: "c", unreachable: [], cluster_size: 5, active_nodes: 3 }),
      ).message,
    ).toBe("Channel c: 2 of 5 consenters are unreachable");
    expect(mapNotification(n("raft.no_leader", data)).message).toContain("mychannel has no Raft leader");
    expect(mapNotification(n("raft.recovered", { channel_name: "c", problem: "no_leader" })).message).toBe(
      "Channel c has a Raft leader again",
    );
    expect(mapNotification(n("raft.recovered", { channel_name: "c", problem: "consenter_unreachable" })).message).toBe(
      "Every consenter of channel c is reachable again",
    );
  });

  it("turns an unknown type into an info 'System Notification' with 'Event: {type}'", () => {
    const m = mapNotification(n("weird.thing"));
    expect(m).toMatchObject({ type: "info", title: "System Notification", message: "Event: weird.thing" });
    expect(m.link).toBeUndefined();
  });

  it("shows 'Invalid date' for a bad timestamp", () => {
    expect(mapNotification(n("node.recovery", data, "not a date")).timestamp).toBe("Invalid date");
    expect(mapNotification(n("node.recovery", data)).timestamp).not.toBe("Invalid date");
  });

  it("copes with missing event data", () => {
    expect(mapNotification(n("node.downtime")).link).toBe("/nodes/unknown");
  });
});

describe("badgeText", () => {
  it("is empty at zero, the number up to 9, and '9+' above 9", () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(-1)).toBeNull();
    expect(badgeText(1)).toBe("1");
    expect(badgeText(9)).toBe("9");
    expect(badgeText(10)).toBe("9+");
    expect(badgeText(250)).toBe("9+");
  });
});
