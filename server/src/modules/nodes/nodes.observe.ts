import { PassThrough, type Readable } from "node:stream";
import { NotFoundError } from "../../http/errors.js";
import { followLog, readLastLines } from "../../runtime/index.js";
import { deploymentOf } from "./nodes.mapping.js";
import type { NodeRow, NodesRepo } from "./nodes.repo.js";

/** Node events and logs: what happened to a node and what it printed. */
export function createNodeObserver(deps: { repo: Pick<NodesRepo, "byId" | "events"> }) {
  async function mustGet(id: number): Promise<NodeRow> {
    const row = await deps.repo.byId(id);
    if (!row) throw new NotFoundError(`node ${id} not found`);
    return row;
  }
  async function logFile(id: number): Promise<string> {
    const d = deploymentOf(await mustGet(id)) as { logFile?: string };
    if (!d.logFile) throw new NotFoundError(`node ${id} has no log yet`);
    return d.logFile;
  }
  return {
    /** The node's log file, as its deployment names it; 404 for an unknown node or one never deployed. */
    logFile,
    async events(id: number, page: number, limit: number) {
      await mustGet(id);
      const { rows, total } = await deps.repo.events(id, limit, (page - 1) * limit);
      return {
        items: rows.map((r) => {
          let data: Record<string, unknown> = {};
          try {
            data = JSON.parse(r.data) as Record<string, unknown>;
          } catch {
            data = {};
          }
          return { id: r.id, node_id: r.node_id, type: r.type, data, created_at: r.created_at };
        }),
        total,
        page,
      };
    },
    async tail(id: number, lines: number): Promise<string> {
      const out = await readLastLines(await logFile(id), lines, Math.max(64 * 1024, lines * 512));
      return out.length ? `${out.join("\n")}\n` : "";
    },
    /**
     * Tail plus follow as a stream of plain text lines, or of Server-Sent Events (one `data:` event
     * per line); `signal` (client gone) ends it.
     */
    async follow(id: number, lines: number, signal: AbortSignal, format: "text" | "sse" = "text"): Promise<Readable> {
      const file = await logFile(id);
      const stream = new PassThrough();
      const follower = await followLog(file, {
        tailLines: lines,
        onLines: (l) =>
          stream.write(format === "sse" ? l.map((line) => `data: ${line}\n\n`).join("") : `${l.join("\n")}\n`),
      });
      const end = (): void => {
        follower.stop();
        stream.end();
      };
      if (signal.aborted) end();
      else signal.addEventListener("abort", end, { once: true });
      stream.on("close", () => follower.stop());
      return stream;
    },
  };
}

export type NodeObserver = ReturnType<typeof createNodeObserver>;
