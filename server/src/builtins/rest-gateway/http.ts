import type { IncomingMessage, ServerResponse } from "node:http";
import type { Metrics } from "./metrics.js";
import { PeerCallError } from "./peer.js";
import { parseCallRequest, type CallRequest } from "./requests.js";

/** Largest request body accepted (1 MiB); chaincode arguments beyond that belong in a file store. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** An error answer: `{error: code, message, details?}` with this status. */
export class HttpError extends Error {
  override name = "HttpError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** What the routes do; the HTTP layer only parses, checks, answers, counts and logs. */
export interface GatewayHandlers {
  healthz(): unknown;
  metricsText(): string;
  invoke(call: CallRequest): Promise<unknown>;
  query(call: CallRequest): Promise<unknown>;
}

const ROUTES: Record<string, "GET" | "POST"> = {
  "/healthz": "GET",
  "/metrics": "GET",
  "/invoke": "POST",
  "/query": "POST",
};

const tooLarge = (): HttpError =>
  new HttpError(413, "PAYLOAD_TOO_LARGE", `request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB)`);

/** Whether the declared body length is already over the limit (used before `100 Continue` too). */
export function declaresTooLarge(req: IncomingMessage): boolean {
  return Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES;
}

/**
 * Reads the body up to the limit. Past the limit it rejects at once but keeps the stream flowing,
 * so that Node discards the rest and the client, still sending, can read the 413.
 */
function readBody(req: IncomingMessage): Promise<Buffer> {
  if (declaresTooLarge(req)) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        over = true;
        chunks.length = 0;
        reject(tooLarge());
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
    // The client went away before the end of its body (after "end" this changes nothing).
    req.on("close", () => reject(new HttpError(400, "INVALID_INPUT", "body: the client closed the request early")));
  });
}

async function readCall(req: IncomingMessage, kind: "invoke" | "query"): Promise<CallRequest> {
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (type !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new HttpError(
      415,
      "UNSUPPORTED_MEDIA_TYPE",
      `Content-Type must be application/json, not '${type || "none"}'`,
    );
  }
  const raw = await readBody(req);
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch (err) {
    throw new HttpError(400, "INVALID_INPUT", `body: not valid JSON (${(err as Error).message})`);
  }
  const parsed = parseCallRequest(body, kind);
  if (Array.isArray(parsed)) {
    const message = parsed.map((p) => `${p.path}: ${p.message}`).join("; ");
    throw new HttpError(400, "INVALID_INPUT", message, { errors: parsed });
  }
  return parsed;
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  type: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body), ...headers });
  res.end(body);
}

const sendJson = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void =>
  send(res, status, JSON.stringify(value), "application/json; charset=utf-8", headers);

function toHttpError(err: unknown, log: (line: string) => void): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof PeerCallError) {
    return err.timedOut
      ? new HttpError(504, "PEER_TIMEOUT", err.message, err.details)
      : new HttpError(502, "PEER_ERROR", err.message, err.details);
  }
  // A bug of ours: the stack goes to stderr, the caller gets a generic message.
  log(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return new HttpError(500, "INTERNAL", "internal error; see the gateway's log");
}

/** Log-safe text: bounded, and JSON-quoted by the caller so a newline cannot forge a line. */
const clip = (s: string): string => (s.length > 200 ? `${s.slice(0, 200)}…` : s);

/**
 * The request listener. Each request is answered with JSON (or Prometheus text for /metrics),
 * counted in the metrics and logged as one JSON line on stdout: method, path, chaincode, function,
 * status and milliseconds; never arguments, transient data or key material.
 */
export function createRequestListener(
  handlers: GatewayHandlers,
  metrics: Metrics,
  io: { accessLog: (line: string) => void; errorLog: (line: string) => void },
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const started = process.hrtime.bigint();
    const path = new URL(req.url ?? "/", "http://gateway").pathname;
    const allowed = Object.hasOwn(ROUTES, path) ? ROUTES[path] : undefined;
    const route = allowed ? path : "other";
    let call: CallRequest | undefined;
    let errorCode: string | undefined;
    res.once("close", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.observe(route, res.statusCode, seconds);
      const entry = {
        time: new Date().toISOString(),
        method: req.method,
        path: clip(path),
        ...(call ? { chaincode: clip(call.chaincode), function: clip(call.function) } : {}),
        status: res.statusCode,
        ms: Math.round(seconds * 1e4) / 10,
        ...(errorCode ? { error: errorCode } : {}),
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      io.accessLog(JSON.stringify(entry));
    });

    const answer = async (): Promise<void> => {
      if (!allowed) throw new HttpError(404, "NOT_FOUND", `no route ${req.method} ${clip(path)}`);
      if (req.method !== allowed) {
        throw new HttpError(405, "METHOD_NOT_ALLOWED", `${path} accepts ${allowed} only`, undefined, {
          Allow: allowed,
        });
      }
      if (path === "/healthz") return sendJson(res, 200, handlers.healthz());
      if (path === "/metrics")
        return send(res, 200, handlers.metricsText(), "text/plain; version=0.0.4; charset=utf-8");
      const kind = path === "/invoke" ? "invoke" : "query";
      call = await readCall(req, kind);
      sendJson(res, 200, await handlers[kind](call));
    };
    answer().catch((err: unknown) => {
      const e = toHttpError(err, io.errorLog);
      errorCode = e.code;
      sendJson(
        res,
        e.status,
        { error: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) },
        e.headers,
      );
    });
  };
}
