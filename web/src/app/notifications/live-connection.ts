import type { ApiNotification } from "@/api/client";
import { HEARTBEAT_MS, HISTORY_CAP } from "@/app/constants";
import { reconnectDelay } from "@/app/notifications/reconnect";

export type ConnectionStatus = "connecting" | "open" | "closed";

export type LiveMessage =
  | { type: "notification"; notification: ApiNotification }
  | { type: "event"; event: { type: string; data: unknown; timestamp: string } }
  | { type: "pong" };

export interface LiveConnectionOptions {
  url: string;
  onMessage: (msg: LiveMessage) => void;
  onStatus: (status: ConnectionStatus) => void;
  /** Injected for tests; defaults to the browser's WebSocket. */
  createSocket?: (url: string) => WebSocket;
}

/** The websocket URL on the same host, secure when the page is (spec §7). */
export function liveUrl(loc: Pick<Location, "protocol" | "host"> = window.location): string {
  return `${loc.protocol === "https:" ? "wss" : "ws"}://${loc.host}/api/v1/ws`;
}

/**
 * One websocket to the server: heartbeat every 30 s while open, reconnect with the backoff
 * schedule after a close, give up after 5 attempts. Keeps the last 50 messages in memory.
 */
export class LiveConnection {
  readonly history: LiveMessage[] = [];
  private socket: WebSocket | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private attempts = 0;
  private disposed = false;

  constructor(private readonly opts: LiveConnectionOptions) {}

  connect(): void {
    if (this.disposed) return;
    this.opts.onStatus("connecting");
    let ws: WebSocket;
    try {
      ws = (this.opts.createSocket ?? ((u) => new WebSocket(u)))(this.opts.url);
    } catch (e) {
      console.error("live connection failed", e);
      this.scheduleReconnect();
      return;
    }
    this.socket = ws;
    ws.onopen = () => {
      this.attempts = 0;
      this.opts.onStatus("open");
      this.heartbeat = setInterval(() => this.send({ type: "ping" }), HEARTBEAT_MS);
    };
    ws.onmessage = (ev: MessageEvent) => {
      let msg: LiveMessage;
      try {
        msg = JSON.parse(String(ev.data)) as LiveMessage;
      } catch {
        return;
      }
      this.history.push(msg);
      if (this.history.length > HISTORY_CAP) this.history.splice(0, this.history.length - HISTORY_CAP);
      this.opts.onMessage(msg);
    };
    ws.onerror = (e) => console.error("live connection error", e);
    ws.onclose = () => {
      this.stopHeartbeat();
      this.socket = null;
      this.opts.onStatus("closed");
      this.scheduleReconnect();
    };
  }

  /** Closes for good: no reconnect afterwards. */
  dispose(): void {
    this.disposed = true;
    this.stopHeartbeat();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.socket?.close();
    this.socket = null;
  }

  private send(msg: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(msg));
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private scheduleReconnect(): void {
    if (this.disposed) return;
    const delay = reconnectDelay(this.attempts + 1);
    if (delay === null) return; // gave up after the maximum
    this.attempts += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }
}
