import type { FastifyBaseLogger } from "fastify";
import { errorMessage } from "../../http/errors.js";
import type { FederationClient } from "./federation.client.js";
import type { FederationRepo } from "./federation.repo.js";
import { pingResponse } from "./federation.wire.js";

/**
 * Keeps connection status live: every interval each connection that is not revoked gets a signed
 * ping. An answer marks it connected; no answer (or a wrong one) marks it unreachable with the
 * reason; a refusal saying we were revoked marks it revoked here too (the revoke message may have
 * been lost). Ticks never overlap, and each also prunes old message nonces.
 */
export function createPingLoop(deps: {
  repo: Pick<FederationRepo, "listConnections" | "setReachability" | "revoke">;
  /** Told what each answering console says about granting us metrics federation. */
  onPeerGrant?: (nodeId: string, grants: boolean) => void;
  client: FederationClient;
  pruneNonces: () => Promise<void>;
  intervalMs: number;
  log: Pick<FastifyBaseLogger, "warn">;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const iso = (): string => new Date(now()).toISOString();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  async function pingOne(c: { node_id: string; endpoint: string }): Promise<void> {
    try {
      const reply = await deps.client.send({
        endpoint: c.endpoint,
        to: c.node_id,
        method: "GET",
        path: "/federation/ping",
        timeoutMs: Math.max(1000, Math.min(deps.intervalMs, 10_000)),
      });
      if (stopped) return;
      const ok = pingResponse.safeParse(reply.data);
      if (reply.status === 200 && ok.success && ok.data.node_id === c.node_id) {
        await deps.repo.setReachability(c.node_id, true, iso(), null);
        if (ok.data.metrics_federation !== undefined) deps.onPeerGrant?.(c.node_id, ok.data.metrics_federation);
      } else if (
        reply.status === 403 &&
        (reply.data as { details?: { reason?: unknown } } | undefined)?.details?.reason === "revoked"
      ) {
        await deps.repo.revoke(c.node_id, iso(), `the other console revoked the connection: ${reply.message}`);
      } else {
        await deps.repo.setReachability(c.node_id, false, iso(), `ping answered ${reply.status}: ${reply.message}`);
      }
    } catch (err) {
      if (!stopped) await deps.repo.setReachability(c.node_id, false, iso(), errorMessage(err));
    }
  }

  async function tick(): Promise<void> {
    const all = (await deps.repo.listConnections()).filter((c) => c.status !== "revoked");
    await Promise.all(all.map(pingOne));
    await deps.pruneNonces();
  }

  function schedule(delayMs = deps.intervalMs): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((err: unknown) => deps.log.warn({ err }, "federation ping round failed"))
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, delayMs);
    timer.unref();
  }

  return {
    /** Starts the loop; the first round runs soon (within a second), so a restarted console shows live status. */
    start(): void {
      stopped = false;
      schedule(Math.min(deps.intervalMs, 1000));
    },
    /** Stops the loop and waits for a round in progress (it writes to the database). */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
    /** One round now (tests and the first status after start). */
    tick,
  };
}
