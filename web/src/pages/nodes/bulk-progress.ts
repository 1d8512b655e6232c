import type { CreateNodeBody } from "@/api/client";

export type RowState = "pending" | "creating" | "done" | "failed";

export interface BulkRow {
  key: string;
  kind: "peer" | "orderer";
  name: string;
  body: CreateNodeBody;
  state: RowState;
  nodeId?: number;
  error?: string;
}

export type BulkAction =
  | { type: "plan"; rows: Omit<BulkRow, "state">[] }
  | { type: "creating"; key: string }
  | { type: "done"; key: string; nodeId: number }
  | { type: "failed"; key: string; error: string }
  | { type: "reset" };

/** Per-node progress of a bulk create; only `plan` replaces rows, so a retry never redoes done ones. */
export function bulkReducer(rows: BulkRow[], a: BulkAction): BulkRow[] {
  switch (a.type) {
    case "plan":
      return a.rows.map((r) => ({ ...r, state: "pending" }));
    case "reset":
      return [];
    case "creating":
      return rows.map((r) => (r.key === a.key ? { ...r, state: "creating", error: undefined } : r));
    case "done":
      return rows.map((r) => (r.key === a.key ? { ...r, state: "done", nodeId: a.nodeId, error: undefined } : r));
    case "failed":
      return rows.map((r) => (r.key === a.key ? { ...r, state: "failed", error: a.error } : r));
  }
}

/** Rows still to create (pending), in order. */
export function pendingRows(rows: readonly BulkRow[]): BulkRow[] {
  return rows.filter((r) => r.state === "pending");
}

export function bulkSummary(rows: readonly BulkRow[]): Record<RowState, number> {
  const out: Record<RowState, number> = { pending: 0, creating: 0, done: 0, failed: 0 };
  for (const r of rows) out[r.state]++;
  return out;
}
