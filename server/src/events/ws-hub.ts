/** The minimal socket surface the hub needs (satisfied by `ws` WebSocket). */
export interface HubSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** Whose sockets to close: one session's (logout), or all of a user's but one session's (revocation). */
export interface SocketsEnded {
  userId: number;
  /** Close only sockets opened with this session. */
  sessionId?: number | undefined;
  /** Keep sockets opened with this session (the caller's own, after a password change). */
  exceptSessionId?: number | undefined;
  reason: string;
}

/** Close code for "your credentials changed; sign in again" (4000-4999 are the application's). */
export const WS_CLOSE_SIGNED_OUT = 4001;

const OPEN = 1;

/** Tracks open websockets per user and fans messages out to them. */
export function createWsHub() {
  const byUser = new Map<number, Set<HubSocket>>();
  const sessionOf = new WeakMap<HubSocket, number | undefined>();
  return {
    add(userId: number, socket: HubSocket, sessionId?: number): () => void {
      const set = byUser.get(userId) ?? new Set<HubSocket>();
      set.add(socket);
      sessionOf.set(socket, sessionId);
      byUser.set(userId, set);
      return () => {
        set.delete(socket);
        if (set.size === 0) byUser.delete(userId);
      };
    },
    /** Closes the sockets whose credentials just ended (logout, password or role change, deletion). */
    close(e: SocketsEnded): number {
      let closed = 0;
      for (const s of [...(byUser.get(e.userId) ?? [])]) {
        const session = sessionOf.get(s);
        if (e.sessionId !== undefined && session !== e.sessionId) continue;
        if (e.exceptSessionId !== undefined && session === e.exceptSessionId) continue;
        s.close(WS_CLOSE_SIGNED_OUT, e.reason.slice(0, 120));
        closed++;
      }
      return closed;
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
