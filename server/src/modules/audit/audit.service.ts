import type { FastifyBaseLogger } from "fastify";
import { nowIso } from "../../db/db.js";
import { NotFoundError } from "../../http/errors.js";
import type { AuditFilter, AuditRepo, AuditRow } from "./audit.repo.js";
import type { AuditRecord } from "./audit.types.js";

const SECRET_KEY = /(pass(word)?|secret|token|authorization|cookie|private|^key$|api_?key$|credential)/i;

/** Drops any field whose name looks like it holds a secret, at any depth. */
export function redactDetails(value: unknown, depth = 0): unknown {
  if (depth > 5) return "[truncated]";
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redactDetails(v, depth + 1));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_KEY.test(k) ? "[redacted]" : redactDetails(v, depth + 1);
    }
    return out;
  }
  if (typeof value === "string" && value.length > 1000) return `${value.slice(0, 1000)}…`;
  return value;
}

/**
 * A value for one of the audit log's varchar columns, stored as sent where possible: PostgreSQL text
 * can't hold a NUL (SQLite can) and a varchar(n) refuses a longer value, either of which would lose
 * the event on one dialect only. NULs become the visible text `\u0000`, and the value is cut to `max`.
 * (The `details` column is JSON text, in which JSON.stringify already escapes a NUL.)
 */
export function auditColumn(value: string | null | undefined, max: number): string | null {
  if (value === null || value === undefined) return null;
  const clean = value.includes("\u0000") ? value.replaceAll("\u0000", "\\u0000") : value;
  return clean.length > max ? clean.slice(0, max) : clean;
}

export interface AuditEventDto {
  id: number;
  timestamp: string;
  eventType: string;
  eventSource: string;
  eventOutcome: "SUCCESS" | "FAILURE";
  severity: "INFO" | "WARNING" | "CRITICAL";
  userIdentity: number | null;
  sourceIp: string;
  requestId: string;
  sessionId: string;
  affectedResource: string;
  details: Record<string, unknown>;
}

export function toAuditDto(row: AuditRow): AuditEventDto {
  let details: Record<string, unknown> = {};
  if (row.details) {
    try {
      details = JSON.parse(row.details) as Record<string, unknown>;
    } catch {
      details = {};
    }
  }
  if (row.username) details.actor_username = row.username;
  return {
    id: row.id,
    timestamp: row.timestamp,
    eventType: row.event_type,
    eventSource: row.event_source,
    eventOutcome: row.event_outcome === "SUCCESS" ? "SUCCESS" : "FAILURE",
    severity: row.severity === "CRITICAL" ? "CRITICAL" : row.severity === "WARNING" ? "WARNING" : "INFO",
    userIdentity: row.user_id,
    sourceIp: row.source_ip ?? "",
    requestId: row.request_id ?? "",
    sessionId: row.session_id ?? "",
    affectedResource: row.affected_resource ?? "",
    details,
  };
}

/** Records and reads audit events. Recording never throws: a failed write is logged instead. */
export function createAuditService(deps: { repo: AuditRepo; log: FastifyBaseLogger }) {
  const { repo, log } = deps;
  return {
    async record(r: AuditRecord): Promise<void> {
      try {
        await repo.insert({
          timestamp: nowIso(),
          event_type: r.eventType,
          event_source: r.source ?? "api",
          event_outcome: r.outcome,
          severity: r.severity ?? (r.outcome === "FAILURE" ? "WARNING" : "INFO"),
          user_id: r.userId ?? null,
          username: auditColumn(r.username, 64),
          source_ip: auditColumn(r.sourceIp, 64),
          request_id: auditColumn(r.requestId, 64),
          session_id: auditColumn(r.sessionId, 64),
          affected_resource: auditColumn(r.resource, 512),
          details: r.details ? JSON.stringify(redactDetails(r.details)) : null,
        });
      } catch (err) {
        log.error({ err, eventType: r.eventType }, "failed to write audit event");
      }
    },
    async list(
      f: AuditFilter,
      page: number,
      pageSize: number,
    ): Promise<{ items: AuditEventDto[]; page: number; page_size: number; total_count: number }> {
      const { rows, total } = await repo.list(f, pageSize, (page - 1) * pageSize);
      return { items: rows.map(toAuditDto), page, page_size: pageSize, total_count: total };
    },
    async get(id: number): Promise<AuditEventDto> {
      const row = await repo.get(id);
      if (!row) throw new NotFoundError(`audit event ${id} not found`);
      return toAuditDto(row);
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
