import * as grpc from "@grpc/grpc-js";
import { peer } from "@hyperledger/fabric-protos";
import { createSelfSignedCertificate } from "../../crypto/certificates.js";
import { generateDetachedKeyPair } from "../../crypto/key-algorithms.js";
import { localSigner } from "../../crypto/signer.js";
import { chaincodeMessageTypeName } from "../../fabric/enum-names.js";
import { createSigningIdentity, type SigningIdentity } from "../../fabric/identity.js";
import { createSignedProposal } from "../../fabric/proposal.js";

/** The function every fabric-contract-api chaincode (Node.js and Go) answers with its contracts' metadata. */
export const METADATA_FUNCTION = "org.hyperledger.fabric:GetMetadata";

/** How long a probe waits by default, in all (connect, register, answer). */
export const PROBE_TIMEOUT_MS = 20_000;

/** The chaincode server did not prove it answers: `reason` says at which step and why. */
export class CcaasProbeError extends Error {
  constructor(
    public readonly reason: string,
    public readonly stage: "connect" | "register" | "metadata",
  ) {
    super(reason);
    this.name = "CcaasProbeError";
  }
}

/** What a server that answered said. */
export interface CcaasProbeResult {
  /** The chaincode id it registered with (its package id). */
  chaincodeId: string;
  /** The metadata JSON it answered `org.hyperledger.fabric:GetMetadata` with. */
  metadata: Record<string, unknown>;
  ms: number;
}

// Read when a probe runs, not at start-up: reading a protobuf enum loads the Fabric protobuf code.
const T = (): typeof peer.ChaincodeMessage.Type => peer.ChaincodeMessage.Type;

let probeIdentity: SigningIdentity | undefined;

/**
 * The creator the probe's proposal carries. Both shims build a client identity from the creator's
 * certificate before any contract function runs (fabric-shim's ClientIdentity, Go's cid.New), so it
 * must be a real X.509 certificate; nothing checks its signature (the peer does that, and there is
 * no peer here). A throwaway key made once per console, never stored.
 */
async function identity(): Promise<SigningIdentity> {
  if (probeIdentity) return probeIdentity;
  // Not generateKeyPairSync's own objects: using one of those can deadlock Node 20 (crypto/key-algorithms.ts).
  const { privateKey } = generateDetachedKeyPair("ec", "prime256v1");
  const cert = await createSelfSignedCertificate({
    signer: localSigner(privateKey),
    subject: { commonName: "chainlaunch-probe", organization: ["ChainLaunchProbe"] },
    validity: { notAfter: new Date(Date.now() + 10 * 365 * 86_400_000) },
    isCA: false,
  });
  probeIdentity = createSigningIdentity({ mspId: "ChainLaunchProbe", certPem: cert.pem, privateKey });
  return probeIdentity;
}

function message(
  type: number,
  fields: { payload?: Uint8Array; txId?: string; channelId?: string; proposal?: peer.SignedProposal } = {},
): peer.ChaincodeMessage {
  const m = new peer.ChaincodeMessage();
  m.setType(type as peer.ChaincodeMessage.TypeMap[keyof peer.ChaincodeMessage.TypeMap]);
  if (fields.payload) m.setPayload(fields.payload);
  if (fields.txId) m.setTxid(fields.txId);
  if (fields.channelId) m.setChannelId(fields.channelId);
  if (fields.proposal) m.setProposal(fields.proposal);
  return m;
}

/**
 * Plays the peer for one call against a chaincode-as-a-service server, the way a peer does after
 * a definition is committed: dials it, opens `protos.Chaincode/Connect`, waits for REGISTER,
 * answers REGISTERED and READY, and sends a TRANSACTION calling `org.hyperledger.fabric:GetMetadata`.
 * Resolves with the metadata when the server answers COMPLETED with status 200; rejects with a
 * CcaasProbeError naming the step otherwise (nothing listens, it never registers, it answers with an
 * error, it closes the stream), or when `timeoutMs` passes. Nothing reaches a channel: the call
 * reads no state.
 */
export async function probeChaincodeServer(p: {
  address: string;
  /** The server's TLS: the CA certificate that signed its certificate (the package's root_cert). */
  tls?: { rootCertPem: string; serverName?: string };
  timeoutMs?: number;
}): Promise<CcaasProbeResult> {
  const timeoutMs = p.timeoutMs ?? PROBE_TIMEOUT_MS;
  const seconds = `${Math.round(timeoutMs / 100) / 10} s`;
  const t0 = Date.now();
  const signer = await identity();
  const credentials = p.tls
    ? grpc.credentials.createSsl(Buffer.from(p.tls.rootCertPem))
    : grpc.credentials.createInsecure();
  const client = new grpc.Client(p.address, credentials, {
    ...(p.tls?.serverName ? { "grpc.ssl_target_name_override": p.tls.serverName } : {}),
    "grpc.max_receive_message_length": 16 * 1024 * 1024,
  });
  let stage: CcaasProbeError["stage"] = "connect";
  let stream: grpc.ClientDuplexStream<peer.ChaincodeMessage, peer.ChaincodeMessage> | undefined;
  const deadline = t0 + timeoutMs;
  try {
    await new Promise<void>((resolve, reject) => {
      client.waitForReady(deadline, (err) =>
        err
          ? reject(
              new CcaasProbeError(
                `no gRPC server answered at ${p.address} within ${seconds} (it exited, never listened, or hangs)`,
                stage,
              ),
            )
          : resolve(),
      );
    });
    stage = "register";
    return await new Promise<CcaasProbeResult>((resolve, reject) => {
      let settled = false;
      const finish = (err: CcaasProbeError | undefined, out?: CcaasProbeResult): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(out!);
      };
      const timer = setTimeout(
        () =>
          finish(
            new CcaasProbeError(
              stage === "register"
                ? `the server at ${p.address} accepted the connection but did not register within ${seconds}`
                : `the server at ${p.address} registered but did not answer ${METADATA_FUNCTION} within ${seconds}`,
              stage,
            ),
          ),
        Math.max(0, deadline - Date.now()),
      );
      const s = client.makeBidiStreamRequest<peer.ChaincodeMessage, peer.ChaincodeMessage>(
        "/protos.Chaincode/Connect",
        (m) => Buffer.from(m.serializeBinary()),
        (b) => peer.ChaincodeMessage.deserializeBinary(new Uint8Array(b)),
      );
      stream = s;
      const channelId = "chainlaunch-probe";
      let chaincodeId = "";
      let txId = "";
      s.on("data", (m: peer.ChaincodeMessage) => {
        const type = m.getType();
        if (stage === "register") {
          if (type !== T().REGISTER) {
            finish(
              new CcaasProbeError(`the server sent ${chaincodeMessageTypeName(type)} where REGISTER was due`, stage),
            );
            return;
          }
          chaincodeId = peer.ChaincodeID.deserializeBinary(m.getPayload_asU8()).getName();
          stage = "metadata";
          s.write(message(T().REGISTERED));
          s.write(message(T().READY));
          const { signed, txId: id } = createSignedProposal({
            signer,
            channelId,
            chaincode: chaincodeId.split(":")[0] || "chaincode",
            args: [METADATA_FUNCTION],
          });
          txId = id;
          const input = new peer.ChaincodeInput();
          input.setArgsList([Buffer.from(METADATA_FUNCTION)]);
          s.write(message(T().TRANSACTION, { payload: input.serializeBinary(), txId, channelId, proposal: signed }));
          return;
        }
        if (type === T().KEEPALIVE) return;
        if (m.getTxid() !== txId) return;
        if (type === T().ERROR) {
          const text = Buffer.from(m.getPayload_asU8()).toString("utf8");
          finish(new CcaasProbeError(`${METADATA_FUNCTION} failed: ${text || "the server answered ERROR"}`, stage));
          return;
        }
        if (type !== T().COMPLETED) {
          finish(
            new CcaasProbeError(
              `the server asked for ${chaincodeMessageTypeName(type)} while answering metadata`,
              stage,
            ),
          );
          return;
        }
        const r = peer.Response.deserializeBinary(m.getPayload_asU8());
        const body = Buffer.from(r.getPayload_asU8()).toString("utf8");
        if (r.getStatus() !== 200) {
          finish(new CcaasProbeError(`${METADATA_FUNCTION} answered ${r.getStatus()}: ${r.getMessage()}`, stage));
          return;
        }
        try {
          const metadata = JSON.parse(body) as Record<string, unknown>;
          finish(undefined, { chaincodeId, metadata, ms: Date.now() - t0 });
        } catch {
          finish(new CcaasProbeError(`${METADATA_FUNCTION} answered something that is not JSON`, stage));
        }
      });
      s.on("error", (err: grpc.ServiceError) => {
        finish(new CcaasProbeError(`the connection to ${p.address} failed: ${err.details || err.message}`, stage));
      });
      s.on("end", () => {
        finish(new CcaasProbeError(`the server at ${p.address} closed the stream before answering`, stage));
      });
    });
  } finally {
    stream?.cancel();
    client.close();
  }
}
