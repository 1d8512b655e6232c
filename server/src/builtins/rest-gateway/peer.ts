import * as grpc from "@grpc/grpc-js";
import * as fabricGateway from "@hyperledger/fabric-gateway";
import { formatHostPort, type GatewayConfig } from "./flags.js";
import type { CallRequest } from "./requests.js";

/**
 * fabric-gateway is CommonJS: Node gives its exports as named exports, while an esbuild bundle may
 * give them as the default export only.
 */
const fabric: typeof fabricGateway =
  "connect" in fabricGateway ? fabricGateway : (fabricGateway as unknown as { default: typeof fabricGateway }).default;

/** A peer's or orderer's own words about a failed call (fabric-gateway's ErrorDetail). */
export interface PeerMessage {
  address: string;
  mspId: string;
  message: string;
}

/** Where in a call the peers refused or could not be reached. */
export type CallStage = "evaluate" | "endorse" | "submit" | "commit";

/** What a failed call reports besides its message; it becomes the HTTP error's `details`. */
export interface PeerCallDetails {
  stage: CallStage;
  transactionId?: string;
  /** The gRPC status name (UNAVAILABLE, ABORTED, DEADLINE_EXCEEDED, ...) when the call itself failed. */
  grpcStatus?: string;
  /** The validation code (MVCC_READ_CONFLICT, ...) when the transaction was committed as invalid. */
  validationCode?: string;
  /** Each endorsing peer's or orderer's own message. */
  peers: PeerMessage[];
}

/** A call the peers refused, could not be reached for, or that ran past its deadline (`timedOut`). */
export class PeerCallError extends Error {
  override name = "PeerCallError";
  constructor(
    message: string,
    readonly details: PeerCallDetails,
    readonly timedOut = false,
  ) {
    super(message);
  }
}

/** Per-call deadlines; a commit waits for a block to be cut and validated, so it gets the longest. */
const DEADLINES_MS = { evaluate: 30_000, endorse: 60_000, submit: 30_000, commitStatus: 120_000 };

/** Fabric's default max message size (100 MB) for both directions. */
const MAX_MESSAGE = 100 * 1024 * 1024;

/** Names of transaction validation codes (VALID, MVCC_READ_CONFLICT, ...) by number. */
const validationCodeNames = new Map<number, string>(
  Object.entries(fabric.StatusCode).map(([name, code]) => [Number(code), name]),
);

/** A result's bytes as the API returns them: parsed JSON when they are JSON, else UTF-8 text, else base64. */
export function decodeResult(bytes: Uint8Array): unknown {
  if (bytes.length === 0) return "";
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buf.toString("utf8");
  // Invalid UTF-8 decodes to U+FFFD and does not survive the round trip.
  if (!Buffer.from(text, "utf8").equals(buf)) return buf.toString("base64");
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toPeerCallError(err: unknown, stage: CallStage, transactionId?: string): PeerCallError {
  const e = err as { message?: string; code?: unknown; details?: unknown };
  const peers = Array.isArray(e.details) ? (e.details as PeerMessage[]) : [];
  const code = typeof e.code === "number" ? e.code : undefined;
  const grpcStatus = code === undefined ? undefined : grpc.status[code];
  // grpc-js prefixes "14 UNAVAILABLE: " (the status is reported on its own) and may end with an
  // empty "Resolution note: ".
  const base = (e.message ?? String(err)).replace(/^\d+ [A-Z_]+: /, "").replace(/\.? Resolution note: *$/, "");
  const words = peers.map((p) => `${p.mspId}@${p.address}: ${p.message}`).join("; ");
  return new PeerCallError(
    `${stage} failed: ${base}${words ? ` (${words})` : ""}`,
    { stage, transactionId, grpcStatus, peers },
    code === grpc.status.DEADLINE_EXCEEDED,
  );
}

/** The gateway's one connection to its peer: a gRPC channel reused by every call. */
export interface PeerConnection {
  /** Evaluates on one peer, without ordering: a query. */
  evaluate(call: CallRequest): Promise<{ result: unknown }>;
  /** Endorses, orders and waits until the peer has committed the transaction as VALID. */
  submit(call: CallRequest): Promise<{ transactionId: string; result: unknown; blockNumber: number }>;
  /** The gRPC channel's state (IDLE, CONNECTING, READY, TRANSIENT_FAILURE, SHUTDOWN). */
  state(): string;
  close(): void;
}

/** Opens the gRPC client (lazily: nothing is dialled until the first call) and the Gateway on it. */
export function connectPeer(config: GatewayConfig): PeerConnection {
  const options: grpc.ChannelOptions = {
    "grpc.max_receive_message_length": MAX_MESSAGE,
    "grpc.max_send_message_length": MAX_MESSAGE,
  };
  if (config.peerHostOverride) {
    options["grpc.ssl_target_name_override"] = config.peerHostOverride;
    options["grpc.default_authority"] = config.peerHostOverride;
  }
  const client = new grpc.Client(
    formatHostPort(config.peer),
    grpc.credentials.createSsl(Buffer.from(config.peerTlsCaPem)),
    options,
  );
  const deadline = (ms: number) => (): grpc.CallOptions => ({ deadline: Date.now() + ms });
  const gateway = fabric.connect({
    client,
    identity: { mspId: config.mspId, credentials: Buffer.from(config.certPem) },
    signer: fabric.signers.newPrivateKeySigner(config.key),
    hash: fabric.hash.sha256,
    evaluateOptions: deadline(DEADLINES_MS.evaluate),
    endorseOptions: deadline(DEADLINES_MS.endorse),
    submitOptions: deadline(DEADLINES_MS.submit),
    commitStatusOptions: deadline(DEADLINES_MS.commitStatus),
  });
  const network = gateway.getNetwork(config.channel);
  const proposal = (call: CallRequest): fabricGateway.Proposal =>
    network.getContract(call.chaincode).newProposal(call.function, {
      arguments: call.args,
      ...(call.transient ? { transientData: call.transient } : {}),
      ...(call.endorsingOrganizations?.length ? { endorsingOrganizations: call.endorsingOrganizations } : {}),
    });

  return {
    async evaluate(call) {
      const p = proposal(call);
      try {
        return { result: decodeResult(await p.evaluate()) };
      } catch (err) {
        throw toPeerCallError(err, "evaluate", p.getTransactionId());
      }
    },
    async submit(call) {
      const p = proposal(call);
      const transactionId = p.getTransactionId();
      let stage: CallStage = "endorse";
      let status: fabricGateway.Status;
      let submitted: fabricGateway.SubmittedTransaction;
      try {
        const tx = await p.endorse();
        stage = "submit";
        submitted = await tx.submit();
        stage = "commit";
        status = await submitted.getStatus();
      } catch (err) {
        throw toPeerCallError(err, stage, transactionId);
      }
      if (!status.successful) {
        const name = validationCodeNames.get(status.code) ?? String(status.code);
        throw new PeerCallError(
          `commit failed: transaction ${transactionId} was committed as invalid (${name}) in block ${status.blockNumber}`,
          { stage: "commit", transactionId, validationCode: name, peers: [] },
        );
      }
      return { transactionId, result: decodeResult(submitted.getResult()), blockNumber: Number(status.blockNumber) };
    },
    state: () => grpc.connectivityState[client.getChannel().getConnectivityState(false)],
    close() {
      gateway.close();
      client.close();
    },
  };
}
