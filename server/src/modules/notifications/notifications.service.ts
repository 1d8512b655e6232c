import { nowIso } from "../../db/db.js";
import { NOTIFICATION_EVENT_TYPES, type BusEvent, type EventBus } from "../../events/bus.js";
import type { WsHub } from "../../events/ws-hub.js";
import { NotFoundError } from "../../http/errors.js";
import type { ListOptions, NotificationRow, NotificationsRepo } from "./notifications.repo.js";

export interface NotificationDto {
  id: number;
  event_type: string;
  event_data: Record<string, unknown>;
  created_at: string;
  is_read: boolean;
}

export function toNotificationDto(row: NotificationRow): NotificationDto {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.event_data);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
  } catch {
    data = {};
  }
  return {
    id: row.id,
    event_type: row.event_type,
    event_data: data,
    created_at: row.created_at,
    is_read: row.is_read === 1,
  };
}

const NOTIFIABLE = new Set<string>(NOTIFICATION_EVENT_TYPES);

/**
 * Turns bus events of the notification types into stored per-user notifications and pushes each
 * one to its user's open sockets. Every bus event is also relayed to all sockets as `{type:"event"}`.
 */
export function createNotificationsService(deps: { repo: NotificationsRepo; bus: EventBus; hub: WsHub }) {
  const { repo, bus, hub } = deps;

  async function deliver(userId: number, eventType: string, data: Record<string, unknown>): Promise<NotificationDto> {
    const row = await repo.insert({
      user_id: userId,
      event_type: eventType,
      event_data: JSON.stringify(data),
      is_read: 0,
      created_at: nowIso(),
    });
    const dto = toNotificationDto(row);
    hub.sendToUser(userId, { type: "notification", notification: dto });
    return dto;
  }

  async function onEvent(event: BusEvent): Promise<void> {
    const relay = { type: "event", event: { type: event.type, data: event.data, timestamp: event.timestamp } };
    // An event addressed to one user (e.g. the progress of their own request) goes only to that user's sockets.
    if (event.userId !== undefined) hub.sendToUser(event.userId, relay);
    else hub.broadcast(relay);
    if (!NOTIFIABLE.has(event.type)) return;
    const targets = event.userId !== undefined ? [event.userId] : await repo.userIds();
    for (const userId of targets) await deliver(userId, event.type, event.data);
  }

  return {
    start(): () => void {
      return bus.subscribe(onEvent);
    },
    deliver,
    async list(userId: number, opts: ListOptions) {
      const { rows, total } = await repo.list(userId, opts);
      return { notifications: rows.map(toNotificationDto), total, limit: opts.limit, offset: opts.offset };
    },
    async unreadCount(userId: number): Promise<number> {
      return repo.unreadCount(userId);
    },
    async setRead(userId: number, id: number, read: boolean): Promise<void> {
      if (!(await repo.setRead(userId, id, read))) throw new NotFoundError(`notification ${id} not found`);
    },
    /** Marks all the user's notifications read, or only those of one event type; returns how many changed. */
    async readAll(userId: number, eventType?: string): Promise<number> {
      return repo.readAll(userId, eventType);
    },
    async remove(userId: number, id: number): Promise<void> {
      if (!(await repo.delete(userId, id))) throw new NotFoundError(`notification ${id} not found`);
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
