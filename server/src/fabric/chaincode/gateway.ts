import type * as grpc from "@grpc/grpc-js";
import type * as FabricGateway from "@hyperledger/fabric-gateway";
import { txValidationCodeName } from "../enum-names.js";
import { openGrpcClient, type GrpcEndpoint } from "../grpc-connection.js";
import { untilLeader } from "../leader-wait.js";
import { ChaincodeCallError, type ChaincodeCall, type GatewayIdentity } from "./call.js";
import { createEvaluator } from "./evaluate.js";

export { ChaincodeCallError, type ChaincodeCall, type GatewayIdentity } from "./call.js";

type GatewayModule = typeof FabricGateway;
let gatewayModule: Promise<GatewayModule> | undefined;
/**
 * fabric-gateway loads with the first chaincode call, not at start-up. It is CommonJS: Node gives its
 * exports as named exports, while the bundled server gets them as the default export only.
 */
const loadGateway = (): Promise<GatewayModule> =>
  (gatewayModule ??= import("@hyperledger/fabric-gateway").then((m) =>
    "connect" in m ? m : (m as unknown as { default: GatewayModule }).default,
  ));

/** A result's bytes as the API returns them: parsed JSON when they are JSON, else UTF-8 text (or base64 for binary). */
export function decodeResult(bytes: Uint8Array): unknown {
  if (bytes.length === 0) return "";
  const text = Buffer.from(bytes).toString("utf8");
  if (!Buffer.from(text, "utf8").equals(Buffer.from(bytes))) return Buffer.from(bytes).toString("base64");
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The peers' own words from a fabric-gateway error (EndorseError, SubmitError, CommitError, GatewayError). */
function explain(err: unknown, kind: ChaincodeCallError["kind"], txId?: string): ChaincodeCallError {
  const e = err as { message?: string; details?: { address: string; mspId: string; message: string }[]; code?: number };
  const details = Array.isArray(e.details) ? e.details : [];
  const peerWords = details.map((d) => `${d.mspId}@${d.address}: ${d.message}`).join("; ");
  const base = (e.message ?? String(err)).replace(/^\d+ [A-Z_]+: /, "");
  return new ChaincodeCallError(peerWords ? `${base} (${peerWords})` : base, kind, details, txId);
}

/**
 * Whether the Gateway could not submit because the orderers answered SERVICE_UNAVAILABLE (no Raft
 * leader yet); nothing was ordered then. The peer's Gateway words it in two ways: a detail per
 * orderer naming the status, or (Fabric 3.1) "no orderers could successfully process transaction"
 * with no detail at all, which it answers only when every orderer returned a 5xx status (a
 * connection failure adds a detail, a 4xx status is an Aborted error of its own).
 */
export function ordererHasNoLeader(err: unknown): boolean {
  const e = err as { message?: unknown; details?: unknown };
  const details = Array.isArray(e.details) ? (e.details as { message?: unknown }[]) : [];
  if (details.some((d) => typeof d?.message === "string" && /SERVICE_UNAVAILABLE/.test(d.message))) return true;
  return (
    details.length === 0 &&
    typeof e.message === "string" &&
    /no orderers could successfully process transaction|SERVICE_UNAVAILABLE/.test(e.message)
  );
}

/**
 * One connection to a peer's Gateway service for calling chaincode. Keep it for many calls; the
 * gRPC channel is reused.
 */
export async function openGateway(endpoint: GrpcEndpoint, identity: GatewayIdentity) {
  const { connect, hash, CommitError } = await loadGateway();
  const client: grpc.Client = openGrpcClient(endpoint);
  const gateway = connect({
    client,
    identity: { mspId: identity.mspId, credentials: Buffer.from(identity.certPem) },
    ...("signMessage" in identity
      ? { signer: async (message: Uint8Array) => identity.signMessage(message), hash: hash.none }
      : { signer: (digest: Uint8Array) => identity.signDigest(digest), hash: hash.sha256 }),
    evaluateOptions: () => ({ deadline: Date.now() + 30_000 }),
    endorseOptions: () => ({ deadline: Date.now() + 60_000 }),
    submitOptions: () => ({ deadline: Date.now() + 30_000 }),
    commitStatusOptions: () => ({ deadline: Date.now() + 120_000 }),
  });
  const contract = (c: ChaincodeCall) => gateway.getNetwork(c.channel).getContract(c.chaincode);
  const options = (c: ChaincodeCall) => ({
    arguments: c.args,
    ...(c.transient ? { transientData: c.transient } : {}),
    ...(c.endorsingOrganizations?.length ? { endorsingOrganizations: c.endorsingOrganizations } : {}),
  });

  // Queries skip fabric-gateway and grpc-js (see evaluate.ts); they send the same messages.
  const evaluator = createEvaluator(endpoint, identity);

  return {
    /** Evaluates on one peer (no ordering): a query. */
    evaluate: evaluator.evaluate,
    /** Endorses on enough peers, orders, and waits until the peer committed it as valid. */
    async submit(c: ChaincodeCall): Promise<{ result: Uint8Array; txId: string; blockNumber: number }> {
      const proposal = contract(c).newProposal(c.fn, options(c));
      const txId = proposal.getTransactionId();
      let stage: ChaincodeCallError["kind"] = "endorse";
      try {
        const tx = await proposal.endorse();
        stage = "submit";
        // The same signed envelope again (same transaction id) until the orderer has a leader.
        const submitted = await untilLeader(() => tx.submit(), { when: ordererHasNoLeader });
        stage = "commit";
        const status = await submitted.getStatus();
        if (!status.successful) {
          throw new ChaincodeCallError(
            `transaction ${txId} was committed as invalid: ${txValidationCodeName(status.code)}`,
            "commit",
            [],
            txId,
          );
        }
        return { result: submitted.getResult(), txId, blockNumber: Number(status.blockNumber) };
      } catch (err) {
        if (err instanceof ChaincodeCallError) throw err;
        if (err instanceof CommitError) throw explain(err, "commit", txId);
        throw explain(err, stage, txId);
      }
    },
    close(): void {
      evaluator.close();
      gateway.close();
      client.close();
    },
  };
}

export type GatewayConnection = Awaited<ReturnType<typeof openGateway>>;
