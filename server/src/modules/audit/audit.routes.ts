import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { idPathParams, lazySchema } from "../../http/schema-helpers.js";
import type { AuditService } from "./audit.service.js";

const tags = ["Audit"];
const rfc3339 = lazySchema(() =>
  z
    .string()
    .max(64)
    .refine((v) => !Number.isNaN(Date.parse(v)), "must be an RFC 3339 time"),
);

const auditEvent = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("Event id"),
      timestamp: z.string().describe("When it happened, RFC 3339"),
      eventType: z.string().describe("Event type, e.g. user.create"),
      eventSource: z.string().describe("api, system or websocket"),
      eventOutcome: z.enum(["SUCCESS", "FAILURE"]).describe("Outcome"),
      severity: z.enum(["INFO", "WARNING", "CRITICAL"]).describe("Severity"),
      userIdentity: z.number().int().nullable().describe("Acting user id"),
      sourceIp: z.string().describe("Caller IP"),
      requestId: z.string().describe("Request id, as in the server log"),
      sessionId: z.string().describe("Session id, when signed in with a session"),
      affectedResource: z.string().describe("What was touched, e.g. user:3"),
      details: z
        .record(z.string(), z.unknown())
        .describe(
          "Safe details; never secrets. actor_username names who acted; username, where present, is the target",
        ),
    })
    .describe("An audit event")
    .meta({ id: "AuditEvent" }),
);

const listQuery = lazySchema(() =>
  z
    .object({
      page: z.coerce.number().int().min(1).max(1_000_000).default(1).describe("Page number, from 1"),
      page_size: z.coerce.number().int().min(1).max(500).default(10).describe("Page size"),
      start: rfc3339.optional().describe("From this time, RFC 3339"),
      end: rfc3339.optional().describe("Up to this time, RFC 3339"),
      event_type: z.string().max(64).optional().describe("Event type"),
      user_id: z.coerce
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1)
        .optional()
        .describe("Acting user id"),
      event_source: z.string().max(32).optional().describe("Event source"),
      event_outcome: z.enum(["success", "failure", "SUCCESS", "FAILURE"]).optional().describe("Outcome"),
      severity: z.string().max(16).optional().describe("Severity"),
      source_ip: z.string().max(64).optional().describe("Caller IP"),
    })
    .strict(),
);

const iso = (v: string | undefined): string | undefined => (v ? new Date(v).toISOString() : undefined);

/** The audit log, readable by admins and viewers. */
export function registerAuditRoutes(app: FastifyInstance, audit: AuditService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/audit/logs",
    {
      config: { access: "AUDIT_READ" },
      schema: {
        operationId: "listAuditLogs",
        tags,
        summary: "List audit events, newest first",
        querystring: listQuery,
        response: {
          200: lazySchema(() =>
            z.object({
              items: z.array(auditEvent).describe("Events on this page"),
              page: z.number().int().describe("Page number"),
              page_size: z.number().int().describe("Page size"),
              total_count: z.number().int().describe("Events matching the filter"),
            }),
          ),
        },
      },
    },
    async (req) => {
      const q = req.query;
      return audit.list(
        {
          start: iso(q.start),
          end: iso(q.end),
          eventType: q.event_type,
          userId: q.user_id,
          outcome: q.event_outcome,
          eventSource: q.event_source,
          severity: q.severity,
          sourceIp: q.source_ip,
        },
        q.page,
        q.page_size,
      );
    },
  );

  r.get(
    "/audit/logs/:id",
    {
      config: { access: "AUDIT_READ" },
      schema: {
        operationId: "getAuditLog",
        tags,
        summary: "Get one audit event",
        params: idPathParams("Event id"),
        response: { 200: auditEvent },
      },
    },
    async (req) => audit.get(req.params.id),
  );
}
