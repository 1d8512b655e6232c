import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { LocalAccount } from "viem";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { BesuInputError, BesuRpcError } from "../../besu/errors.js";
import { InputError, NotFoundError, UpstreamError } from "../../http/errors.js";
import type { KeysService } from "../keys/keys.service.js";
import type { RpcEndpointResolver } from "./node-rpc.routes.js";

/** Loaded on first use (viem's clients and accounts), as the contract routes do. */
const contractLibrary = () => import("../../besu/contracts.js");
const accountLibrary = () => import("../../besu/remote-account.js");

/**
 * A managed secp256k1 key as a viem account that signs through the keys service, wherever the key
 * lives (database, Vault, AWS KMS); `field` names the key in errors.
 */
export async function keySigner(
  keys: Pick<KeysService, "get" | "sign">,
  id: number,
  field = "keyId",
): Promise<LocalAccount> {
  const key = await keys.get(id).catch((err: unknown) => {
    if (err instanceof NotFoundError) throw new InputError(`${field}: key ${id} not found`);
    throw err;
  });
  if (key.curve !== "secp256k1")
    throw new InputError(`${field}: key ${id} is ${key.algorithm} ${key.curve ?? ""}, not secp256k1`.trim());
  if (!key.ethereumAddress) throw new InputError(`${field}: key ${id} has no Ethereum address`);
  const { remoteAccount } = await accountLibrary();
  return remoteAccount(key.ethereumAddress, (digest) => keys.sign(id, digest, { prehashed: true, encoding: "p1363" }));
}

const id = (what: string) =>
  z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional()
    .describe(what);

/** Go's []byte is base64 in JSON; the swagger file says an array of bytes; 0x-hex is what Ethereum tools send. */
const bytecodeField = lazySchema(() =>
  z
    .union([z.array(z.number().int().min(0).max(255)).max(500_000), z.string().max(1_000_000)])
    .describe("Creation bytecode: 0x-hex, base64 (Go's []byte) or an array of bytes"),
);

const deployBody = lazySchema(() =>
  z
    .object({
      abi: z.string().max(500_000).optional().describe("Contract ABI as JSON (needed for constructor arguments)"),
      bytecode: bytecodeField,
      chainID: z
        .number()
        .int()
        .min(0)
        .max(2 ** 53 - 1)
        .optional()
        .describe("Chain id the endpoint must report (0 or absent: not checked)"),
      constructorArgs: z.array(z.unknown()).max(64).optional().describe("Constructor arguments in ABI order"),
      rpcurl: z.string().max(2048).optional().describe("JSON-RPC endpoint (http or https); or give nodeId"),
      solidityCode: z.string().max(1_000_000).optional().describe("Solidity source, for reference (not compiled)"),
      keyId: id("secp256k1 key of this console that signs the deployment and pays its gas (required)"),
      nodeId: id("A Besu node of this console whose JSON-RPC endpoint to use, instead of rpcurl"),
    })
    .strict()
    .describe("A contract deployment"),
);

const deployResponse = lazySchema(() =>
  z
    .object({
      status: z.string().describe("success"),
      message: z.string().describe("What happened"),
      result: z
        .object({
          success: z.boolean().describe("The deployment transaction succeeded"),
          contractAddress: z.string().describe("Address of the new contract"),
          transactionHash: z.string().describe("Hash of the deployment transaction"),
          chaincodeID: z.string().describe("Empty (Fabric only)"),
          logs: z.string().describe("Sender, block and gas used"),
          error: z.null().describe("Always null on success (failures are error responses)"),
        })
        .describe("The deployment"),
    })
    .describe("A deployed contract"),
);

/** The bytecode as 0x-hex, whatever form it came in; 400 naming bytecode when it is none. */
function toHex(v: string | number[]): string {
  if (Array.isArray(v)) return `0x${Buffer.from(v).toString("hex")}`;
  const s = v.trim();
  if (/^0x[0-9a-fA-F]*$/.test(s)) return s;
  if (/^[0-9a-fA-F]+$/.test(s) && s.length % 2 === 0) return `0x${s}`;
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(s)) return `0x${Buffer.from(s, "base64").toString("hex")}`;
  throw new InputError("bytecode: not 0x-hex, base64 or an array of bytes");
}

/** An http(s) URL, or a 400 naming rpcurl. */
function rpcUrl(v: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new InputError("rpcurl: not a URL");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new InputError("rpcurl: must be an http or https URL");
  return u.toString();
}

/**
 * POST /sc/besu/deploy (upstream's deployBesuContract): deploys creation bytecode to an EVM
 * endpoint, signed by one of the console's secp256k1 keys (upstream's body has no key; `keyId` is
 * required here because the console signs), waits for the receipt and answers the address. An
 * endpoint the caller typed never has its own words echoed (decision 52): failures name the
 * JSON-RPC step and the error code only.
 */
export function registerBesuDeployRoute(
  app: FastifyInstance,
  nodes: RpcEndpointResolver,
  keys: Pick<KeysService, "get" | "sign">,
): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    "/sc/besu/deploy",
    {
      config: { access: "NODE_EXECUTE", audit: "contract.besu_deploy" },
      schema: {
        operationId: "deployBesuContract",
        tags: ["SmartContracts"],
        summary: "Deploy a contract to a Besu (EVM) network, signed with a managed secp256k1 key",
        description:
          "Give rpcurl or nodeId, and keyId. chainID, when not 0, must equal the endpoint's eth_chainId. " +
          "Waits for the receipt; a reverted deployment is a 502 naming the transaction.",
        body: deployBody,
        response: { 200: deployResponse },
      },
    },
    async (req) => {
      const b = req.body;
      req.auditInfo.details = { keyId: b.keyId ?? null, nodeId: b.nodeId ?? null, chainID: b.chainID ?? null };
      if (!b.keyId) throw new InputError("keyId: required: the console signs the deployment with one of its keys");
      const bytecode = toHex(b.bytecode);
      let url: string;
      if (b.nodeId) url = await nodes.rpcUrl(b.nodeId);
      else if (b.rpcurl) url = rpcUrl(b.rpcurl);
      else throw new InputError("rpcurl: required (or nodeId, a Besu node of this console)");
      const account = await keySigner(keys, b.keyId);
      const lib = await contractLibrary();
      try {
        if (b.chainID) {
          const { createPublicClient, http } = await import("viem");
          const chain = await createPublicClient({ transport: http(url, { timeout: 15_000, retryCount: 0 }) })
            .getChainId()
            .catch((err: unknown) => {
              throw new BesuRpcError("eth_chainId", "failed", (err as { code?: number }).code);
            });
          if (chain !== b.chainID)
            throw new InputError(`chainID: the endpoint reports chain ${chain}, not ${b.chainID}`);
        }
        const res = await lib.createContractClient(url).deploy({
          account,
          bytecode,
          abi: b.abi || undefined,
          args: b.constructorArgs ?? [],
        });
        req.auditInfo.details = {
          ...req.auditInfo.details,
          contractAddress: res.contractAddress,
          transactionHash: res.transactionHash,
        };
        if (res.status !== "success" || !res.contractAddress)
          throw new UpstreamError(`the deployment transaction ${res.transactionHash} reverted`, {
            transactionHash: res.transactionHash,
          });
        return {
          status: "success",
          message: `deployed at ${res.contractAddress}`,
          result: {
            success: true,
            contractAddress: res.contractAddress,
            transactionHash: res.transactionHash,
            chaincodeID: "",
            logs: `from ${res.from}, block ${res.blockNumber}, gas used ${res.gasUsed}`,
            error: null,
          },
        };
      } catch (err) {
        if (err instanceof BesuInputError) throw new InputError(err.message);
        if (err instanceof BesuRpcError) {
          const why = err.rpcCode === undefined ? "no JSON-RPC answer" : `JSON-RPC error ${err.rpcCode}`;
          throw new UpstreamError(`${b.nodeId ? "nodeId" : "rpcurl"}: ${err.method} failed (${why})`);
        }
        throw err;
      }
    },
  );
}
