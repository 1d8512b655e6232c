import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import {
  PROVIDER_FLAG_BY_EVENT,
  type BusEvent,
  type EventBus,
  type NotificationEventType,
  type ProviderFlag,
} from "../../events/bus.js";
import { errorMessage } from "../../http/errors.js";
import { EVENT_TITLES, eventLink, eventMessage } from "./messages.js";
import type { FlagColumn } from "./providers.repo.js";
import { FLAGS, type ProvidersService } from "./providers.service.js";
import type { OutgoingNotification } from "./webhook.js";

const COLUMN_BY_FLAG = Object.fromEntries(FLAGS.map(([api, col]) => [api, col])) as Record<ProviderFlag, FlagColumn>;

/** Events waiting or being delivered at most; past it new events are dropped (and said so) instead of piling up. */
const MAX_PENDING = 500;

/** Builds what providers receive for a bus event. */
export function toOutgoing(event: BusEvent, publicUrl: string | undefined): OutgoingNotification {
  return {
    id: randomUUID(),
    type: event.type,
    title: EVENT_TITLES[event.type as NotificationEventType] ?? "System Notification",
    message: eventMessage(event.type, event.data),
    link: eventLink(event.type, event.data, publicUrl),
    data: event.data,
    timestamp: event.timestamp,
  };
}

/**
 * Sends bus events to the providers whose flag routes them (PROVIDER_FLAG_BY_EVENT). The listener
 * only queues: delivery (with the webhook retries) runs in the background and never holds up the
 * bus or the request that published the event. One provider failing is logged, without secrets,
 * and the others still get the event. `close()` aborts the retry waits and lets the sends finish.
 */
export function createProviderDelivery(deps: {
  bus: EventBus;
  providers: Pick<ProvidersService, "routed" | "send">;
  log: FastifyBaseLogger;
  publicUrl: string | undefined;
}) {
  const { log } = deps;
  const closing = new AbortController();
  const pending = new Set<Promise<void>>();

  async function deliver(event: BusEvent, column: FlagColumn): Promise<void> {
    const targets = await deps.providers.routed(column);
    if (!targets.length) return;
    const n = toOutgoing(event, deps.publicUrl);
    await Promise.all(
      targets.map(async (p) => {
        try {
          await deps.providers.send(p, n, { signal: closing.signal });
          log.debug({ provider: p.name, event: event.type, delivery: n.id }, "notification delivered");
        } catch (err) {
          // Only the provider's name and the server's answer: settings and secrets stay out of logs.
          log.warn(
            { provider: p.name, event: event.type, delivery: n.id, reason: errorMessage(err) },
            "notification delivery failed",
          );
        }
      }),
    );
  }

  function onEvent(event: BusEvent): void {
    const flag = PROVIDER_FLAG_BY_EVENT[event.type as NotificationEventType];
    if (!flag || closing.signal.aborted) return;
    if (pending.size >= MAX_PENDING) {
      log.warn({ event: event.type }, "notification delivery queue is full; event not sent to providers");
      return;
    }
    const job = deliver(event, COLUMN_BY_FLAG[flag])
      .catch((err: unknown) =>
        log.warn({ event: event.type, reason: errorMessage(err) }, "notification routing failed"),
      )
      .finally(() => pending.delete(job));
    pending.add(job);
  }

  let unsubscribe: (() => void) | undefined;
  return {
    start(): void {
      unsubscribe ??= deps.bus.subscribe(onEvent);
    },
    /** Resolves when every queued delivery has finished (tests wait for it). */
    async idle(): Promise<void> {
      while (pending.size) await Promise.allSettled([...pending]);
    },
    async close(): Promise<void> {
      unsubscribe?.();
      closing.abort();
      await Promise.allSettled([...pending]);
    },
  };
}

export type ProviderDelivery = ReturnType<typeof createProviderDelivery>;
