import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import type { AlertsRepo, AlertStateRow } from "./alerts.repo.js";

const tags = ["Alerts"];

const alert = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("Alert state id (for node.downtime, the node's id): unique with the rule"),
      rule: z
        .string()
        .describe(
          "Rule id: certificate.expiry, peer.lag, raft.leader, raft.consenters, or node.downtime (node runtime)",
        ),
      key: z.string().describe("What the rule watches, unique within the rule, e.g. peer:3:network:5"),
      subject: z.string().describe("What is watched, for people, e.g. 'peer0 on mychannel'"),
      status: z
        .enum(["pending", "firing", "resolved"])
        .describe("pending (waiting out the rule's duration), firing or resolved"),
      pendingSince: z.string().nullable().describe("Since when the condition holds, RFC 3339"),
      firingSince: z.string().nullable().describe("When it fired, RFC 3339"),
      resolvedAt: z.string().nullable().describe("When it resolved, RFC 3339"),
      notified: z.boolean().describe("Whether this episode's alert was sent (false: held back by the cool-down)"),
      data: z.record(z.string(), z.unknown()).describe("The alert's data, as in its notification"),
    })
    .describe("An alert of the console's rule engine")
    .meta({ id: "Alert" }),
);

function toAlert(r: AlertStateRow): z.infer<typeof alert> {
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(r.data) as Record<string, unknown>;
  } catch {
    data = {};
  }
  return {
    id: r.id,
    rule: r.rule_id,
    key: r.alert_key,
    subject: r.subject,
    status: r.status as z.infer<typeof alert>["status"],
    pendingSince: r.pending_since,
    firingSince: r.firing_since,
    resolvedAt: r.resolved_at,
    notified: r.notified === 1,
    data,
  };
}

/**
 * Node outages as alerts: the node runtime decides those (grace period, recovery), and the node row
 * keeps the outage, so the list shows them next to the engine's own (pending until reported).
 */
async function downtimeAlerts(repo: Pick<AlertsRepo, "downNodes">, now: number): Promise<z.infer<typeof alert>[]> {
  return (await repo.downNodes()).map((n) => ({
    id: n.id,
    rule: "node.downtime",
    key: `node:${n.id}`,
    subject: `node ${n.name}`,
    status: n.down_alerted === 1 ? ("firing" as const) : ("pending" as const),
    pendingSince: n.down_since,
    firingSince: null,
    resolvedAt: null,
    notified: n.down_alerted === 1,
    data: {
      node_id: n.id,
      node_name: n.name,
      downtime_mins: Math.round(((now - Date.parse(n.down_since)) / 60_000) * 1000) / 1000,
      reason: n.down_reason,
      down_since: n.down_since,
    },
  }));
}

/** GET /alerts: the engine's current states and node outages (read-only; thresholds live in settings). */
export function registerAlertsRoutes(app: FastifyInstance, repo: Pick<AlertsRepo, "states" | "downNodes">): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/alerts",
    {
      config: { access: "NODE_READ" },
      schema: {
        operationId: "listAlerts",
        tags,
        summary: "List pending, firing and recently resolved alerts",
        response: { 200: lazySchema(() => z.array(alert).describe("Alerts, oldest first")) },
      },
    },
    async () => [...(await downtimeAlerts(repo, Date.now())), ...(await repo.states.all()).map(toAlert)],
  );
}
