import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { nowIso } from "../../db/db.js";
import { MAX_DB_ID } from "../../http/schema-helpers.js";
import type { KeysService } from "../keys/keys.service.js";
import { exportsDir, writeAdminMsp } from "../fabric-networks/admin-msp.js";
import type { FabricContext } from "../fabric-networks/fabric-networks.context.js";

const params = z.object({ id: z.coerce.number().int().min(1).max(MAX_DB_ID).describe("Organization id") }).strict();
const body = z
  .object({ identity: z.enum(["admin"]).default("admin").describe("Which identity of the org to export") })
  .strict();
const response = z.object({
  path: z.string().describe("The MSP folder on the console host (CORE_PEER_MSPCONFIGPATH)"),
  mspId: z.string().describe("CORE_PEER_LOCALMSPID"),
  tlsRootCertFile: z.string().describe("The org's TLS CA (CORE_PEER_TLS_ROOTCERT_FILE for its peers)"),
  files: z.array(z.string()),
});

/**
 * Writes an org identity's local MSP folder (NodeOUs config, CA and TLS CA certs, signcert and
 * keystore) under `<dataDir>/exports` on the console host, for Fabric's own tools (the `peer` CLI).
 * The private key goes to that folder (0600), never into the response.
 */
export function registerMspExportRoute(
  app: FastifyInstance,
  deps: { fabric: FabricContext; keys: Pick<KeysService, "row" | "exportPrivateKeyPem">; dataDir: string },
): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    "/organizations/:id/msp/export",
    {
      config: { access: "ORGANIZATION_UPDATE", audit: "organization.msp_export" },
      schema: {
        operationId: "exportOrganizationMsp",
        tags: ["Organizations"],
        summary: "Write an org identity's MSP folder on the console host, for the peer CLI and other Fabric tools",
        params,
        body,
        response: { 200: response },
      },
    },
    async (req) => {
      req.auditInfo.resource = `organization:${req.params.id}`;
      req.auditInfo.details = { identity: req.body.identity };
      const org = await deps.fabric.org(req.params.id, "id");
      const dir = join(
        exportsDir(deps.dataDir),
        `${org.mspId}-${req.body.identity}-${nowIso().replace(/[:.]/g, "-")}`,
        "msp",
      );
      const msp = await writeAdminMsp(deps.keys, org, dir);
      return { path: msp.dir, mspId: msp.mspId, tlsRootCertFile: msp.tlsRootCertFile, files: msp.files };
    },
  );
}
