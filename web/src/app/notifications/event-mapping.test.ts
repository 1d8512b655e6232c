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
};

describe("mapNotification", () => {
  it.each([
    ["proposal.received", "info", "New Proposal Received", "/networks/12/fabric/proposals/34"],
    ["proposal.shared", "success", "Proposal Shared", "/networks/12/fabric/proposals/34"],
    ["signature.received", "info", "New Signature Received", "/networks/12/fabric/proposals/34"],
    ["signature.shared", "success", "Signature Shared", "/networks/12/fabric/proposals/34"],
    ["network.received", "info", "Network Shared With You", "/networks/fabric/shared"],
    ["network.shared", "success", "Network Shared", "/networks/12/fabric"],
    ["chaincode.received", "info", "Chaincode Received", "/sc/fabric/chaincodes/56"],
    ["chaincode.shared", "success", "Chaincode Shared", "/sc/fabric/chaincodes/56"],
    ["backup.success", "success", "Backup Completed", "/settings/backups"],
    ["backup.failure", "error", "Backup Failed", "/settings/backups"],
    ["node.downtime", "error", "Node Down", "/nodes/9"],
    ["node.recovery", "success", "Node Recovered", "/nodes/9"],
    ["s3.connection.issue", "warning", "S3 Connection Issue", "/settings/backups"],
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

  it("covers every event type of spec §9", () => {
    expect(EVENT_TYPES).toHaveLength(13);
    for (const t of EVENT_TYPES) expect(mapNotification(n(t, data)).title).not.toBe("System Notification");
  });

  it("links Besu network shares to the Besu network screen", () => {
    expect(mapNotification(n("network.shared", { ...data, platform: "besu" })).link).toBe("/networks/12/besu");
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
