import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { DEFAULT_BESU_VERSION } from "./besu-binary.js";
import type { BesuReadinessService } from "./besu-readiness.js";

const tags = ["Nodes"];

const toolInfo = (tool: string) =>
  z.object({
    installed: z.boolean().describe(`Whether ${tool} was found`),
    path: z.string().optional().describe(`Where ${tool} was found`),
    version: z.string().optional().describe(`The version ${tool} reports`),
    error: z.string().optional().describe(`Why ${tool} can't be used, with how to install it`),
  });

const readiness = lazySchema(() =>
  z.object({
    ready: z.boolean().describe("true when besu and a Java 21+ runtime are installed and run"),
    platform: z.string().describe("Operating system, as Go names it (linux, darwin, windows)"),
    arch: z.string().describe("CPU architecture, as Go names it (amd64, arm64)"),
    besu: toolInfo("besu"),
    java: toolInfo("java"),
    errors: z.array(z.string()).describe("What stops a Besu node from starting here"),
    warnings: z.array(z.string()).describe("What would happen on the first start (downloads)"),
  }),
);

const verification = lazySchema(() =>
  z.object({
    success: z.boolean().describe("Whether besu was found and ran"),
    version: z.string().describe("The version asked for"),
    actualVersion: z.string().optional().describe("The version `besu --version` reports"),
    binaryPath: z.string().optional().describe("The besu launcher that ran"),
    downloaded: z.boolean().describe("Whether this call downloaded the release"),
    error: z.string().optional().describe("Why it failed, with how to install Besu"),
  }),
);

/** upstream's Besu readiness check and version verification. */
export function registerBesuReadinessRoutes(app: FastifyInstance, svc: BesuReadinessService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/nodes/readiness/besu",
    {
      config: { access: "NODE_READ" },
      schema: {
        operationId: "checkBesuReadiness",
        tags,
        summary: "Whether besu and a Java 21+ runtime are installed here, with their paths and versions",
        response: { 200: readiness },
      },
    },
    async () => svc.check(),
  );

  r.post(
    "/nodes/verify/besu",
    {
      // It may download a Besu release onto this host (when downloads are on): node creators only.
      config: { access: "NODE_CREATE", audit: "node.besu_verify" },
      schema: {
        operationId: "verifyBesuVersion",
        tags,
        summary: "Find besu for a version (downloading it when downloads are on) and run `besu --version`",
        body: lazySchema(() =>
          z
            .object({
              version: z
                .string()
                .regex(/^\d{1,4}\.\d{1,4}\.\d{1,4}$/, "must be a release version such as 25.6.0")
                .optional()
                .describe(`Besu release (default ${DEFAULT_BESU_VERSION})`),
            })
            .strict(),
        ),
        response: { 200: verification },
      },
    },
    async (req) => {
      const version = req.body.version ?? DEFAULT_BESU_VERSION;
      const res = await svc.verify(version);
      req.auditInfo.details = { version, success: res.success, downloaded: res.downloaded };
      return res;
    },
  );
}
