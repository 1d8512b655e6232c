import WebSocket from "ws";

interface Msg {
  type: string;
  [k: string]: unknown;
}

/**
 * Opens a websocket (a real `ws` client) and collects its messages; `opened` rejects with the refused
 * status, `next(type)` waits for the next message of that type, `closed` resolves with how it closed.
 */
export function openSocket(url: string, headers: Record<string, string>) {
  const ws = new WebSocket(url, { headers });
  const seen: Msg[] = [];
  const waiters: Array<{ type: string; resolve: (m: Msg) => void }> = [];
  ws.on("message", (raw) => {
    const msg = JSON.parse(raw.toString()) as Msg;
    const i = waiters.findIndex((w) => w.type === msg.type);
    if (i >= 0) waiters.splice(i, 1)[0]!.resolve(msg);
    else seen.push(msg);
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("unexpected-response", (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once("error", reject);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once("close", (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return {
    ws,
    opened,
    /** How the socket closed: its code and reason. */
    closed,
    next(type: string, timeoutMs = 5000): Promise<Msg> {
      const i = seen.findIndex((m) => m.type === type);
      if (i >= 0) return Promise.resolve(seen.splice(i, 1)[0]!);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no '${type}' message within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ type, resolve: (m) => (clearTimeout(timer), resolve(m)) });
      });
    },
  };
}
