import type { ProcessSpec } from "../../runtime/index.js";
import type { NodePlanner } from "./nodes.plan.js";
import type { NodeRow } from "./nodes.repo.js";
import type { NodesServiceDeps } from "./nodes.types.js";

/** Starting, stopping and restarting a stored node through the supervisor. */
export interface NodeRunner {
  startRow(row: NodeRow): Promise<void>;
  /** Makes sure the supervisor knows the node (it may run, left by an earlier console). */
  attach(row: NodeRow): Promise<ProcessSpec>;
  /** Starts the node without waiting; a failure is recorded as the node's ERROR status. */
  startInBackground(row: NodeRow): void;
  restartRow(row: NodeRow): Promise<void>;
  stopRow(row: NodeRow): Promise<void>;
}

/**
 * The process side of a node, shared by create (start after creation), update (restart with the new
 * config) and the lifecycle verbs. A node whose spec names a problem (no `besu` found) goes to ERROR
 * with that reason instead of being spawned.
 */
export function createNodeRunner(deps: Pick<NodesServiceDeps, "runtime">, planner: NodePlanner): NodeRunner {
  const { runtime } = deps;
  const sup = runtime.supervisor;
  const { specOf } = planner;

  async function startRow(row: NodeRow): Promise<void> {
    const { spec, problem } = await specOf(row);
    if (problem) {
      await runtime.setStatus(row.slug, "ERROR", problem);
      return;
    }
    await sup.start(spec);
  }

  /** Makes sure the supervisor knows the node (it may run, left by an earlier console). */
  async function attach(row: NodeRow): Promise<ProcessSpec> {
    const { spec } = await specOf(row);
    if (!sup.get(row.slug)) await sup.adopt(spec);
    return spec;
  }

  function startInBackground(row: NodeRow): void {
    void startRow(row).catch((err: unknown) =>
      runtime.setStatus(row.slug, "ERROR", `start failed: ${(err as Error).message}`).catch(() => undefined),
    );
  }

  async function restartRow(row: NodeRow): Promise<void> {
    const { spec, problem } = await specOf(row);
    if (problem) {
      await runtime.setStatus(row.slug, "ERROR", problem);
      return;
    }
    runtime.plan(row.slug, "restart");
    await sup.restart(spec);
  }

  async function stopRow(row: NodeRow): Promise<void> {
    await attach(row);
    runtime.plan(row.slug, "stop");
    await sup.stop(row.slug);
  }

  return { startRow, attach, startInBackground, restartRow, stopRow };
}
