import { common, orderer } from "@hyperledger/fabric-protos";
import { bidiStream, openGrpcClient, type GrpcEndpoint } from "./grpc-connection.js";
import { fabricStatusName } from "./enum-names.js";

/** The orderer refused an envelope (e.g. BAD_REQUEST for a failed policy, SERVICE_UNAVAILABLE without a leader). */
export class BroadcastError extends Error {
  constructor(
    public readonly status: number,
    public readonly statusName: string,
    public readonly info: string,
  ) {
    super(`broadcast rejected with ${statusName}${info ? `: ${info}` : ""}`);
    this.name = "BroadcastError";
  }
}

/**
 * Submits one signed envelope (a transaction or a CONFIG_UPDATE) to an orderer's
 * AtomicBroadcast.Broadcast and waits for its answer.
 * @throws BroadcastError unless the orderer answers SUCCESS
 */
export async function broadcastEnvelope(
  endpoint: GrpcEndpoint,
  envelope: common.Envelope,
  timeoutMs?: number,
): Promise<void> {
  const client = openGrpcClient(endpoint);
  try {
    const stream = bidiStream<common.Envelope, orderer.BroadcastResponse>(
      client,
      "/orderer.AtomicBroadcast/Broadcast",
      (b) => orderer.BroadcastResponse.deserializeBinary(b),
      timeoutMs,
    );
    await new Promise<void>((resolve, reject) => {
      let answered = false;
      stream.on("data", (r: orderer.BroadcastResponse) => {
        answered = true;
        stream.end();
        const status = r.getStatus();
        if (status === common.Status.SUCCESS) resolve();
        else reject(new BroadcastError(status, fabricStatusName(status), r.getInfo()));
      });
      stream.on("error", (e: Error) => {
        if (!answered) reject(e);
      });
      stream.on("end", () => {
        if (!answered) reject(new BroadcastError(0, "NO_RESPONSE", `${endpoint.address} closed the stream`));
      });
      stream.write(envelope);
    });
  } finally {
    client.close();
  }
}
