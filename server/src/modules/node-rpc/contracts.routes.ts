import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { dbId, idPathParams, lazySchema } from "../../http/schema-helpers.js";
import type { LocalAccount } from "viem";
import type { KeysService } from "../keys/keys.service.js";
import { keySigner } from "./besu-deploy.routes.js";
import { runRpc, type RpcEndpointResolver } from "./node-rpc.routes.js";

const tags = ["Smart Contracts"];
/** Loaded on first use: the contract client pulls in viem's client and account code. */
const contractLibrary = () => import("../../besu/contracts.js");
const idParams = idPathParams("Besu node id");
const abi = lazySchema(() => z.string().min(2).max(500_000).describe("Contract ABI as JSON"));
const args = lazySchema(() =>
  z.array(z.unknown()).max(64).optional().describe("Arguments, in ABI order (big integers as strings)"),
);
const address = lazySchema(() => z.string().max(64).describe("Contract address"));
const keyId = lazySchema(() => dbId().describe("secp256k1 key that signs (its address pays the gas)"));
const txResult = lazySchema(() =>
  z.object({
    from: z.string().describe("Sender address"),
    transactionHash: z.string().describe("Transaction hash"),
    blockNumber: z.string().describe("Block it was mined in"),
    status: z.string().describe("success or reverted"),
    gasUsed: z.string().describe("Gas used"),
    contractAddress: z.string().nullable().describe("Address of a deployed contract"),
  }),
);

/**
 * Deploy and use contracts through a Besu node: transactions are signed with a managed secp256k1 key
 * by its provider (the database, AWS KMS, Vault) and sent as raw transactions; the private key never
 * leaves the provider.
 */
export function registerContractRoutes(
  app: FastifyInstance,
  nodes: RpcEndpointResolver,
  keys: Pick<KeysService, "get" | "sign">,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  /** The key as a viem account that signs through the keys service (one path for every provider). */
  const signer = (id: number): Promise<LocalAccount> => keySigner(keys, id);

  r.post(
    "/nodes/:id/contracts/deploy",
    {
      config: { access: "NODE_EXECUTE", audit: "node.contract_deploy" },
      schema: {
        operationId: "deployContract",
        tags,
        summary: "Deploy a contract from its bytecode (and ABI for constructor arguments), signed with a managed key",
        params: idParams,
        body: lazySchema(() =>
          z
            .object({
              keyId,
              bytecode: z.string().min(4).max(1_000_000).describe("Creation bytecode, 0x-hex"),
              abi: abi.optional(),
              args,
            })
            .strict(),
        ),
        response: { 201: txResult },
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `node:${req.params.id}`;
      req.auditInfo.details = { keyId: req.body.keyId };
      const url = await nodes.rpcUrl(req.params.id);
      const account = await signer(req.body.keyId);
      const res = await runRpc(
        async () =>
          (await contractLibrary()).createContractClient(url).deploy({
            account,
            bytecode: req.body.bytecode,
            abi: req.body.abi,
            args: req.body.args,
          }),
        { nodeId: req.params.id, nodes },
      );
      req.auditInfo.details = {
        keyId: req.body.keyId,
        contractAddress: res.contractAddress,
        transactionHash: res.transactionHash,
      };
      return reply.status(201).send(res);
    },
  );

  r.post(
    "/nodes/:id/contracts/call",
    {
      config: { access: "NODE_READ", audit: "node.contract_call" },
      schema: {
        operationId: "callContract",
        tags,
        summary: "eth_call a contract function (no transaction); the result decoded by the ABI",
        params: idParams,
        body: lazySchema(() =>
          z
            .object({
              address,
              abi,
              functionName: z.string().min(1).max(200).describe("Function name"),
              args,
              from: z.string().max(64).optional().describe("Caller address for msg.sender"),
            })
            .strict(),
        ),
        response: {
          200: lazySchema(() =>
            z.object({
              result: z.unknown().describe("Decoded result"),
              raw: z.string().describe("Raw return data"),
            }),
          ),
        },
      },
    },
    async (req) => {
      req.auditInfo.resource = `node:${req.params.id}`;
      req.auditInfo.details = { address: req.body.address, functionName: req.body.functionName };
      const url = await nodes.rpcUrl(req.params.id);
      return runRpc(async () => (await contractLibrary()).createContractClient(url).call(req.body), {
        nodeId: req.params.id,
        nodes,
      });
    },
  );

  r.post(
    "/nodes/:id/contracts/send",
    {
      config: { access: "NODE_EXECUTE", audit: "node.contract_send" },
      schema: {
        operationId: "sendContractTransaction",
        tags,
        summary: "Call a contract function in a transaction signed with a managed key, and wait for its receipt",
        params: idParams,
        body: lazySchema(() =>
          z
            .object({
              keyId,
              address,
              abi,
              functionName: z.string().min(1).max(200).describe("Function name"),
              args,
              value: z
                .string()
                .regex(/^\d{1,78}$/, "must be wei as a decimal integer")
                .optional()
                .describe("Wei to send"),
            })
            .strict(),
        ),
        response: { 200: txResult },
      },
    },
    async (req) => {
      req.auditInfo.resource = `node:${req.params.id}`;
      req.auditInfo.details = { keyId: req.body.keyId, address: req.body.address, functionName: req.body.functionName };
      const url = await nodes.rpcUrl(req.params.id);
      const account = await signer(req.body.keyId);
      return runRpc(async () => (await contractLibrary()).createContractClient(url).send({ account, ...req.body }), {
        nodeId: req.params.id,
        nodes,
      });
    },
  );
}
