import type { QueryClient, QueryKey } from "@tanstack/react-query";

/**
 * After a delete: drop the deleted resource's detail query, then refresh the rest of its resource.
 * Refetching the detail instead would answer 404 while its page is still open, and the page's error
 * state would unmount the dialog whose success callback navigates away.
 */
export async function forgetDeleted(qc: QueryClient, detail: QueryKey, all: QueryKey): Promise<void> {
  qc.removeQueries({ queryKey: detail, exact: true });
  await qc.invalidateQueries({ queryKey: all });
}
