import { isApiError } from "@/api/errors";
import type { ConnectionQueryResult } from "@/data/federation/types";

/** One scrape target of the other console, from its `up` series. */
export interface TargetUp {
  job: string;
  instance: string;
  up: boolean;
}

interface VectorSample {
  metric?: Record<string, string>;
  value?: [number, string];
}

/**
 * The targets in an instant `up` query's answer (Prometheus's vector: one sample per target, 1 when
 * its last scrape worked), sorted by job then instance. Anything else reads as no targets.
 */
export function parseUp(result: ConnectionQueryResult | undefined): TargetUp[] {
  const data = result?.data as { resultType?: string; result?: unknown } | undefined;
  if (data?.resultType !== "vector" || !Array.isArray(data.result)) return [];
  return (data.result as VectorSample[])
    .map((s) => ({
      job: s.metric?.job ?? "",
      instance: s.metric?.instance ?? "",
      up: s.value?.[1] === "1",
    }))
    .sort((a, b) => a.job.localeCompare(b.job) || a.instance.localeCompare(b.instance));
}

/** The reason the server gives when the other console refuses to answer us (details.reason). */
export const NOT_GRANTED_REASON = "metrics_federation_not_granted";

/**
 * Why the other console's metrics can't be shown, when the cause is on its side: it has not granted
 * this console access (403 with that reason; a 403 without it is this user's own role) or it can't
 * be reached (502). Undefined for any other failure.
 */
export function metricsRefusal(error: unknown): "not-granted" | "unreachable" | undefined {
  if (!isApiError(error)) return undefined;
  if (error.status === 403) {
    const reason = (error.body as { details?: { reason?: unknown } } | undefined)?.details?.reason;
    return reason === NOT_GRANTED_REASON || /grant/i.test(error.message) ? "not-granted" : undefined;
  }
  if (error.status === 502) return "unreachable";
  return undefined;
}

/** What the other console last said about granting us its metrics (`peer_grants_metrics`). */
export function theirGrantText(grants: boolean | null): string {
  if (grants === true) return "It grants this console read access to its node metrics.";
  if (grants === false) return "It has not granted this console access to its node metrics (as it last said).";
  return "Whether it grants this console access is not known yet (it is learned from its pings).";
}
