import { RuntimeError } from "../errors.js";
import type { ProcessSpec, ProcessState, Supervisor } from "../supervisor.types.js";

/**
 * One supervisor over two runtimes: specs with a `container` go to the Docker one (made on first
 * use, so a console without Docker never touches an engine), the rest to the process one. Calls by
 * id go to whichever runtime holds that id.
 */
export function createRuntimeSupervisor(p: {
  process: Supervisor;
  /** The container supervisor, or an error naming why there is none. */
  docker: () => Supervisor;
}): Supervisor & { docker(): Supervisor | undefined } {
  let docker: Supervisor | undefined;
  const containers = (): Supervisor => (docker ??= p.docker());
  const forSpec = (spec: ProcessSpec): Supervisor => {
    if (spec.container) return containers();
    // A node moved from docker to service: the container goes first.
    return p.process;
  };
  const forId = (id: string): Supervisor | undefined => {
    if (docker?.get(id)) return docker;
    if (p.process.get(id)) return p.process;
    return undefined;
  };
  /** A spec whose runtime changed: the node stops in the old one before it starts in the new. */
  const leaveOther = async (spec: ProcessSpec): Promise<void> => {
    const other = spec.container ? p.process : docker;
    const s = other?.get(spec.id);
    if (!other || !s) return;
    if (s.status !== "STOPPED" && s.status !== "PENDING") await other.stop(spec.id);
    other.remove(spec.id);
  };
  return {
    async start(spec): Promise<ProcessState> {
      await leaveOther(spec);
      return forSpec(spec).start(spec);
    },
    async restart(spec): Promise<ProcessState> {
      await leaveOther(spec);
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
    list: () => [...p.process.list(), ...(docker?.list() ?? [])],
    async tailLog(id, lines): Promise<string[]> {
      const s = forId(id);
      if (!s) throw new RuntimeError("PROCESS_UNKNOWN", `no supervised process "${id}"`, { id });
      return s.tailLog(id, lines);
    },
    remove(id): void {
      p.process.remove(id);
      docker?.remove(id);
    },
    close(): void {
      p.process.close();
      docker?.close();
    },
    docker: () => docker,
  };
}
