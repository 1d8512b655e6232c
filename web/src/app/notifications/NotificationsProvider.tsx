import { useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useRef, useState, type ReactElement, type ReactNode } from "react";
import { useNavigate } from "react-router";
import { mapNotification } from "@/app/notifications/event-mapping";
import { LiveConnection, liveUrl, type ConnectionStatus, type LiveMessage } from "@/app/notifications/live-connection";
import { createLiveEventHub, type LiveEvent, type LiveEventHub } from "@/app/notifications/live-events";
import { invalidateForEvent } from "@/app/notifications/live-invalidation";
import { notificationKeys } from "@/data/notifications/keys";
import { showToast } from "@/lib/toast";

const StatusContext = createContext<ConnectionStatus>("connecting");
const EventsContext = createContext<LiveEventHub | null>(null);

/** The live connection's state, for the 'Disconnected' badge. */
export function useLiveStatus(): ConnectionStatus {
  return useContext(StatusContext);
}

/**
 * Calls `onEvent` for every bus event of `type` arriving on the live connection while the caller
 * is mounted (outside the provider it never fires). The latest `onEvent` is used; no resubscribe.
 */
export function useLiveEvent(type: string, onEvent: (event: LiveEvent) => void): void {
  const hub = useContext(EventsContext);
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  useEffect(() => hub?.subscribe(type, (e) => handler.current(e)), [hub, type]);
}

/**
 * Owns the one websocket. A notification arrives as a toast with its link and refreshes the list
 * and the unread count; bus events refresh the data they concern.
 */
export function NotificationsProvider({ children }: { children: ReactNode }): ReactElement {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [status, setStatus] = useState<ConnectionStatus>("connecting");
  const [hub] = useState(createLiveEventHub);

  useEffect(() => {
    const onMessage = (msg: LiveMessage): void => {
      if (msg.type === "notification") {
        const n = mapNotification(msg.notification);
        showToast(n.type, n.title, {
          description: n.message,
          link: n.link ? { href: n.link, label: n.linkText ?? "View", onNavigate: (h) => void navigate(h) } : undefined,
        });
        void qc.invalidateQueries({ queryKey: notificationKeys.all });
      } else if (msg.type === "event") {
        invalidateForEvent(qc, msg.event.type);
        hub.emit(msg.event);
      }
    };
    const conn = new LiveConnection({ url: liveUrl(), onMessage, onStatus: setStatus });
    conn.connect();
    return () => conn.dispose();
  }, [qc, navigate, hub]);

  return (
    <StatusContext.Provider value={status}>
      <EventsContext.Provider value={hub}>{children}</EventsContext.Provider>
    </StatusContext.Provider>
  );
}
