import { FitAddon } from "@xterm/addon-fit";
import { Terminal } from "@xterm/xterm";
import "@xterm/xterm/css/xterm.css";
import { Loader2Icon, PlusIcon, XIcon } from "lucide-react";
import { useEffect, useRef, useState, type ReactElement } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { endShellSession, shellSocketUrl } from "@/data/projects/shell-data";
import { errorMessage } from "@/lib/utils";

type Status = "connecting" | "connected" | "reconnecting" | "ended";

/** The session a tab is attached to, kept across reloads and dropped sockets (the server keeps the shell). */
const storageKey = (projectId: number): string => `chainlaunch.shell.${projectId}`;
const MAX_RETRIES = 5;

/**
 * A terminal on the project: xterm.js attached to the shell websocket. The panel can be resized
 * (drag its lower edge); the PTY follows. A dropped socket reconnects to the same session, which
 * replays its recent output; "New session" starts another, "End session" kills it on the server.
 */
export function ProjectTerminal({
  projectId,
  onOutput,
}: {
  projectId: number;
  /** Called (debounced by the caller) when the shell wrote something: files may have changed. */
  onOutput?: () => void;
}): ReactElement {
  const box = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<Status>("connecting");
  const [generation, setGeneration] = useState(0);
  const [reason, setReason] = useState("");
  const session = useRef<string | undefined>(sessionStorage.getItem(storageKey(projectId)) ?? undefined);
  const outputRef = useRef(onOutput);
  outputRef.current = onOutput;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const term = new Terminal({
      cursorBlink: true,
      convertEol: false,
      fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace",
      fontSize: 13,
      scrollback: 5000,
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(el);
    fit.fit();
    let ws: WebSocket | undefined;
    let retries = 0;
    let disposed = false;
    let ended = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const send = (msg: object): void => {
      if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
    };
    const connect = (): void => {
      const url = shellSocketUrl(projectId, { cols: term.cols, rows: term.rows, sessionId: session.current });
      const socket = new WebSocket(url);
      ws = socket;
      let opened = false;
      socket.onopen = () => {
        opened = true;
        retries = 0;
        setStatus("connected");
        term.focus();
      };
      socket.onmessage = (e: MessageEvent<string>) => {
        const msg = JSON.parse(e.data) as {
          type: string;
          data?: string;
          sessionId?: string;
          reason?: string;
          message?: string;
        };
        if (msg.type === "session" && msg.sessionId) {
          // A reattach replays output the terminal already shows: start from a clean screen.
          if (session.current === msg.sessionId) term.reset();
          session.current = msg.sessionId;
          sessionStorage.setItem(storageKey(projectId), msg.sessionId);
          send({ type: "resize", cols: term.cols, rows: term.rows });
        } else if (msg.type === "output" && msg.data) {
          term.write(msg.data);
          outputRef.current?.();
        } else if (msg.type === "exit") {
          ended = true;
          session.current = undefined;
          sessionStorage.removeItem(storageKey(projectId));
          setReason(msg.reason ?? "");
          setStatus("ended");
          term.write(`\r\n\x1b[2m[session ended: ${msg.reason ?? "exit"}]\x1b[0m\r\n`);
        } else if (msg.type === "error" && msg.message) {
          term.write(`\r\n${msg.message}\r\n`);
        }
      };
      socket.onclose = () => {
        if (disposed || ended) return;
        // A session the server no longer has (restart, idle timeout): the next try opens a new one.
        if (!opened && session.current) {
          session.current = undefined;
          sessionStorage.removeItem(storageKey(projectId));
        }
        if (retries >= MAX_RETRIES) {
          setReason("the connection was lost");
          setStatus("ended");
          return;
        }
        retries += 1;
        setStatus("reconnecting");
        timer = setTimeout(connect, Math.min(5000, 300 * 2 ** retries));
      };
    };
    connect();
    const input = term.onData((data) => send({ type: "input", data }));
    const resized = term.onResize(({ cols, rows }) => send({ type: "resize", cols, rows }));
    const observer = new ResizeObserver(() => fit.fit());
    observer.observe(el);
    return () => {
      disposed = true;
      if (timer) clearTimeout(timer);
      observer.disconnect();
      input.dispose();
      resized.dispose();
      ws?.close();
      term.dispose();
    };
  }, [projectId, generation]);

  const restart = (): void => {
    session.current = undefined;
    sessionStorage.removeItem(storageKey(projectId));
    setReason("");
    setStatus("connecting");
    setGeneration((g) => g + 1);
  };
  const end = async (): Promise<void> => {
    const id = session.current;
    if (!id) return;
    try {
      await endShellSession(projectId, id);
    } catch (err) {
      toast.error(errorMessage(err));
    }
  };

  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-2 text-xs text-muted-foreground">
        <span role="status" aria-label="Terminal status">
          {status === "connecting" && "Connecting…"}
          {status === "connected" && "Connected: a shell in the project folder (sandboxed)"}
          {status === "reconnecting" && (
            <>
              <Loader2Icon className="mr-1 inline size-3 animate-spin" /> Reconnecting…
            </>
          )}
          {status === "ended" && `Session ended${reason ? `: ${reason}` : ""}`}
        </span>
        <div className="flex gap-1">
          <Button size="sm" variant="outline" onClick={restart}>
            <PlusIcon /> New session
          </Button>
          <Button size="sm" variant="outline" onClick={() => void end()} disabled={status !== "connected"}>
            <XIcon /> End session
          </Button>
        </div>
      </div>
      <div
        ref={box}
        data-testid="terminal"
        aria-label="Terminal"
        className="h-64 min-h-32 resize-y overflow-hidden rounded-md bg-black p-1"
      />
    </div>
  );
}
