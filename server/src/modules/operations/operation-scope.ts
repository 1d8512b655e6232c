import { AsyncLocalStorage } from "node:async_hooks";
import type { Operations, OperationHandle, BeginOperation } from "./operations.js";

/**
 * The operations the current async call runs inside, outermost first. Code deep in a call (a build
 * step, a server start) reports its phase here without every caller passing a handle down: a
 * project run that deploys a definition shows the build's `npm install` on both.
 */
const scope = new AsyncLocalStorage<readonly OperationHandle[]>();

/** Runs `fn` as operation `op` (nested inside the operations already running around it). */
export function withOperation<T>(op: OperationHandle, fn: () => Promise<T>): Promise<T> {
  return scope.run([...(scope.getStore() ?? []), op], fn);
}

/** Enters phase `name` of the innermost operation around this call (phase names belong to one operation). */
export function operationPhase(name: string, detail?: string): void {
  scope.getStore()?.at(-1)?.phase(name, detail);
}

/** Says which step of their current phase runs now, on every operation around this call. */
export function operationDetail(detail: string): void {
  for (const op of scope.getStore() ?? []) op.progress({ detail });
}

/**
 * Runs `fn` as a new operation of `ops` (when there is a registry), which succeeds or fails with it.
 * The first planned phase starts at once.
 */
export async function tracked<T>(
  ops: Pick<Operations, "begin"> | undefined,
  input: BeginOperation,
  fn: (op: OperationHandle | undefined) => Promise<T>,
): Promise<T> {
  if (!ops) return fn(undefined);
  const op = ops.begin(input);
  if (input.phases[0]) op.phase(input.phases[0]);
  try {
    const out = await withOperation(op, () => fn(op));
    op.succeed();
    return out;
  } catch (err) {
    op.fail(err);
    throw err;
  }
}
