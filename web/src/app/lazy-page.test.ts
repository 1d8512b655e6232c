import { afterEach, describe, expect, it, vi } from "vitest";
import { CHUNK_LOAD_TIMEOUT_MS } from "@/app/constants";
import { ChunkLoadTimeoutError, withTimeout } from "@/app/lazy-page";

describe("route chunk time-out", () => {
  afterEach(() => vi.useRealTimers());

  it("is 120 s", () => {
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
  });

  it("rejects with a clear error when the chunk does not arrive in time", async () => {
    vi.useFakeTimers();
    const p = withTimeout(() => new Promise<never>(() => {}));
    vi.advanceTimersByTime(CHUNK_LOAD_TIMEOUT_MS);
    await expect(p).rejects.toBeInstanceOf(ChunkLoadTimeoutError);
    await expect(p).rejects.toThrow("This page did not load within 120 seconds.");
  });

  it("passes a chunk that loads in time through", async () => {
    await expect(withTimeout(() => Promise.resolve("ok"))).resolves.toBe("ok");
  });
});
