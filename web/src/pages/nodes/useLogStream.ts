import { useCallback, useEffect, useRef, useState } from "react";
import { API_BASE } from "@/api/client";
import { appendChunk, EMPTY_LOG, type LogBuffer } from "@/pages/nodes/log-buffer";
import { errorMessage } from "@/lib/utils";

export type StreamState = "connecting" | "streaming" | "ended" | "error";

/**
 * Follows GET /nodes/{id}/logs?tail=N&follow=true with fetch() and a ReadableStream reader.
 * While paused, lines keep arriving but the shown buffer stays frozen; unmount aborts the request.
 */
export function useLogStream(
  nodeId: number | undefined,
  { tail = 200, paused = false }: { tail?: number; paused?: boolean } = {},
): { buffer: LogBuffer; state: StreamState; error: string | undefined; reconnect: () => void; clear: () => void } {
  const live = useRef<LogBuffer>(EMPTY_LOG);
  const [buffer, setBuffer] = useState<LogBuffer>(EMPTY_LOG);
  const [state, setState] = useState<StreamState>("connecting");
  const [error, setError] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  const pausedRef = useRef(paused);
  pausedRef.current = paused;

  useEffect(() => {
    if (!paused) setBuffer(live.current);
  }, [paused]);

  useEffect(() => {
    if (nodeId === undefined) return;
    const ctrl = new AbortController();
    live.current = EMPTY_LOG;
    setBuffer(EMPTY_LOG);
    setState("connecting");
    setError(undefined);
    let frame = 0;
    const flush = (): void => {
      frame = 0;
      if (!pausedRef.current) setBuffer(live.current);
    };
    void (async () => {
      try {
        const res = await fetch(`${API_BASE}/nodes/${nodeId}/logs?tail=${tail}&follow=true`, {
          credentials: "include",
          signal: ctrl.signal,
        });
        if (!res.ok || !res.body) {
          const text = await res.text().catch(() => "");
          let message = `The server answered ${res.status}`;
          try {
            message = (JSON.parse(text) as { message?: string }).message ?? message;
          } catch {
            // not JSON
          }
          throw new Error(message);
        }
        setState("streaming");
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          live.current = appendChunk(live.current, decoder.decode(value, { stream: true }));
          frame ||= window.setTimeout(flush, 50);
        }
        live.current = appendChunk(live.current, decoder.decode());
        flush();
        setState("ended");
      } catch (e) {
        if (ctrl.signal.aborted) return;
        setError(errorMessage(e));
        setState("error");
      }
    })();
    return () => {
      ctrl.abort();
      if (frame) window.clearTimeout(frame);
    };
  }, [nodeId, tail, attempt]);

  const reconnect = useCallback(() => setAttempt((a) => a + 1), []);
  const clear = useCallback(() => {
    live.current = EMPTY_LOG;
    setBuffer(EMPTY_LOG);
  }, []);
  return { buffer, state, error, reconnect, clear };
}
