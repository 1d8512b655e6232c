import { EventEmitter } from "node:events";

/** Event types that become per-user notifications (spec section 9). */
export const NOTIFICATION_EVENT_TYPES = [
  "proposal.received",
  "proposal.shared",
  "signature.received",
  "signature.shared",
  "network.received",
  "network.shared",
  "chaincode.received",
  "chaincode.shared",
  "backup.success",
  "backup.failure",
  "node.downtime",
  "node.recovery",
  "s3.connection.issue",
  // Alerts evaluated by the console (issue 14), beyond the spec's list.
  "certificate.expiring",
  "peer.lagging",
  "peer.caught_up",
  "raft.no_leader",
  "raft.consenter_unreachable",
  "raft.recovered",
] as const;
export type NotificationEventType = (typeof NOTIFICATION_EVENT_TYPES)[number];

/** The per-event flag of a notification provider (email, webhook) that routes an event type to it. */
export const PROVIDER_FLAG_BY_EVENT: Partial<Record<NotificationEventType, ProviderFlag>> = {
  "node.downtime": "notifyNodeDowntime",
  "node.recovery": "notifyNodeDowntime",
  "backup.success": "notifyBackupSuccess",
  "backup.failure": "notifyBackupFailure",
  "s3.connection.issue": "notifyS3ConnIssue",
  "certificate.expiring": "notifyCertExpiry",
  "peer.lagging": "notifyPeerLag",
  "peer.caught_up": "notifyPeerLag",
  "raft.no_leader": "notifyRaftHealth",
  "raft.consenter_unreachable": "notifyRaftHealth",
  "raft.recovered": "notifyRaftHealth",
};
export type ProviderFlag =
  | "notifyNodeDowntime"
  | "notifyBackupSuccess"
  | "notifyBackupFailure"
  | "notifyS3ConnIssue"
  | "notifyCertExpiry"
  | "notifyPeerLag"
  | "notifyRaftHealth";

export interface BusEvent {
  type: string;
  /** Payload; must never carry secrets, it is pushed to browsers. */
  data: Record<string, unknown>;
  timestamp: string;
  /** When set, only this user is notified; otherwise every user is. */
  userId?: number;
}

export type BusListener = (event: BusEvent) => void | Promise<void>;

/**
 * The in-process event bus. Publishing never throws and never waits for listeners:
 * a failing listener is reported through `onError` and the others still run.
 */
export function createEventBus(onError: (err: unknown, event: BusEvent) => void) {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(100);
  return {
    publish(type: string, data: Record<string, unknown> = {}, opts: { userId?: number } = {}): BusEvent {
      const event: BusEvent = { type, data, timestamp: new Date().toISOString(), ...opts };
      emitter.emit("event", event);
      return event;
    },
    subscribe(listener: BusListener): () => void {
      const wrapped = (event: BusEvent): void => {
        try {
          const r = listener(event);
          if (r instanceof Promise) r.catch((err: unknown) => onError(err, event));
        } catch (err) {
          onError(err, event);
        }
      };
      emitter.on("event", wrapped);
      return () => emitter.off("event", wrapped);
    },
  };
}

export type EventBus = ReturnType<typeof createEventBus>;
