/** A bus event relayed on the websocket as `{type:"event", event}`. */
export interface LiveEvent {
  type: string;
  data: unknown;
  timestamp: string;
}

export type LiveEventListener = (event: LiveEvent) => void;

/** Fan-out of websocket bus events to whichever screens listen right now. */
export interface LiveEventHub {
  /** Calls `listener` for every event of `type`; returns the unsubscribe function. */
  subscribe: (type: string, listener: LiveEventListener) => () => void;
  emit: (event: LiveEvent) => void;
}

export function createLiveEventHub(): LiveEventHub {
  const listeners = new Map<string, Set<LiveEventListener>>();
  return {
    subscribe(type, listener) {
      const set = listeners.get(type) ?? new Set<LiveEventListener>();
      set.add(listener);
      listeners.set(type, set);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(type);
      };
    },
    emit(event) {
      for (const l of [...(listeners.get(event.type) ?? [])]) {
        try {
          l(event);
        } catch (e) {
          console.error("live event listener failed", e);
        }
      }
    },
  };
}
