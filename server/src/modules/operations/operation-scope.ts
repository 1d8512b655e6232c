import { AsyncLocalStorage } from "node:async_hooks";
import type { Operations, OperationHandle, BeginOperation } from "./operations.js";

/**
 * The operations the current async call runs inside, outermost first. Code deep in a call (a build
 * step, a server start) reports its phase here without every caller passing a handle down: a
 * project run that deploys a definition shows the build's `npm install` on both.
 */
const scope = new AsyncLocalStorage<readonly OperationHandle[]>();
/** `withOperation` calls not yet settled. */
let active = 0;

/**
 * Runs `fn` as operation `op` (nested inside the operations already running around it).
 *
 * When the last such call settles, the storage is disabled again: on Node 20 an AsyncLocalStorage,
 * once run, keeps an async hook on every promise the process makes afterwards, which cost each API
 * call after the first chaincode deploy ~10% more CPU (issue 34: a chaincode query, ~0.2 CPU-ms; a
 * promise-heavy loop ran 50% slower). The next `run` enables it again. What this changes: work left
 * running after its step's function settled (an un-awaited promise) reports nothing once no step of
 * any operation is running, where it reported to its operation before (which ignores reports once it
 * ended); the steps themselves (awaited) report as before.
 */
export function withOperation<T>(op: OperationHandle, fn: () => Promise<T>): Promise<T> {
  active++;
  let out: Promise<T>;
  try {
    out = scope.run([...(scope.getStore() ?? []), op], fn);
  } catch (err) {
    settled();
    throw err;
  }
  out.then(settled, settled);
  return out;
}

function settled(): void {
  if (--active === 0) scope.disable();
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
