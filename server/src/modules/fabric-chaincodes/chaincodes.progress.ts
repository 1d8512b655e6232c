import type { Operations } from "../operations/operations.js";
import { tracked } from "../operations/operation-scope.js";

/**
 * Wraps a lifecycle step on a definition so it runs as a `chaincode.<verb>` operation on
 * `chaincode_definition:<id>`: phases, elapsed time, live and after a reload. The step names its
 * later phases itself (`operationPhase`); the build's npm steps show as the phase's detail.
 */
export function stepTracker(
  ops: Pick<Operations, "begin"> | undefined,
  definition: (id: number) => Promise<{ def: { version: string }; cc: { name: string } }>,
) {
  return <A extends unknown[], R>(
      verb: string,
      phases: readonly string[],
      fn: (definitionId: number, ...rest: A) => Promise<R>,
    ) =>
    async (definitionId: number, ...rest: A): Promise<R> => {
      if (!ops) return fn(definitionId, ...rest);
      // An unknown definition fails in the step itself, with its own message.
      const found = await definition(definitionId).catch(() => undefined);
      if (!found) return fn(definitionId, ...rest);
      // Every step takes the user as its one string argument.
      const user = rest.find((a): a is string => typeof a === "string") ?? "";
      return tracked(
        ops,
        {
          kind: `chaincode.${verb}`,
          resource: `chaincode_definition:${definitionId}`,
          label: `${verb[0]?.toUpperCase()}${verb.slice(1)} ${found.cc.name} ${found.def.version}`,
          phases,
          user,
        },
        () => fn(definitionId, ...rest),
      );
    };
}
