import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { healthStatus } from "../nodes/nodes.schema.js";

/** The overall answer of a ping: every monitored node healthy (or none monitored), or not. */
export const OVERALL_STATUSES = ["healthy", "degraded"] as const;

export const pingResponse = lazySchema(() =>
  z
    .object({
      status: z.enum(OVERALL_STATUSES).describe("healthy when every monitored node is, else degraded"),
      total: z.number().int().describe("Monitored (RUNNING) nodes"),
      healthy: z.number().int().describe("Of them, healthy at their latest check"),
      unhealthy: z.number().int().describe("Of them, answering but not healthy"),
      unreachable: z.number().int().describe("Of them, not answering"),
      nodes: z.array(healthStatus).describe("Each monitored node's latest check, in id order"),
    })
    .describe("The health of every monitored node"),
);

/**
 * Upstream answers its triggers with a map of strings (Go's map[string]string): every value here is
 * a string, numbers included, so its clients decode it.
 */
export const nodeCheckResponse = lazySchema(() =>
  z
    .object({
      message: z.string().describe("What the check found"),
      nodeId: z.string().describe("The node checked (its id, as text)"),
      status: z.string().describe("healthy, unhealthy or unreachable"),
      lastChecked: z.string().describe("When it was checked, RFC 3339"),
      errorMessage: z.string().optional().describe("Why it is not healthy"),
    })
    .describe("The outcome of a check run now"),
);

export const checkAllResponse = lazySchema(() =>
  z
    .object({
      message: z.string().describe("What the checks found"),
      checked: z.string().describe("Nodes checked (monitored: RUNNING), as text"),
      healthy: z.string().describe("Healthy, as text"),
      unhealthy: z.string().describe("Answering but not healthy, as text"),
      unreachable: z.string().describe("Not answering, as text"),
    })
    .describe("The outcome of checking every monitored node now"),
);
