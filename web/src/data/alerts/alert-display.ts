import type { Alert } from "@/api/client";
import { mapNotification, type NotificationKind } from "@/app/notifications/event-mapping";

/** The event each rule fires (server `modules/alerts/rules`), so an alert reads as its notification does. */
const EVENT_OF_RULE: Record<string, string> = {
  "certificate.expiry": "certificate.expiring",
  "peer.lag": "peer.lagging",
  "raft.leader": "raft.no_leader",
  "raft.consenters": "raft.consenter_unreachable",
  "node.downtime": "node.downtime",
};

export interface AlertDisplay {
  /** Unique in the list (an id is unique within its rule only). */
  key: string;
  kind: NotificationKind;
  title: string;
  message: string;
  link?: string;
  /** "Firing", or "Pending" while the rule's duration runs. */
  state: "Firing" | "Pending";
  since: string | null;
}

/** The alerts worth showing (pending and firing; resolved ones only wait out the cool-down), newest first. */
export function activeAlerts(alerts: Alert[]): AlertDisplay[] {
  return alerts
    .filter((a) => a.status !== "resolved")
    .map((a) => {
      const m = mapNotification({
        id: a.id,
        event_type: EVENT_OF_RULE[a.rule] ?? a.rule,
        event_data: a.data,
        created_at: a.firingSince ?? a.pendingSince ?? "",
        is_read: true,
      });
      return {
        key: `${a.rule}:${a.key}`,
        kind: m.type,
        title: m.title,
        message: m.message,
        ...(m.link ? { link: m.link } : {}),
        state: a.status === "firing" ? ("Firing" as const) : ("Pending" as const),
        since: a.firingSince ?? a.pendingSince,
      };
    })
    .sort((x, y) => (y.since ?? "").localeCompare(x.since ?? ""));
}
