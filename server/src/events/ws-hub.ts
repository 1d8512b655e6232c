/** The minimal socket surface the hub needs (satisfied by `ws` WebSocket). */
export interface HubSocket {
  readonly readyState: number;
  send(data: string): void;
}

const OPEN = 1;

/** Tracks open websockets per user and fans messages out to them. */
export function createWsHub() {
  const byUser = new Map<number, Set<HubSocket>>();
  return {
    add(userId: number, socket: HubSocket): () => void {
      const set = byUser.get(userId) ?? new Set<HubSocket>();
      set.add(socket);
      byUser.set(userId, set);
      return () => {
        set.delete(socket);
        if (set.size === 0) byUser.delete(userId);
      };
    },
    sendToUser(userId: number, message: unknown): number {
      const payload = JSON.stringify(message);
      let sent = 0;
      for (const s of byUser.get(userId) ?? []) {
        if (s.readyState === OPEN) {
          s.send(payload);
          sent++;
        }
      }
      return sent;
    },
    broadcast(message: unknown): void {
      const payload = JSON.stringify(message);
      for (const set of byUser.values()) for (const s of set) if (s.readyState === OPEN) s.send(payload);
    },
    connections(): number {
      let n = 0;
      for (const set of byUser.values()) n += set.size;
      return n;
    },
  };
}

export type WsHub = ReturnType<typeof createWsHub>;
