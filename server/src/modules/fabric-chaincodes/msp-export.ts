import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { nowIso } from "../../db/db.js";
import { renderCliCoreYaml } from "../../fabric/config/index.js";
import { lazySchema, MAX_DB_ID } from "../../http/schema-helpers.js";
import type { KeysService } from "../keys/keys.service.js";
import { exportsDir, writeAdminMsp } from "../fabric-networks/admin-msp.js";
import { joinedNodes, knownOrdererTlsCas, pemBundle } from "../fabric-networks/channel-orderers.js";
import { dialAddress, type FabricContext } from "../fabric-networks/fabric-networks.context.js";
import type { FabricNetworksRepo } from "../fabric-networks/fabric-networks.repo.js";

const params = lazySchema(() =>
  z.object({ id: z.coerce.number().int().min(1).max(MAX_DB_ID).describe("Organization id") }).strict(),
);
const body = lazySchema(() =>
  z.object({ identity: z.enum(["admin"]).default("admin").describe("Which identity of the org to export") }).strict(),
);
const response = lazySchema(() =>
  z.object({
    path: z.string().describe("The MSP folder on the console host (CORE_PEER_MSPCONFIGPATH)"),
    mspId: z.string().describe("CORE_PEER_LOCALMSPID"),
    tlsRootCertFile: z.string().describe("The org's TLS CA (CORE_PEER_TLS_ROOTCERT_FILE for its peers)"),
    files: z.array(z.string()).describe("The MSP folder's files, relative to path"),
    configPath: z
      .string()
      .describe(
        "A folder holding a core.yaml for the peer CLI (FABRIC_CFG_PATH), set up for this identity and the org's peers",
      ),
    ordererTlsRootCertFile: z
      .string()
      .optional()
      .describe(
        "The TLS CAs of every orderer org the console knows, in one file (the peer CLI's --cafile); absent when it knows none",
      ),
    ordererTlsRootCertFiles: z
      .array(
        z.object({
          mspId: z.string().describe("Orderer org MSP id"),
          file: z.string().describe("Its TLS CA certificate(s)"),
        }),
      )
      .describe("The same TLS CAs, one file per orderer org"),
  }),
);

/** The first peer of `organizationId` joined to any channel, as host:port to dial. */
async function firstPeerAddress(
  fabric: FabricContext,
  networks: Pick<FabricNetworksRepo, "members" | "all">,
  organizationId: number,
): Promise<string | undefined> {
  for (const row of await networks.all()) {
    const peer = (await joinedNodes(fabric, networks, row.id, "peer")).find((p) => p.organizationId === organizationId);
    if (peer) return dialAddress(peer.endpoint);
  }
  return undefined;
}

/**
 * Writes an org identity's local MSP folder (NodeOUs config, CA and TLS CA certs, signcert and
 * keystore) under `<dataDir>/exports` on the console host, for Fabric's own tools (the `peer` CLI),
 * with what the CLI needs beside it: a core.yaml (FABRIC_CFG_PATH) and the orderer orgs' TLS CAs
 * (`--cafile` of invoke and channel fetch). The private key goes to that folder (0600), never
 * into the response.
 */
export function registerMspExportRoute(
  app: FastifyInstance,
  deps: {
    fabric: FabricContext;
    networks: Pick<FabricNetworksRepo, "members" | "all">;
    keys: Pick<KeysService, "row" | "exportPrivateKeyPem">;
    dataDir: string;
  },
): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    "/organizations/:id/msp/export",
    {
      config: { access: "ORGANIZATION_UPDATE", audit: "organization.msp_export" },
      schema: {
        operationId: "exportOrganizationMsp",
        tags: ["Organizations"],
        summary: "Write an org identity's MSP folder on the console host, for the peer CLI and other Fabric tools",
        description:
          "Beside the MSP folder: a core.yaml for the peer CLI (configPath, for FABRIC_CFG_PATH) and the TLS CAs of the orderer orgs the console knows (ordererTlsRootCertFile, for --cafile). The private key stays on the host.",
        params,
        body,
        response: { 200: response },
      },
    },
    async (req) => {
      req.auditInfo.resource = `organization:${req.params.id}`;
      req.auditInfo.details = { identity: req.body.identity };
      const org = await deps.fabric.org(req.params.id, "id");
      const root = join(
        exportsDir(deps.dataDir),
        `${org.mspId}-${req.body.identity}-${nowIso().replace(/[:.]/g, "-")}`,
      );
      const msp = await writeAdminMsp(deps.keys, org, join(root, "msp"));
      await writeFile(
        join(root, "core.yaml"),
        renderCliCoreYaml({
          mspId: msp.mspId,
          mspDir: msp.dir,
          tlsRootCertFile: msp.tlsRootCertFile,
          peerAddress: await firstPeerAddress(deps.fabric, deps.networks, org.row.id),
        }),
        { mode: 0o644 },
      );
      const cas = await knownOrdererTlsCas(deps.fabric, deps.networks);
      const ordererTlsRootCertFiles: { mspId: string; file: string }[] = [];
      for (const [mspId, pems] of cas) {
        // MSP ids of orgs from imported channels are any string: keep the file name plain.
        const file = join(root, "orderers", `${mspId.replace(/[^A-Za-z0-9._-]/g, "_")}-tlsca.pem`);
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, pemBundle(pems), { mode: 0o644 });
        ordererTlsRootCertFiles.push({ mspId, file });
      }
      let ordererTlsRootCertFile: string | undefined;
      if (cas.size > 0) {
        ordererTlsRootCertFile = join(root, "orderers", "tlscas.pem");
        await writeFile(ordererTlsRootCertFile, pemBundle([...cas.values()].flat()), { mode: 0o644 });
      }
      return {
        path: msp.dir,
        mspId: msp.mspId,
        tlsRootCertFile: msp.tlsRootCertFile,
        files: msp.files,
        configPath: root,
        ordererTlsRootCertFile,
        ordererTlsRootCertFiles,
      };
    },
  );
}
