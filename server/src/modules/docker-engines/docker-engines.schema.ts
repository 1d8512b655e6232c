import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";

export const engineName = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9][a-z0-9_-]*$/, "must be lowercase letters, digits, - and _ (e.g. rack-b)")
    .refine((n) => n !== "local", "'local' is the console's own engine")
    .describe("Name nodes are placed by"),
);

export const createEngineBody = lazySchema(() =>
  z
    .object({
      name: engineName,
      host: z
        .string()
        .max(512)
        .regex(
          /^(unix:\/\/\/\S+|tcp:\/\/[A-Za-z0-9.-]+:\d{1,5})$/,
          "must be unix:///path/docker.sock or tcp://host:port",
        )
        .describe("Where the engine answers"),
      tls: z
        .object({
          ca: z.string().min(1).max(20_000).describe("CA certificate (PEM) the engine's certificate must chain to"),
          cert: z.string().min(1).max(20_000).describe("Client certificate (PEM)"),
          key: z.string().min(1).max(20_000).describe("Client private key (PEM); stored encrypted, never returned"),
        })
        .strict()
        .optional()
        .describe("TLS client material (tcp:// engines started with --tlsverify)"),
    })
    .strict()
    .describe("A Docker engine to register"),
);

export const engineResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("0 for the local engine"),
      name: z.string().describe("local, or the registered name"),
      host: z.string().describe("Where it answers"),
      tls: z.boolean().describe("Whether TLS client material is stored"),
      local: z.boolean().describe("The console's own engine (CHAINLAUNCH_DOCKER_HOST)"),
      status: z.enum(["up", "down"]).describe("Whether it answered just now"),
      version: z.string().optional().describe("Engine version when up"),
      error: z.string().optional().describe("Why it did not answer"),
      created_at: z.string().optional().describe("When it was registered"),
    })
    .describe("A Docker engine"),
);

export const engineList = lazySchema(() => z.object({ engines: z.array(engineResponse) }).describe("Docker engines"));
export type EngineResponse = z.infer<typeof engineResponse>;
export type CreateEngineBody = z.infer<typeof createEngineBody>;
