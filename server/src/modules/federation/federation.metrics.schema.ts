import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { labelValuesQuery, queryBody } from "../metrics/metrics.schema.js";

/** Schemas of metrics federation: the operator's routes and the signed console-to-console messages. */

export const metricsFederationBody = lazySchema(() =>
  z
    .object({
      peer_node_id: z
        .string()
        .min(1)
        .max(128)
        .regex(/^[A-Za-z0-9._:-]+$/, "must be a node id (letters, digits, '.', '_', ':' and '-')")
        .describe("Node id of the connected console"),
      metrics_federation: z
        .boolean()
        .optional()
        .default(false)
        .describe("true grants that console read access to this console's node metrics; false withdraws it"),
    })
    .describe("Grant or withdraw metrics federation for a connected console")
    .meta({ id: "MetricsFederationRequest" }),
);

export const metricsFederationResponse = lazySchema(() =>
  z
    .record(z.string(), z.string())
    .describe("A map of strings, as upstream answers: message says what changed")
    .meta({ id: "MetricsFederationResponse" }),
);

/** Upstream's path parameter is a string: the connection's numeric id or the other console's node id. */
const connectionRef = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9._:-]+$/, "must be a connection id or a node id")
    .describe("The connection's id (GET /node/connected-peers) or the other console's node id"),
);

export const connectionParams = lazySchema(() => z.object({ id: connectionRef }).strict());
export const connectionLabelParams = lazySchema(() =>
  z.object({ id: connectionRef, label: z.string().min(1).max(128).describe("Label name") }).strict(),
);
export const connectionLabelValuesQuery = labelValuesQuery;

/** Console to console: a query (the same body as POST /metrics/node/{id}/query). */
export const metricsQueryWire = queryBody;
export type MetricsQueryWire = z.infer<typeof metricsQueryWire>;

/**
 * Console to console: label values. A POST with the label in the body rather than a GET with a path
 * parameter and a query string, because the signature covers the route path and the body only.
 */
export const metricsLabelValuesWire = lazySchema(() =>
  z
    .object({
      label: z.string().min(1).max(128).describe("Label name"),
      match: z.array(z.string().max(2000)).max(20).describe("Series selectors narrowing the series"),
    })
    .strict()
    .describe("Label values request between consoles")
    .meta({ id: "FederationLabelValuesRequest" }),
);
