import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { idPathParams, lazySchema } from "../../http/schema-helpers.js";
import { NOTIFICATION_EVENT_TYPES } from "../../events/bus.js";
import type { NotificationsService } from "./notifications.service.js";

const tags = ["User Notifications"];

const notification = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("Notification id"),
      event_type: z.string().describe("Event type, e.g. node.downtime"),
      event_data: z.record(z.string(), z.unknown()).describe("Event payload"),
      created_at: z.string().describe("Creation time, RFC 3339"),
      is_read: z.boolean().describe("Read flag"),
    })
    .describe("A notification")
    .meta({ id: "Notification" }),
);

const message = lazySchema(() =>
  z.object({
    message: z.string().describe("Result"),
    data: z.record(z.string(), z.unknown()).nullable().describe("Result details, when any"),
  }),
);
const idParams = idPathParams("Notification id");

const listQuery = lazySchema(() =>
  z
    .object({
      limit: z.coerce.number().int().min(1).max(100).default(20).describe("Page size (max 100)"),
      offset: z.coerce.number().int().min(0).max(1_000_000).default(0).describe("Offset"),
      is_read: z.enum(["true", "false"]).optional().describe("Only read (true) or unread (false) notifications"),
    })
    .strict(),
);

const pageQuery = lazySchema(() =>
  z
    .object({
      limit: z.coerce.number().int().min(1).max(100).default(20).describe("Page size (max 100)"),
      offset: z.coerce.number().int().min(0).max(1_000_000).default(0).describe("Offset"),
    })
    .strict(),
);

/**
 * An event type in a path. Any well-formed type is accepted (one no notification has yields an
 * empty list, as upstream's filter does); only malformed text is a 400.
 */
const eventTypeParams = lazySchema(() =>
  z
    .object({
      eventType: z
        .string()
        .min(1)
        .max(64)
        .regex(
          /^[a-z0-9]+(?:[._-][a-z0-9]+)*$/,
          "must be an event type such as node.downtime: lowercase letters, digits, . _ -",
        )
        .describe("Event type, e.g. node.downtime"),
    })
    .strict(),
);

/** Upstream's envelope for these lists: `{message, data}`. */
const notificationList = lazySchema(() =>
  z
    .object({
      message: z.string().describe("What the list holds"),
      data: z.array(notification).describe("The notifications of this page, newest first"),
    })
    .describe("A page of notifications"),
);

/** The signed-in user's own notification inbox. */
export function registerNotificationsRoutes(app: FastifyInstance, svc: NotificationsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/user-notifications",
    {
      config: { access: "self" },
      schema: {
        operationId: "listUserNotifications",
        tags,
        summary: "Your notifications, newest first",
        querystring: listQuery,
        response: {
          200: lazySchema(() =>
            z.object({
              notifications: z.array(notification).describe("This page"),
              total: z.number().int().describe("Matching notifications"),
              limit: z.number().int().describe("Page size"),
              offset: z.number().int().describe("Offset"),
            }),
          ),
        },
      },
    },
    async (req) => {
      const q = req.query;
      const isRead = q.is_read === undefined ? undefined : q.is_read === "true";
      return svc.list(req.principal!.userId, { limit: q.limit, offset: q.offset, isRead });
    },
  );

  r.get(
    "/user-notifications/unread",
    {
      config: { access: "self" },
      schema: {
        operationId: "listUnreadUserNotifications",
        tags,
        summary: "Your unread notifications, newest first",
        querystring: pageQuery,
        response: { 200: notificationList },
      },
    },
    async (req) => {
      const page = await svc.list(req.principal!.userId, { ...req.query, isRead: false });
      return { message: `${page.total} unread notifications`, data: page.notifications };
    },
  );

  r.get(
    "/user-notifications/type/:eventType",
    {
      config: { access: "self" },
      schema: {
        operationId: "listUserNotificationsByType",
        tags,
        summary: "Your notifications of one event type, newest first (none for a type never sent)",
        params: eventTypeParams,
        querystring: pageQuery,
        response: { 200: notificationList },
      },
    },
    async (req) => {
      const { eventType } = req.params;
      const page = await svc.list(req.principal!.userId, { ...req.query, eventType });
      return { message: `${page.total} ${eventType} notifications`, data: page.notifications };
    },
  );

  r.post(
    "/user-notifications/type/:eventType/read-all",
    {
      config: { access: "self", audit: "notification.read_all" },
      schema: {
        operationId: "markUserNotificationsOfTypeRead",
        tags,
        summary: "Mark all your notifications of one event type read",
        params: eventTypeParams,
        response: { 200: message },
      },
    },
    async (req) => {
      const { eventType } = req.params;
      const n = await svc.readAll(req.principal!.userId, eventType);
      req.auditInfo.details = { event_type: eventType, updated: n };
      return { message: `${n} ${eventType} notifications marked as read`, data: { event_type: eventType, updated: n } };
    },
  );

  r.get(
    "/user-notifications/unread/count",
    {
      config: { access: "self" },
      schema: {
        operationId: "countUnreadUserNotifications",
        tags,
        summary: "How many of your notifications are unread",
        response: { 200: lazySchema(() => z.object({ count: z.number().int().describe("Unread notifications") })) },
      },
    },
    async (req) => ({ count: await svc.unreadCount(req.principal!.userId) }),
  );

  for (const [suffix, read] of [
    ["read", true],
    ["unread", false],
  ] as const) {
    r.post(
      `/user-notifications/:id/${suffix}`,
      {
        config: { access: "self", audit: read ? "notification.read" : "notification.unread" },
        schema: {
          operationId: read ? "markUserNotificationRead" : "markUserNotificationUnread",
          tags,
          summary: `Mark one of your notifications ${suffix}`,
          params: idParams,
          response: { 200: message },
        },
      },
      async (req) => {
        req.auditInfo.resource = `notification:${req.params.id}`;
        await svc.setRead(req.principal!.userId, req.params.id, read);
        return { message: `Notification marked as ${suffix}`, data: { id: req.params.id, is_read: read } };
      },
    );
  }

  r.post(
    "/user-notifications/read-all",
    {
      config: { access: "self", audit: "notification.read_all" },
      schema: {
        operationId: "markAllUserNotificationsRead",
        tags,
        summary: "Mark all your notifications read",
        response: { 200: message },
      },
    },
    async (req) => {
      const n = await svc.readAll(req.principal!.userId);
      req.auditInfo.details = { updated: n };
      return { message: `${n} notifications marked as read`, data: { updated: n } };
    },
  );

  r.delete(
    "/user-notifications/:id",
    {
      config: { access: "self", audit: "notification.delete" },
      schema: {
        operationId: "deleteUserNotification",
        tags,
        summary: "Delete one of your notifications",
        params: idParams,
        response: { 200: message },
      },
    },
    async (req) => {
      req.auditInfo.resource = `notification:${req.params.id}`;
      await svc.remove(req.principal!.userId, req.params.id);
      return { message: "Notification deleted", data: { id: req.params.id } };
    },
  );

  r.post(
    "/user-notifications/test",
    {
      config: { access: "SYSTEM_CONFIG", audit: "notification.test" },
      schema: {
        operationId: "sendTestUserNotification",
        tags,
        summary: "Send yourself a test notification of a given type, to check delivery",
        body: lazySchema(() =>
          z
            .object({
              event_type: z.enum(NOTIFICATION_EVENT_TYPES).describe("Notification event type"),
              event_data: z.record(z.string().max(64), z.unknown()).optional().describe("Payload fields"),
            })
            .strict(),
        ),
        response: { 201: notification },
      },
    },
    async (req, reply) => {
      req.auditInfo.details = { event_type: req.body.event_type };
      const dto = await svc.deliver(req.principal!.userId, req.body.event_type, req.body.event_data ?? {});
      return reply.status(201).send(dto);
    },
  );
}
