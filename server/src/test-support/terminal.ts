import { readdirSync, readFileSync } from "node:fs";
import WebSocket from "ws";

/** ANSI control sequences (ESC [ ... letter). */
const CSI = new RegExp(`${String.fromCharCode(27)}\\[[?0-9;]*[A-Za-z]`, "g");

/**
 * A terminal client of `/chaincode-projects/{id}/shell/ws` (a real `ws` socket): collects the
 * shell's output, types lines, and waits for text to appear.
 */
export function openTerminal(url: string, headers: Record<string, string>) {
  const ws = new WebSocket(url, { headers });
  let output = "";
  let sessionId = "";
  const watchers: Array<() => void> = [];
  const messages: Array<Record<string, unknown>> = [];
  ws.on("message", (raw) => {
    const msg = JSON.parse(raw.toString()) as Record<string, unknown>;
    messages.push(msg);
    // Escape sequences (bracketed paste, colours) left out: tests look for the text.
    if (msg.type === "output") output += String(msg.data).replace(CSI, "");
    if (msg.type === "session") sessionId = String(msg.sessionId);
    for (const w of watchers.splice(0)) w();
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => reject(new Error(`upgrade refused: ${res.statusCode} ${body}`)));
    });
    ws.once("error", reject);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once("close", (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  /** Waits until `pred` holds for what arrived so far. */
  const until = <T>(what: string, pred: () => T | undefined, timeoutMs: number): Promise<T> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`no ${what} within ${timeoutMs} ms; output so far:\n${JSON.stringify(output.slice(-600))}`)),
        timeoutMs,
      );
      const check = (): void => {
        const v = pred();
        if (v !== undefined) {
          clearTimeout(timer);
          resolve(v);
        } else watchers.push(check);
      };
      check();
    });
  return {
    ws,
    opened,
    closed,
    messages,
    get output(): string {
      return output;
    },
    get sessionId(): string {
      return sessionId;
    },
    /** The session id from the first message. */
    session: (timeoutMs = 15_000) => until("session message", () => sessionId || undefined, timeoutMs),
    send: (msg: object) => ws.send(JSON.stringify(msg)),
    /** Types a line (with Enter). */
    type: (line: string) => ws.send(JSON.stringify({ type: "input", data: `${line}\n` })),
    /** Output since `from` (an index into the output) once it matches `re`. */
    waitFor: (re: RegExp, from = 0, timeoutMs = 15_000) =>
      until(`output matching ${re}`, () => (re.test(output.slice(from)) ? output.slice(from) : undefined), timeoutMs),
    /** The next message of `type`. */
    next: (type: string, timeoutMs = 15_000) =>
      until(`'${type}' message`, () => messages.find((m) => m.type === type), timeoutMs),
  };
}

/** Host processes whose command line contains `text` (read from /proc, so nothing is spawned to look). */
export function processesMatching(text: string): string[] {
  const out: string[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
      if (cmd.includes(text)) out.push(`${pid} ${cmd}`);
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}
