import { lazy, type ComponentType, type LazyExoticComponent } from "react";
import { CHUNK_LOAD_TIMEOUT_MS } from "@/app/constants";

/** Raised when a route chunk does not arrive within the time-out; the route error screen offers a retry. */
export class ChunkLoadTimeoutError extends Error {
  constructor(ms: number) {
    super(`This page did not load within ${Math.round(ms / 1000)} seconds.`);
    this.name = "ChunkLoadTimeoutError";
  }
}

/** Races a loader against the chunk time-out (120 s by default). */
export function withTimeout<T>(load: () => Promise<T>, ms = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadTimeoutError(ms)), ms);
    load().then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

export type PageLoader = () => Promise<ComponentType>;

/** A route-level code-split component (React.lazy) whose chunk must load within the time-out. */
export function lazyPage(load: PageLoader): LazyExoticComponent<ComponentType> {
  return lazy(async () => ({ default: await withTimeout(load) }));
}
