import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";

const STATUSES = ["running", "succeeded", "failed"] as const;

export const operationResponse = lazySchema(() =>
  z
    .object({
      id: z.string().describe("Operation id (a UUID; forgotten when the console restarts)"),
      kind: z
        .string()
        .describe("What runs: project.run, backup, chaincode.build, chaincode.deploy, chaincode.install, ..."),
      resource: z
        .string()
        .describe("The resource it works on, <type>:<id> (chaincode_project:3, backup:7, chaincode_definition:5)"),
      label: z.string().describe("What the screen says it is"),
      phases: z.array(z.string()).describe("Phases in order: the planned ones and any the run entered besides"),
      phase: z.string().nullable().describe("The phase running now (the last one entered once it ended)"),
      phaseStartedAt: z.string().nullable().describe("When the current phase started (ISO 8601)"),
      durations: z.record(z.string(), z.number()).describe("Milliseconds each finished phase took"),
      detail: z.string().nullable().describe("The step inside the phase (npm install, a node's name)"),
      percent: z.number().nullable().describe("0-100 inside the phase, when the work reports it"),
      status: z.enum(STATUSES).describe("running, succeeded or failed"),
      error: z.string().nullable().describe("Why it failed"),
      startedAt: z.string().describe("When it really started (ISO 8601): elapsed time counts from here"),
      finishedAt: z.string().nullable().describe("When it ended (ISO 8601)"),
      user: z.string().describe("Who started it (empty for the scheduler)"),
    })
    .meta({ id: "Operation" }),
);

export const operationsQuery = lazySchema(() =>
  z
    .object({
      resource: z
        .string()
        .trim()
        .max(200)
        .regex(/^[a-z_]+:\d+$/, "resource must be <type>:<id>, e.g. chaincode_project:3")
        .optional()
        .describe("Only this resource's operations, <type>:<id>"),
      kind: z
        .string()
        .trim()
        .max(100)
        .regex(/^[a-z_.]+$/, "kind must be letters, '_' and '.'")
        .optional()
        .describe("Only this kind (backup), or every kind under a prefix ending in '.' (chaincode.)"),
    })
    .strict(),
);

export const operationsResponse = lazySchema(() =>
  z.object({
    operations: z.array(operationResponse).describe("Running and recently finished operations, newest first"),
    serverTime: z.string().describe("The server's clock now (ISO 8601), to count elapsed time without clock skew"),
  }),
);
