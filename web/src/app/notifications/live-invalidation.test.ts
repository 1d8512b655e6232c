import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { invalidateForEvent, staleKeysFor } from "@/app/notifications/live-invalidation";
import { nodeKeys } from "@/data/nodes/keys";

describe("live invalidation", () => {
  it("makes a node's data stale on node events, and nothing on progress ticks or unknown types", () => {
    expect(staleKeysFor("node.status")).toContainEqual(nodeKeys.all);
    expect(staleKeysFor("node.deleted")).toContainEqual(nodeKeys.all);
    expect(staleKeysFor("backup.progress")).toEqual([]);
    expect(staleKeysFor("besu.bulk_create.progress")).toEqual([]);
    expect(staleKeysFor("something.new")).toEqual([]);
  });

  it("marks the cached node queries stale so the screens showing them refetch", () => {
    const qc = new QueryClient();
    qc.setQueryData(nodeKeys.detail(7), { id: 7, status: "RUNNING" });
    qc.setQueryData(["keys", "list"], []);
    invalidateForEvent(qc, "node.status");
    expect(qc.getQueryState(nodeKeys.detail(7))?.isInvalidated).toBe(true);
    expect(qc.getQueryState(["keys", "list"])?.isInvalidated).toBe(false);
  });
});
