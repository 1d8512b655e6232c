import type { Client } from "openapi-fetch";
import { api } from "@/api/client";

type Json<T> = { headers: Record<string, unknown>; content: { "application/json": T } };
type Unused = {
  get?: never;
  put?: never;
  post?: never;
  delete?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
};
type NoParams = { query?: never; header?: never; path?: never; cookie?: never };

/** Body of POST /node/metrics-federation: grant (or withdraw) another console read access to our node metrics. */
export interface MetricsFederationBody {
  peer_node_id: string;
  metrics_federation: boolean;
}

/** Body of the PromQL routes: an instant query, or a range query with start, end and step. */
export interface ConnectionQueryBody {
  query: string;
  start?: string;
  end?: string;
  step?: string;
}

/** Prometheus's answer as the console passes it on (same shape as /metrics/node/{id}/query). */
export interface ConnectionQueryResult {
  status: string;
  data?: unknown;
  error?: string;
  warnings?: string[];
}

/**
 * The metrics federation endpoints of the federation contract, in openapi-typescript's shape. Local
 * types until the server's OpenAPI carries them (then `metricsFederationApi` becomes `api`, and the
 * types above the generated ones: checked against the fed-external branch's OpenAPI).
 */
export interface MetricsFederationPaths {
  "/node/metrics-federation": Omit<Unused, "post"> & {
    parameters: NoParams;
    post: {
      parameters: NoParams;
      requestBody: { content: { "application/json": MetricsFederationBody } };
      /** Upstream answers a map of strings; `message` says what changed. */
      responses: { 200: Json<Record<string, string>> };
    };
  };
  "/metrics/connection/{id}/query": Omit<Unused, "post"> & {
    parameters: NoParams;
    post: {
      parameters: { query?: never; header?: never; path: { id: string }; cookie?: never };
      requestBody: { content: { "application/json": ConnectionQueryBody } };
      responses: { 200: Json<ConnectionQueryResult> };
    };
  };
}

/** The one typed client seen through the metrics federation paths. */
export const metricsFederationApi = api as unknown as Client<MetricsFederationPaths>;
