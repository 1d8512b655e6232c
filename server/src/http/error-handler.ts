import type { FastifyError, FastifyInstance } from "fastify";
import { SignatureCheckError } from "../crypto/errors.js";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { uniqueViolationColumn } from "../db/unique-violation.js";
import { AppError, RateLimitError } from "./errors.js";

/** The JSON body of every error response. */
export interface ErrorBody {
  error: string;
  message: string;
  details?: unknown;
  requestId: string;
}

function fieldPath(instancePath: string, params: Record<string, unknown> | undefined, context: string): string {
  const base = instancePath.replace(/^\//, "").replace(/\//g, ".");
  const extra =
    params && typeof params.keys === "object" && Array.isArray(params.keys) ? (params.keys as string[]).join(", ") : "";
  const name = [base, extra].filter(Boolean).join(".");
  return name ? `${context}.${name}` : context;
}

/**
 * Maps every thrown error to one envelope. Validation errors name the field; unknown errors become
 * a logged 500 with the request id and no stack trace.
 */
export function registerErrorHandler(app: FastifyInstance, opts: { spa: boolean }): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const requestId = String(req.id);
    if (hasZodFastifySchemaValidationErrors(err)) {
      const context = err.validationContext ?? "body";
      const issues = err.validation.map((v) => ({
        field: fieldPath(v.instancePath, v.params as Record<string, unknown> | undefined, context),
        message: v.message ?? "invalid",
      }));
      const first = issues[0];
      const body: ErrorBody = {
        error: "INVALID_INPUT",
        message: first ? `${first.field}: ${first.message}` : "invalid request",
        details: issues,
        requestId,
      };
      return reply.status(400).send(body);
    }
    if (err instanceof SignatureCheckError) {
      return reply.status(502).send({ error: "UPSTREAM_ERROR", message: err.message, requestId });
    }
    if (err instanceof AppError) {
      if (err instanceof RateLimitError) reply.header("retry-after", String(err.retryAfterSeconds));
      const body: ErrorBody = { error: err.code, message: err.message, requestId };
      if (err.details !== undefined) body.details = err.details;
      return reply.status(err.status).send(body);
    }
    // Two requests raced past a service's "is it taken?" check: the database's unique index decides.
    const column = uniqueViolationColumn(err);
    if (column !== undefined) {
      const message = column
        ? `${column}: another record already has this ${column} (created concurrently)`
        : "a record with the same unique value already exists";
      return reply.status(409).send({ error: "CONFLICT", message, requestId });
    }
    const dbInput = databaseInputProblem(err);
    if (dbInput) {
      // Schemas bound what they can; this is the backstop when a value still reaches the database.
      req.log.warn({ err }, "database refused an input value");
      return reply.status(400).send({ error: "INVALID_INPUT", message: dbInput, requestId });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err, url: req.url }, "response failed its schema");
      return reply.status(500).send({ error: "INTERNAL", message: "internal server error", requestId });
    }
    // Fastify's own client errors (malformed JSON, body too large, wrong content type).
    const status = typeof err.statusCode === "number" ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      const body: ErrorBody = { error: err.code ?? "BAD_REQUEST", message: clientMessage(err), requestId };
      return reply.status(status).send(body);
    }
    req.log.error({ err }, "unhandled error");
    return reply.status(500).send({ error: "INTERNAL", message: "internal server error", requestId });
  });

  // Unknown API paths get the JSON envelope; any other GET of a page path gets the web app (SPA fallback).
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split("?")[0] ?? "/";
    const isPage =
      req.method === "GET" && !path.startsWith("/api/") && path !== "/healthz" && !/\.[a-z0-9]+$/i.test(path);
    if (opts.spa && isPage) return reply.type("text/html").sendFile("index.html");
    return reply
      .status(404)
      .send({ error: "NOT_FOUND", message: `route ${req.method} ${path} not found`, requestId: String(req.id) });
  });
}

/** PostgreSQL data errors caused by the caller's input (SQLSTATE class 22), as a 400 message. */
function databaseInputProblem(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  switch (code) {
    case "22003":
      return "input: a number is out of range for the field it was given for";
    case "22021":
    case "22P05":
      return "input: a string holds a character the database cannot store (NUL)";
    case "22001":
      return "input: a string is longer than its field allows";
    default:
      return undefined;
  }
}

function clientMessage(err: FastifyError): string {
  switch (err.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return `body: ${err.message}`;
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return "body: request body is too large";
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return "body: unsupported content type; send application/json";
    default:
      return err.message;
  }
}
