import { RuntimeError } from "../errors.js";
import type { ProcessSpec, ProcessState, Supervisor } from "../supervisor.types.js";

/** The engine a spec's container runs on ("local" unless it names another). */
export const engineOf = (spec: ProcessSpec): string => spec.container?.engine ?? "local";

/**
 * One supervisor over the runtimes: specs with a `container` go to the container supervisor of
 * their engine (made on first use, so a console without Docker never touches an engine), the rest
 * to the process one. Calls by id go to whichever runtime holds that id.
 */
export function createRuntimeSupervisor(p: {
  process: Supervisor;
  /** The container supervisor of an engine, or an error naming why there is none. */
  docker: (engine: string) => Supervisor;
}): Supervisor {
  const engines = new Map<string, Supervisor>();
  const containers = (engine: string): Supervisor => {
    let s = engines.get(engine);
    if (!s) {
      s = p.docker(engine);
      engines.set(engine, s);
    }
    return s;
  };
  const all = (): Supervisor[] => [p.process, ...engines.values()];
  const forSpec = (spec: ProcessSpec): Supervisor => (spec.container ? containers(engineOf(spec)) : p.process);
  const forId = (id: string): Supervisor | undefined => all().find((s) => s.get(id));
  /** A spec whose runtime or engine changed: the node stops where it ran before it starts anew. */
  const leaveOthers = async (spec: ProcessSpec): Promise<void> => {
    const target = forSpec(spec);
    for (const other of all()) {
      if (other === target) continue;
      const s = other.get(spec.id);
      if (!s) continue;
      if (s.status !== "STOPPED" && s.status !== "PENDING") await other.stop(spec.id);
      other.remove(spec.id);
    }
  };
  return {
    async start(spec): Promise<ProcessState> {
      await leaveOthers(spec);
      return forSpec(spec).start(spec);
    },
    async restart(spec): Promise<ProcessState> {
      await leaveOthers(spec);
      return forSpec(spec).restart(spec);
    },
    async adopt(spec): Promise<ProcessState> {
      return forSpec(spec).adopt(spec);
    },
    async stop(id, opts): Promise<ProcessState> {
      const s = forId(id);
      if (!s) throw new RuntimeError("PROCESS_UNKNOWN", `no supervised process "${id}"`, { id });
      return s.stop(id, opts);
    },
    get: (id) => forId(id)?.get(id),
    list: () => all().flatMap((s) => s.list()),
    async tailLog(id, lines): Promise<string[]> {
      const s = forId(id);
      if (!s) throw new RuntimeError("PROCESS_UNKNOWN", `no supervised process "${id}"`, { id });
      return s.tailLog(id, lines);
    },
    remove(id): void {
      for (const s of all()) s.remove(id);
    },
    close(): void {
      for (const s of all()) s.close();
    },
  };
}
