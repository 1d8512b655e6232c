import { describe, expect, it } from "vitest";
import { createQueryClient, markFetching } from "@/data/query-client";

describe("markFetching", () => {
  it("keeps data-fetching at the number of queries in flight", async () => {
    const client = createQueryClient();
    const root = { dataset: {} as Record<string, string> } as unknown as HTMLElement;
    const stop = markFetching(client, root);
    expect(root.dataset.fetching).toBe("0");
    let finish = (_v: string) => {};
    const pending = client.fetchQuery({ queryKey: ["slow"], queryFn: () => new Promise<string>((r) => (finish = r)) });
    await Promise.resolve();
    expect(root.dataset.fetching).toBe("1");
    finish("done");
    await pending;
    await new Promise((r) => setTimeout(r, 0));
    expect(root.dataset.fetching).toBe("0");
    stop();
  });
});
