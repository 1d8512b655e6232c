/**
 * Gateway connections kept warm between calls: one gRPC channel and signer per slot (a peer and a
 * key), so a query pays neither a TLS handshake nor a key load. Each slot remembers the fingerprint
 * it was opened for (the address dialled, the TLS root, the MSP id and the certificate it signs
 * with): a node moved to another port, a new TLS CA, or a renewed certificate gives another
 * fingerprint, and the slot's connection is closed and opened again for it. A slot unused for
 * `idleMs` (its node or key deleted, its chaincode gone) is closed at the next lookup.
 */
export interface Closable {
  close(): void;
}

interface Slot<C> {
  fingerprint: string;
  conn: Promise<C>;
  lastUsed: number;
}

export function createGatewayPool<C extends Closable>(opts: { idleMs?: number; now?: () => number } = {}) {
  const idleMs = opts.idleMs ?? 10 * 60_000;
  const now = opts.now ?? Date.now;
  const slots = new Map<string, Slot<C>>();
  // Closing waits for the open to settle; grpc-js lets calls in flight on a closed channel finish.
  const drop = (slot: Slot<C>): void => void slot.conn.then((c) => c.close()).catch(() => undefined);

  function sweep(t: number): void {
    for (const [key, slot] of slots) {
      if (t - slot.lastUsed > idleMs) {
        slots.delete(key);
        drop(slot);
      }
    }
  }

  return {
    /** The slot's connection for `fingerprint`, opened (or reopened) with `open` when it has none for it. */
    get(key: string, fingerprint: string, open: () => Promise<C>): Promise<C> {
      const t = now();
      sweep(t);
      const hit = slots.get(key);
      if (hit && hit.fingerprint === fingerprint) {
        hit.lastUsed = t;
        return hit.conn;
      }
      if (hit) drop(hit);
      const slot: Slot<C> = { fingerprint, conn: open(), lastUsed: t };
      slots.set(key, slot);
      // A failed open is not kept: the next call tries again.
      slot.conn.catch(() => {
        if (slots.get(key) === slot) slots.delete(key);
      });
      return slot.conn;
    },
    get size(): number {
      return slots.size;
    },
    close(): void {
      for (const slot of slots.values()) drop(slot);
      slots.clear();
    },
  };
}

export type GatewayPool<C extends Closable> = ReturnType<typeof createGatewayPool<C>>;
