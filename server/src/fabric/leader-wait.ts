import { setTimeout as sleep } from "node:timers/promises";
import { common } from "@hyperledger/fabric-protos";
import { BroadcastError, broadcastEnvelope } from "./broadcast.js";
import { DeliverError } from "./deliver.js";
import type { GrpcEndpoint } from "./grpc-connection.js";

/** How long a broadcast or config read waits for a Raft leader by default (an election takes seconds). */
export const LEADER_WAIT_MS = 60_000;

/**
 * Whether an orderer answered that it cannot serve yet: SERVICE_UNAVAILABLE, which a Raft (or BFT)
 * orderer gives while its channel has no leader: right after the channel is created or joined,
 * and after an orderer restarts. Nothing was ordered, so sending the same envelope again is safe.
 */
export function isNoLeader(err: unknown): boolean {
  if (err instanceof BroadcastError) return err.statusName === "SERVICE_UNAVAILABLE";
  if (err instanceof DeliverError) return err.status === common.Status.SERVICE_UNAVAILABLE;
  return false;
}

export interface LeaderWaitOptions {
  /** Give up after this long (default LEADER_WAIT_MS). */
  timeoutMs?: number;
  /** First pause between tries (default 25 ms); pauses double up to `capMs`. */
  firstMs?: number;
  /** Longest pause between tries (default 1 s). */
  capMs?: number;
  /** Which failures mean "no leader yet" (default isNoLeader; the Gateway words it its own way). */
  when?: (err: unknown) => boolean;
}

/**
 * Runs `op` until it does not fail with a no-leader answer (isNoLeader), pausing with a doubling
 * backoff, for at most `timeoutMs`. Any other failure is thrown at once; a no-leader answer still
 * there at the deadline is thrown with the time waited added to its message.
 */
export async function untilLeader<T>(op: () => Promise<T>, opts: LeaderWaitOptions = {}): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? LEADER_WAIT_MS;
  const cap = Math.max(1, opts.capMs ?? 1_000);
  const started = Date.now();
  let delay = Math.min(cap, Math.max(1, opts.firstMs ?? 25));
  for (;;) {
    try {
      return await op();
    } catch (err) {
      if (!(opts.when ?? isNoLeader)(err)) throw err;
      const waited = Date.now() - started;
      if (waited + delay > timeoutMs) throw stillNoLeader(err, waited);
      await sleep(delay);
      delay = Math.min(cap, delay * 2);
    }
  }
}

function stillNoLeader(err: unknown, waitedMs: number): unknown {
  const note = `still after waiting ${(waitedMs / 1000).toFixed(waitedMs < 10_000 ? 1 : 0)} s for a leader`;
  if (err instanceof BroadcastError) {
    return new BroadcastError(err.status, err.statusName, err.info ? `${err.info} (${note})` : note);
  }
  if (err instanceof DeliverError) return new DeliverError(err.status, `${err.message} (${note})`);
  return err;
}

/**
 * broadcastEnvelope, waiting out an orderer without a Raft leader (see untilLeader).
 * @throws BroadcastError unless the orderer answers SUCCESS in time
 */
export function broadcastWhenLeader(
  endpoint: GrpcEndpoint,
  envelope: common.Envelope,
  opts: LeaderWaitOptions = {},
): Promise<void> {
  return untilLeader(() => broadcastEnvelope(endpoint, envelope), opts);
}
