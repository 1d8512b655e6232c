import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HEARTBEAT_MS } from "@/app/constants";
import { LiveConnection, liveUrl, type ConnectionStatus } from "@/app/notifications/live-connection";
import { reconnectDelay, reconnectSchedule } from "@/app/notifications/reconnect";

describe("reconnect schedule", () => {
  it("starts at 3000 ms and grows ×1.5 for 5 attempts", () => {
    expect(reconnectSchedule()).toEqual([3000, 4500, 6750, 10125, 15187.5]);
  });
  it("gives up after the 5th attempt", () => {
    expect(reconnectDelay(5)).toBe(15187.5);
    expect(reconnectDelay(6)).toBeNull();
    expect(reconnectDelay(0)).toBeNull();
  });
});

describe("liveUrl", () => {
  it("uses wss on https pages and ws otherwise", () => {
    expect(liveUrl({ protocol: "https:", host: "x:1" })).toBe("wss://x:1/api/v1/ws");
    expect(liveUrl({ protocol: "http:", host: "x:1" })).toBe("ws://x:1/api/v1/ws");
  });
});

class FakeSocket {
  static OPEN = 1;
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  send(s: string): void {
    this.sent.push(s);
  }
  close(): void {
    this.onclose?.();
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.();
  }
}

describe("LiveConnection", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal("WebSocket", FakeSocket);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("pings every 30 s, reconnects on the schedule, and stops after 5 tries", () => {
    const sockets: FakeSocket[] = [];
    const statuses: ConnectionStatus[] = [];
    const conn = new LiveConnection({
      url: "ws://test",
      onMessage: () => {},
      onStatus: (s) => statuses.push(s),
      createSocket: () => {
        const s = new FakeSocket();
        sockets.push(s);
        return s as unknown as WebSocket;
      },
    });
    conn.connect();
    sockets[0]!.open();
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(sockets[0]!.sent).toEqual([JSON.stringify({ type: "ping" })]);

    sockets[0]!.close();
    const delays = [3000, 4500, 6750, 10125, 15187.5];
    for (const [i, d] of delays.entries()) {
      vi.advanceTimersByTime(d - 1);
      expect(sockets).toHaveLength(i + 1);
      vi.advanceTimersByTime(1);
      expect(sockets).toHaveLength(i + 2);
      sockets[i + 1]!.close();
    }
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(6);
    expect(statuses.at(-1)).toBe("closed");
    conn.dispose();
  });

  it("keeps a history of 50 messages", () => {
    let sock: FakeSocket | undefined;
    const conn = new LiveConnection({
      url: "ws://test",
      onMessage: () => {},
      onStatus: () => {},
      createSocket: () => (sock = new FakeSocket()) as unknown as WebSocket,
    });
    conn.connect();
    sock!.open();
    for (let i = 0; i < 60; i++) sock!.onmessage?.({ data: JSON.stringify({ type: "pong", i }) });
    expect(conn.history).toHaveLength(50);
    conn.dispose();
  });
});
