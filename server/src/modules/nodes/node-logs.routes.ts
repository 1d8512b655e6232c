import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { LogRead, NodeLogReader } from "./node-logs.js";
import {
  logEntriesResponse,
  logFilterQuery,
  logRangeResponse,
  logRangeQuery,
  logStatsResponse,
  logTailQuery,
} from "./node-logs.schema.js";
import { idParams } from "./nodes.schema.js";

const tags = ["Logs"];

/** Set when a limit cut a line or left lines out (docs/nodes.md, "Logs"). */
export const LOG_TRUNCATED_HEADER = "x-log-truncated";

/**
 * upstream answers these routes' failures as log.LogResponse, `{success: false, error}`: the
 * console's error body (`error`, `message`, `requestId`) gets `success: false` beside it.
 */
async function withSuccessFalse(_req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (reply.statusCode < 400 || typeof payload !== "string") return payload;
  try {
    const body: unknown = JSON.parse(payload);
    if (body && typeof body === "object" && !Array.isArray(body)) return JSON.stringify({ success: false, ...body });
  } catch {
    // not JSON: as it is
  }
  return payload;
}

function answer<T>(reply: FastifyReply, read: LogRead<T>): { success: true; data: T } {
  if (read.truncated) reply.header(LOG_TRUNCATED_HEADER, "true");
  return { success: true, data: read.data };
}

/** upstream's numbered log reads: tail, range, filter and stats of a node's own log file. */
export function registerNodeLogRoutes(app: FastifyInstance, logs: NodeLogReader): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { access: "NODE_READ" } as const;

  r.get(
    "/nodes/:id/logs/tail",
    {
      config,
      onSend: withSuccessFalse,
      schema: {
        operationId: "tailLogs",
        tags,
        summary: "The last lines of a node's log, numbered from the start of the file",
        params: idParams,
        querystring: logTailQuery,
        response: { 200: logEntriesResponse },
      },
    },
    async (req, reply) => answer(reply, await logs.tail(req.params.id, req.query.lines)),
  );

  r.get(
    "/nodes/:id/logs/range",
    {
      config,
      onSend: withSuccessFalse,
      schema: {
        operationId: "getLogRange",
        tags,
        summary: "Lines start..end of a node's log",
        params: idParams,
        querystring: logRangeQuery,
        response: { 200: logRangeResponse },
      },
    },
    async (req, reply) => answer(reply, await logs.range(req.params.id, req.query.start, req.query.end)),
  );

  r.get(
    "/nodes/:id/logs/filter",
    {
      config,
      onSend: withSuccessFalse,
      schema: {
        operationId: "filterLogs",
        tags,
        summary: "Lines of a node's log matching an RE2 pattern, optionally between two line numbers",
        params: idParams,
        querystring: logFilterQuery,
        response: { 200: logEntriesResponse },
      },
    },
    async (req, reply) =>
      answer(
        reply,
        await logs.filter(req.params.id, {
          pattern: req.query.pattern,
          ignoreCase: req.query.ignoreCase === "true",
          start: req.query.start,
          end: req.query.end,
        }),
      ),
  );

  r.get(
    "/nodes/:id/logs/stats",
    {
      config,
      onSend: withSuccessFalse,
      schema: {
        operationId: "getLogStats",
        tags,
        summary: "Size, last change, line count, lines per level and first/last timestamps of a node's log",
        params: idParams,
        response: { 200: logStatsResponse },
      },
    },
    async (req) => ({ success: true as const, data: await logs.stats(req.params.id) }),
  );
}
