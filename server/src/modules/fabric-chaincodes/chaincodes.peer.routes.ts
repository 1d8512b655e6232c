import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { builtOnce, dbId, dbIdQuery, lazySchema } from "../../http/schema-helpers.js";
import { ConfigtxInputError } from "../../fabric/configtx/errors.js";
import { readChaincodePackage, type PackageInfo } from "../../fabric/chaincode/package-read.js";
import { assertHostCommandAllowed } from "../../http/host-command.js";
import { ConflictError, InputError } from "../../http/errors.js";
import type { ChaincodePeerLifecycle, PeerDefinition } from "./chaincodes.peer.js";
import type { ChaincodeShared } from "./chaincodes.shared.js";

const tags = ["SmartContracts"];
const user = (req: FastifyRequest): string => req.principal?.username ?? "";
/** Largest install package taken (ccaas packages are a few KiB; a Go package with vendored modules tens of MiB). */
const MAX_PACKAGE = 64 * 1024 * 1024;

/** Go's []byte is base64 in JSON; the swagger file says an array of integers: both are taken. */
const bytesField = (what: string) =>
  z
    .union([z.string().max(Math.ceil((MAX_PACKAGE * 4) / 3) + 4), z.array(z.number().int().min(0).max(255))])
    // A union refuses null as "invalid union", which the Go-null reader does not drop: null is absent.
    .nullable()
    .describe(`${what}: base64 (Go's []byte) or an array of bytes`);

const peerParams = lazySchema(() =>
  z
    .object({
      peerId: dbIdQuery().describe("Peer (node) id"),
    })
    .strict(),
);

const definitionFields = builtOnce(() => ({
  channelID: z.string().max(249).optional().describe("Channel name"),
  name: z.string().max(128).optional().describe("Chaincode name"),
  version: z.string().max(128).optional().describe("Chaincode version"),
  sequence: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional()
    .describe("Definition sequence (1 and up)"),
  endorsementPolicy: z
    .string()
    .max(4096)
    .optional()
    .describe("Signature policy, e.g. OR('Org1MSP.member'); empty: the channel's default"),
  initRequired: z.boolean().optional().describe("Init must be invoked first"),
}));
const approveBody = lazySchema(() =>
  z
    .object({
      ...definitionFields(),
      packageID: z.string().max(300).optional().describe("Installed package id (label:sha256)"),
    })
    .strict()
    .describe("A definition to approve for the peer's org"),
);
const commitBody = lazySchema(() =>
  z.object(definitionFields()).strict().describe("A definition to commit on the channel"),
);
const installBody = lazySchema(() =>
  z
    .object({
      label: z.string().max(200).optional().describe("Package label; must equal the package's own"),
      package_bytes: bytesField("The chaincode install package (peer lifecycle chaincode package)").optional(),
    })
    .strict()
    .describe("A package to install on the peer"),
);
const opaque = lazySchema(() =>
  z.record(z.string(), z.unknown()).nullable().optional().describe("Upstream's client object; ignored"),
);
const deployBody = lazySchema(() =>
  z
    .object({
      installParams: z
        .object({
          label: z.string().max(200).optional().describe("Package label"),
          packageBytes: bytesField("The chaincode install package").optional(),
          peer: opaque,
        })
        .strict()
        .optional()
        .describe("What to install"),
      approveParams: z
        .object({
          ...approveBody.unwrap().shape,
          collectionsConfig: bytesField("Serialized CollectionConfigPackage (not supported: must be empty)").optional(),
          gateway: opaque,
        })
        .strict()
        .optional()
        .describe("The definition to approve"),
      commitParams: z
        .object({
          ...commitBody.unwrap().shape,
          collectionsConfig: bytesField("Serialized CollectionConfigPackage (not supported: must be empty)").optional(),
          gateway: opaque,
        })
        .strict()
        .optional()
        .describe("The definition to commit (empty fields: the approved ones)"),
      peerIds: z
        .array(dbId())
        .max(50)
        .optional()
        .describe(
          "Peers to install on and approve through (default: every running peer of this console on the channel)",
        ),
    })
    .strict()
    .describe("Install, approve for each org and commit, in one call"),
);

const deploymentResult = lazySchema(() =>
  z.object({
    success: z.boolean().describe("The step succeeded"),
    chaincodeID: z.string().describe("Package id (install, approve, deploy) or chaincode name (commit)"),
    contractAddress: z.string().describe("Empty (EVM only)"),
    transactionHash: z.string().describe("Transaction id of the approve or commit (empty when nothing was sent)"),
    logs: z.string().describe("What happened"),
    error: z.null().describe("Always null on success (failures are error responses)"),
  }),
);
const stepResponse = lazySchema(() =>
  z
    .object({
      status: z.string().describe("success"),
      message: z.string().describe("What happened"),
      result: deploymentResult,
      definitionId: z.number().int().optional().describe("This console's definition of it (timeline, status)"),
    })
    .describe("A lifecycle step's outcome"),
);

/** Bytes from base64 or a byte array, or a 400 naming the field. */
function bytesOf(v: string | number[] | null | undefined, field: string): Buffer {
  if (v === undefined || v === null || v.length === 0) throw new InputError(`${field}: required`, { field });
  if (Array.isArray(v)) return Buffer.from(v);
  if (!/^[A-Za-z0-9+/\r\n]+={0,2}$/.test(v)) throw new InputError(`${field}: not base64`, { field });
  return Buffer.from(v, "base64");
}

function packageOf(bytes: Buffer, field: string, label: string | undefined, labelField: string): PackageInfo {
  let info: PackageInfo;
  try {
    info = readChaincodePackage(bytes, field);
  } catch (err) {
    if (err instanceof ConfigtxInputError) throw new InputError(`${err.field}: ${err.message}`, { field: err.field });
    throw err;
  }
  if (label && label !== info.label)
    throw new InputError(`${labelField}: "${label}" differs from the package's label "${info.label}"`, {
      field: labelField,
    });
  return info;
}

/**
 * A package that is not chaincode-as-a-service makes the peer build and run its code on this host
 * (decision 51): admins only, refused to others with a 403 naming the field (audited), as a prebuilt
 * executable is on the definition routes.
 */
function checkPackageType(req: FastifyRequest, info: PackageInfo, field: string): void {
  if (info.type !== "ccaas")
    assertHostCommandAllowed(
      req,
      field,
      `a chaincode package of type "${info.type}" (the peer builds and runs its code)`,
    );
}

const definitionOf = (b: z.infer<typeof approveBody>): PeerDefinition => ({
  channelID: b.channelID ?? "",
  name: b.name ?? "",
  version: b.version ?? "",
  sequence: b.sequence ?? 0,
  endorsementPolicy: b.endorsementPolicy ?? "",
  initRequired: b.initRequired ?? false,
  ...(b.packageID ? { packageID: b.packageID } : {}),
});

const result = (r: { message: string; transaction_id?: string; definitionId?: number }, chaincodeID: string) => ({
  status: "success",
  message: r.message,
  result: {
    success: true,
    chaincodeID,
    contractAddress: "",
    transactionHash: r.transaction_id ?? "",
    logs: r.message,
    error: null,
  },
  ...(r.definitionId ? { definitionId: r.definitionId } : {}),
});

/**
 * Upstream's per-peer lifecycle and one-shot deploy (/sc/fabric/peer/{peerId}/chaincode/install|
 * approve|commit, /sc/fabric/deploy), on the console's journaled, idempotent steps.
 */
export function registerChaincodePeerRoutes(
  app: FastifyInstance,
  peerLc: ChaincodePeerLifecycle,
  s: Pick<ChaincodeShared, "channelNodes">,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    "/sc/fabric/peer/:peerId/chaincode/install",
    {
      bodyLimit: MAX_PACKAGE * 2,
      config: { access: "CHAINCODE_UPDATE", audit: "chaincode.peer_install" },
      schema: {
        operationId: "installFabricChaincode",
        tags,
        summary: "Install a chaincode package on a peer",
        description:
          "package_bytes is what `peer lifecycle chaincode package` writes. A ccaas package is for everyone with the " +
          "permission; any other type makes the peer build and run code on this host: 403 unless HOST_COMMAND (admins).",
        params: peerParams,
        body: installBody,
        response: { 200: stepResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `node:${req.params.peerId}`;
      const bytes = bytesOf(req.body.package_bytes, "package_bytes");
      const info = packageOf(bytes, "package_bytes", req.body.label, "label");
      req.auditInfo.details = { package_id: info.packageId, type: info.type };
      checkPackageType(req, info, "package_bytes");
      const res = await peerLc.install(req.params.peerId, bytes, info, user(req));
      const message = `${res.alreadyInstalled ? "already installed" : "installed"} on ${res.peer.name}`;
      return result({ message }, res.packageId);
    },
  );

  const step = (name: "approve" | "commit", summary: string, body: typeof approveBody | typeof commitBody) =>
    r.post(
      `/sc/fabric/peer/:peerId/chaincode/${name}`,
      {
        config: { access: "CHAINCODE_UPDATE", audit: `chaincode.peer_${name}` as const },
        schema: {
          operationId: `${name}FabricChaincode`,
          tags,
          summary,
          description:
            "Finds (or records, origin package) this console's definition of (channelID, name, sequence) and runs " +
            "the same idempotent step as /sc/fabric/definitions/{id}/" +
            name +
            ": answered success without sending anything when the channel already has it.",
          params: peerParams,
          body,
          response: { 200: stepResponse },
        },
      },
      async (req) => {
        req.auditInfo.resource = `node:${req.params.peerId}`;
        const d = definitionOf(req.body as z.infer<typeof approveBody>);
        req.auditInfo.details = { ...d };
        const res = await peerLc[name](req.params.peerId, d, user(req));
        req.auditInfo.details = { ...d, definition_id: res.definitionId };
        return result(res, name === "approve" ? (d.packageID ?? "") : d.name);
      },
    );
  step("approve", "Approve a chaincode definition for the peer's org (signed by its admin)", approveBody);
  step("commit", "Commit a chaincode definition on the channel once enough orgs approved", commitBody);

  r.post(
    "/sc/fabric/deploy",
    {
      bodyLimit: MAX_PACKAGE * 2,
      config: { access: "CHAINCODE_UPDATE", audit: "chaincode.deploy" },
      schema: {
        operationId: "deployFabricChaincode",
        tags,
        summary: "Install a package, approve for each org and commit, in one call",
        description:
          "Installs on peerIds (default: every running peer of this console on approveParams.channelID), approves " +
          "once per org of those peers and commits through the first. Each step is the journaled, idempotent one, " +
          "so a retry after a failure completes what is missing. Package types other than ccaas need HOST_COMMAND.",
        body: deployBody,
        response: { 200: stepResponse },
      },
    },
    async (req) => {
      const b = req.body;
      const inst = b.installParams ?? {};
      const bytes = bytesOf(inst.packageBytes, "installParams.packageBytes");
      const info = packageOf(bytes, "installParams.packageBytes", inst.label, "installParams.label");
      const a = b.approveParams ?? {};
      const c = b.commitParams ?? {};
      for (const [v, f] of [
        [a.collectionsConfig, "approveParams.collectionsConfig"],
        [c.collectionsConfig, "commitParams.collectionsConfig"],
      ] as const)
        if (v && v.length > 0)
          throw new InputError(`${f}: collections are defined through /sc/fabric/chaincodes/{id}/definitions here`, {
            field: f,
          });
      if (a.packageID && a.packageID !== info.packageId)
        throw new InputError(`approveParams.packageID: ${a.packageID} is not the package's id ${info.packageId}`, {
          field: "approveParams.packageID",
        });
      const approve = definitionOf({ ...a, packageID: info.packageId });
      // Go's zero values in commitParams mean "as approved"; anything given must match.
      const commit: PeerDefinition = { ...approve };
      delete commit.packageID;
      for (const k of ["channelID", "name", "version", "sequence", "endorsementPolicy", "initRequired"] as const) {
        const v = c[k];
        if (v === undefined || v === "" || v === 0 || v === false) continue;
        if (v !== approve[k])
          throw new InputError(`commitParams.${k}: differs from approveParams.${k}`, { field: `commitParams.${k}` });
      }
      req.auditInfo.details = { package_id: info.packageId, type: info.type, ...commit };
      peerLc.validate(approve, "approveParams.");
      checkPackageType(req, info, "installParams.packageBytes");
      let peerIds = b.peerIds ?? [];
      if (peerIds.length === 0) {
        const network = await peerLc.channelOfName(approve.channelID, "approveParams.");
        peerIds = (await s.channelNodes(network.id)).peers.filter((p) => p.status === "RUNNING").map((p) => p.id);
        if (peerIds.length === 0)
          throw new ConflictError(
            `approveParams.channelID: channel '${approve.channelID}' has no running peer of this console`,
          );
      }
      const peers = await Promise.all(peerIds.map((id, i) => peerLc.peerOf(id, `peerIds[${i}]`)));
      // The definition first, so the installs are journaled on it (its timeline shows every step).
      const first = peers[0]!;
      await peerLc.storePackage(bytes, info);
      await peerLc.prepare(first.id, approve, "approveParams.");
      const installs = await Promise.all(
        peers.map((p, i) => peerLc.install(p.id, bytes, info, user(req), `peerIds[${i}]`)),
      );
      const byOrg = new Map(peers.map((p) => [p.mspId, p]));
      const approvals = [];
      for (const p of byOrg.values()) approvals.push(await peerLc.approve(p.id, approve, user(req), "approveParams."));
      const committed = await peerLc.commit(first.id, commit, user(req), "commitParams.");
      req.auditInfo.resource = `chaincode_definition:${committed.definitionId}`;
      const logs = [
        ...installs.map((x) => `install on ${x.peer.name}: ${x.alreadyInstalled ? "already installed" : "installed"}`),
        ...approvals.map((x) => `approve: ${x.message}`),
        `commit: ${committed.message}`,
      ].join("\n");
      return {
        ...result(
          {
            ...committed,
            message: `'${approve.name}' sequence ${approve.sequence} is committed on '${approve.channelID}'`,
          },
          info.packageId,
        ),
        result: { ...result(committed, info.packageId).result, logs },
      };
    },
  );
}
