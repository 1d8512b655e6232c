import { describe, expect, it } from "vitest";
import { peerB, peerC, received, sent } from "@/test-support/federation-fixtures";
import type { ShareNetworkResult } from "@/data/sharing/types";
import {
  canDecide,
  importedNetworkHref,
  recipientName,
  recipientOutcomes,
  shareOutcome,
  shareStatusBadge,
  shareTargets,
} from "@/pages/shared-networks/share-view";

const result: ShareNetworkResult = {
  shareId: "share-2",
  networkId: 3,
  recipients: [7, 8],
  status: "sent",
  metadata: {},
  genesisBlock: "",
  results: [
    { recipient: 7, nodeId: "cl-bbbb", status: "sent", error: null },
    { recipient: 8, nodeId: "cl-cccc", status: "sent", error: null },
  ],
};

describe("shared network view", () => {
  it("labels every status", () => {
    expect(shareStatusBadge("pending")).toEqual({ label: "Pending", variant: "warning" });
    expect(shareStatusBadge("failed").variant).toBe("destructive");
    expect(shareStatusBadge("accepted").variant).toBe("success");
  });

  it("lets only pending received shares be decided", () => {
    expect(canDecide(received)).toBe(true);
    expect(canDecide({ ...received, status: "accepted" })).toBe(false);
    expect(canDecide({ ...sent, status: "pending" })).toBe(false);
  });

  it("links an accepted share to its imported network by platform", () => {
    expect(importedNetworkHref(received)).toBeUndefined();
    expect(importedNetworkHref({ localNetworkId: 12, platform: "fabric" })).toBe("/networks/12/fabric");
    expect(importedNetworkHref({ localNetworkId: 4, platform: "besu" })).toBe("/networks/4/besu");
  });

  it("names recipients by node id, and unknown ones by connection id", () => {
    expect(recipientName(7, [peerB])).toBe("cl-bbbb");
    expect(recipientName(9, [peerB])).toBe("connection #9");
    expect(recipientName(7, undefined)).toBe("connection #7");
  });

  it("offers every connection that is not revoked", () => {
    const revoked = { ...peerC, status: "revoked" as const };
    const unreachable = { ...peerB, id: 9, status: "unreachable" as const };
    expect(shareTargets([peerB, revoked, unreachable]).map((p) => p.id)).toEqual([7, 9]);
    expect(shareTargets(undefined)).toEqual([]);
  });

  it("reports success, a partial share with each failed recipient, and a failure", () => {
    const ok = shareOutcome(result, [peerB, peerC]);
    expect(ok).toMatchObject({ kind: "success", title: "Network shared" });
    expect(ok.description).toContain("cl-bbbb, cl-cccc");

    const [first, second] = result.results;
    const partial = shareOutcome(
      { ...result, results: [first!, { ...second!, status: "failed", error: "connection refused" }] },
      [peerB, peerC],
    );
    expect(partial).toMatchObject({ kind: "warning", title: "Shared with 1 of 2 consoles" });
    expect(partial.description).toBe("cl-cccc: connection refused");

    const failed = shareOutcome(
      {
        ...result,
        status: "failed",
        results: result.results.map((r) => ({ ...r, status: "failed" as const, error: "timeout" })),
      },
      [peerB, peerC],
    );
    expect(failed.kind).toBe("error");
    expect(failed.description).toBe("cl-bbbb: timeout\ncl-cccc: timeout");
  });

  it("reads each recipient's outcome of a sent share, or gives each the share's status", () => {
    const withResults = {
      ...sent,
      dataJson: {
        recipients: [
          { recipient: 7, nodeId: "cl-bbbb", status: "accepted", error: null },
          { recipient: 8, nodeId: "cl-cccc", status: "failed", error: "timeout" },
        ],
        metadata: {},
      },
    };
    expect(recipientOutcomes(withResults)).toEqual([
      { recipient: 7, nodeId: "cl-bbbb", status: "accepted", error: null },
      { recipient: 8, nodeId: "cl-cccc", status: "failed", error: "timeout" },
    ]);
    expect(recipientOutcomes({ ...sent, dataJson: { recipients: "x" } })).toEqual([
      { recipient: 7, nodeId: undefined, status: "sent", error: null },
      { recipient: 8, nodeId: undefined, status: "sent", error: null },
    ]);
  });

  it("shows statuses it does not know as they are", () => {
    expect(shareStatusBadge("accepting")).toEqual({ label: "Accepting", variant: "warning" });
    expect(shareStatusBadge("queued")).toEqual({ label: "queued", variant: "secondary" });
  });
});
