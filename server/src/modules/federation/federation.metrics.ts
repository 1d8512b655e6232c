import {
  AppError,
  ConflictError,
  ForbiddenError,
  InputError,
  NotFoundError,
  UpstreamError,
} from "../../http/errors.js";
import type { QueryInput } from "../metrics/metrics-query.js";
import type { PromResponse } from "../metrics/prometheus-client.js";
import type { PrometheusService } from "../metrics/prometheus.service.js";
import type { FederationClient, FederationReply } from "./federation.client.js";
import type { ConnectionRow, FederationRepo } from "./federation.repo.js";
import { labelValuesResponse, queryResult } from "../metrics/metrics.schema.js";
import type { MetricsQueryWire } from "./federation.metrics.schema.js";

/** The signed routes one console serves another's metrics queries on (docs/federation.md). */
export const METRICS_PATHS = {
  query: "/federation/metrics/query",
  labelValues: "/federation/metrics/label-values",
} as const;

/**
 * The other console's refusal or failure as our own error: the status it gave is kept for what the
 * caller can act on (403 not granted, 400 bad PromQL, 404, 409, 503 no Prometheus there); anything
 * else is a 502. The message names the console.
 */
function relayRefusal(nodeId: string, reply: FederationReply): Error {
  const message = `the console ${nodeId} answered: ${reply.message}`;
  switch (reply.status) {
    case 400:
      return new InputError(message);
    case 403:
      return new ForbiddenError(message, { reason: "metrics_federation_not_granted" });
    case 404:
      return new NotFoundError(message);
    case 409:
      return new ConflictError(message);
    case 503:
      return new AppError(message, 503, "METRICS_UNAVAILABLE");
    default:
      return new UpstreamError(message);
  }
}

/**
 * What connected consoles last said about granting this one metrics federation (their ping answers
 * and query replies). Kept in memory: the first ping round, within a second of start, fills it again.
 */
export function createPeerGrants() {
  const known = new Map<string, boolean>();
  return {
    get: (nodeId: string): boolean | undefined => known.get(nodeId),
    set: (nodeId: string, grants: boolean): void => void known.set(nodeId, grants),
  };
}
export type PeerGrants = ReturnType<typeof createPeerGrants>;

/**
 * Metrics federation. `metrics_federation` on a connection means THIS console grants the other one
 * read access to its node metrics: queries it signs are answered from this console's Prometheus,
 * confined to this console's node jobs. Outbound, a query is sent to the other console, which
 * decides by its own grant.
 */
export function createMetricsFederation(deps: {
  repo: Pick<FederationRepo, "connection" | "connectionById" | "setMetricsFederation">;
  client: FederationClient;
  metrics: Pick<PrometheusService, "federatedQuery" | "federatedLabelValues">;
  peerGrants?: Pick<PeerGrants, "set">;
  now?: () => number;
}) {
  const { repo, client, metrics } = deps;
  const now = deps.now ?? Date.now;

  /** A connection named by its numeric id or its node id (upstream's path parameter is a string). */
  async function usable(ref: string): Promise<ConnectionRow> {
    const row = /^\d+$/.test(ref) ? await repo.connectionById(Number(ref)) : await repo.connection(ref);
    if (!row) throw new NotFoundError(`id: no connection with id or node id ${ref}`);
    if (row.status === "revoked") throw new ConflictError(`the connection with ${row.node_id} is revoked`);
    return row;
  }

  /** Refuses a sender this console does not grant (the signature was already checked). */
  async function mustGrant(sender: string): Promise<void> {
    const row = await repo.connection(sender);
    if (row?.metrics_federation !== 1) {
      throw new ForbiddenError(`this console does not grant metrics federation to ${sender}`, {
        reason: "metrics_federation_not_granted",
      });
    }
  }

  async function ask(ref: string, path: string, body: unknown): Promise<unknown> {
    const row = await usable(ref);
    const reply = await client.send({ endpoint: row.endpoint, to: row.node_id, method: "POST", path, body });
    const reason = (reply.data as { details?: { reason?: unknown } } | undefined)?.details?.reason;
    if (reply.status === 200) deps.peerGrants?.set(row.node_id, true);
    if (reply.status === 403 && reason === "metrics_federation_not_granted") deps.peerGrants?.set(row.node_id, false);
    if (reply.status !== 200) throw relayRefusal(row.node_id, reply);
    return reply.data;
  }

  return {
    /** Turns the grant on or off; 404 for an unknown console, 409 for a revoked connection. */
    async setGrant(nodeId: string, on: boolean): Promise<{ message: string }> {
      const row = await repo.connection(nodeId);
      if (!row) throw new NotFoundError(`peer_node_id: no connected console with node id ${nodeId}`);
      if (row.status === "revoked") throw new ConflictError(`peer_node_id: the connection with ${nodeId} is revoked`);
      await repo.setMetricsFederation(nodeId, on, new Date(now()).toISOString());
      return {
        message: on
          ? `metrics federation enabled: ${nodeId} may query this console's node metrics`
          : `metrics federation disabled: ${nodeId} may no longer query this console's node metrics`,
      };
    },

    /** PromQL on the other console's node metrics, as far as it grants us. */
    async query(ref: string, input: QueryInput): Promise<PromResponse> {
      const data = await ask(ref, METRICS_PATHS.query, input);
      const ok = queryResult.safeParse(data);
      if (!ok.success) throw new UpstreamError(`the console ${ref} answered the query with an unexpected body`);
      return ok.data;
    },

    async labelValues(ref: string, label: string, match: string[]): Promise<{ status: string; data: string[] }> {
      const data = await ask(ref, METRICS_PATHS.labelValues, { label, match });
      const ok = labelValuesResponse.safeParse(data);
      if (!ok.success) throw new UpstreamError(`the console ${ref} answered the label values with an unexpected body`);
      return ok.data;
    },

    /** Inbound: a granted console's query, confined to this console's node jobs. */
    async receiveQuery(sender: string, input: MetricsQueryWire): Promise<PromResponse> {
      await mustGrant(sender);
      return metrics.federatedQuery(input);
    },

    async receiveLabelValues(
      sender: string,
      label: string,
      match: string[],
    ): Promise<{ status: string; data: string[] }> {
      await mustGrant(sender);
      const res = await metrics.federatedLabelValues(label, match);
      return { status: res.status, data: Array.isArray(res.data) ? (res.data as string[]) : [] };
    },
  };
}

export type MetricsFederation = ReturnType<typeof createMetricsFederation>;
