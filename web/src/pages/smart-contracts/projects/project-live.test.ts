import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { invalidateForEvent } from "@/app/notifications/live-invalidation";
import { projectKeys } from "@/data/projects/project-data";

describe("a project's live state", () => {
  it("project.status makes the list and the project stale, never the open files", () => {
    const qc = new QueryClient();
    qc.setQueryData(projectKeys.list(), []);
    qc.setQueryData(projectKeys.detail(3), { id: 3, status: "running" });
    qc.setQueryData(projectKeys.file(3, "lib/assetTransfer.js"), "the saved text");
    qc.setQueryData(projectKeys.tree(3), { name: "", path: "", isDir: true });
    invalidateForEvent(qc, "project.status");
    expect(qc.getQueryState(projectKeys.list())?.isInvalidated).toBe(true);
    expect(qc.getQueryState(projectKeys.detail(3))?.isInvalidated).toBe(true);
    expect(qc.getQueryState(projectKeys.file(3, "lib/assetTransfer.js"))?.isInvalidated).toBe(false);
    expect(qc.getQueryState(projectKeys.tree(3))?.isInvalidated).toBe(false);
  });
});
