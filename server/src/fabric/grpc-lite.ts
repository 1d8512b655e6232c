import {
  connect as http2Connect,
  constants as h2,
  type ClientHttp2Session,
  type IncomingHttpHeaders,
  type IncomingHttpStatusHeader,
} from "node:http2";
import { isIP } from "node:net";
import { checkServerIdentity } from "node:tls";
import type { GrpcEndpoint } from "./grpc-connection.js";

/**
 * Unary gRPC calls over one HTTP/2 session of Node's own, for the console's hottest call (a chaincode
 * query, fabric/chaincode/evaluate.ts). grpc-js does the same through its channel, subchannel, filter
 * stack and call objects: ~0.35 ms of CPU a call, a third of a query's cost in the console. This
 * speaks the gRPC wire protocol directly: a POST with `content-type: application/grpc`, the message
 * behind a 5-byte prefix (compressed flag, big-endian length), the status in the trailers (or, for
 * an error with no message, in the response headers: "trailers-only").
 *
 * TLS is what openGrpcClient sets up: the endpoint's root, its client pair for mutual TLS, and its
 * server name override both for verifying the certificate and as the call's authority.
 */

/** Fabric's largest message (100 MB); a response over it is refused rather than buffered. */
const MAX_MESSAGE = 100 * 1024 * 1024;

/**
 * A call that ended without an OK status. `transport` is true when no answer came from the server
 * at all (it could not be reached, or the connection dropped): nothing was evaluated then.
 */
export class GrpcLiteError extends Error {
  constructor(
    message: string,
    public readonly code: number,
    /** `grpc-status-details-bin`: an encoded google.rpc.Status, when the server sent one. */
    public readonly statusDetails: Uint8Array | undefined,
    public readonly transport: boolean,
  ) {
    super(message);
    this.name = "GrpcLiteError";
  }
}

export interface GrpcLiteChannel {
  /** One unary call by path ('/gateway.Gateway/Evaluate'); resolves with the response message's bytes. */
  unary(path: string, request: Uint8Array, timeoutMs: number): Promise<Uint8Array>;
  /** Closes the session; calls in flight finish first. */
  close(): void;
}

/** grpc-message is percent-encoded (gRPC's HTTP/2 protocol); a malformed one is shown as sent. */
function decodeMessage(v: unknown): string {
  const s = typeof v === "string" ? v : "";
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Opens nothing yet: the session is dialled on the first call, and again after it closes or drains. */
export function openGrpcLite(endpoint: GrpcEndpoint): GrpcLiteChannel {
  const host = endpoint.address.replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1");
  const nameToCheck = endpoint.serverNameOverride || host;
  const authority = endpoint.serverNameOverride || endpoint.address;
  let session: ClientHttp2Session | undefined;
  let closed = false;

  function current(): ClientHttp2Session {
    if (session && !session.closed && !session.destroyed) return session;
    const s = http2Connect(`https://${endpoint.address}`, {
      ca: endpoint.tlsRootCert,
      ...(endpoint.clientCert && endpoint.clientKey ? { cert: endpoint.clientCert, key: endpoint.clientKey } : {}),
      ...(isIP(nameToCheck) ? {} : { servername: nameToCheck }),
      checkServerIdentity: (_hostname, cert) => checkServerIdentity(nameToCheck, cert),
    });
    // Each call reports a failure through its own stream; the session's event must not go unheard.
    s.on("error", () => undefined);
    // A GOAWAY (the peer restarting, or its idle limit): calls in flight finish, new ones dial again.
    const forget = (): void => {
      if (session === s) session = undefined;
    };
    s.on("goaway", forget);
    s.on("close", forget);
    // An idle session must not keep a process alive; a call in flight holds its own deadline timer.
    s.unref();
    session = s;
    return s;
  }

  function unary(path: string, request: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      if (closed) return reject(new GrpcLiteError(`channel to ${endpoint.address} is closed`, 1, undefined, true));
      let settled = false;
      const finish = (err: GrpcLiteError | undefined, value?: Uint8Array): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(value!);
      };
      let s: ClientHttp2Session;
      try {
        s = current();
      } catch (err) {
        finish(
          new GrpcLiteError(`failed to connect to ${endpoint.address}: ${(err as Error).message}`, 14, undefined, true),
        );
        return;
      }
      const frame = Buffer.allocUnsafe(5 + request.length);
      frame[0] = 0;
      frame.writeUInt32BE(request.length, 1);
      frame.set(request, 5);
      const stream = s.request({
        [h2.HTTP2_HEADER_METHOD]: "POST",
        [h2.HTTP2_HEADER_PATH]: path,
        [h2.HTTP2_HEADER_AUTHORITY]: authority,
        [h2.HTTP2_HEADER_SCHEME]: "https",
        "content-type": "application/grpc",
        te: "trailers",
        "grpc-timeout": `${Math.max(1, Math.ceil(timeoutMs))}m`,
        "grpc-accept-encoding": "identity",
        "user-agent": "chainlaunch-grpc-lite",
      });
      const timer = setTimeout(() => {
        finish(new GrpcLiteError(`Deadline exceeded after ${timeoutMs / 1000} s`, 4, undefined, false));
        stream.close(h2.NGHTTP2_CANCEL);
      }, timeoutMs);

      let httpStatus = 0;
      let status: number | undefined;
      let message = "";
      let details: Uint8Array | undefined;
      const chunks: Buffer[] = [];
      let received = 0;
      const readStatus = (h: IncomingHttpHeaders): void => {
        if (h["grpc-status"] === undefined) return;
        status = Number(h["grpc-status"]);
        message = decodeMessage(h["grpc-message"]);
        const bin = h["grpc-status-details-bin"];
        if (typeof bin === "string" && bin) details = Buffer.from(bin, "base64");
      };
      stream.on("response", (h: IncomingHttpHeaders & IncomingHttpStatusHeader) => {
        httpStatus = Number(h[":status"] ?? 0);
        readStatus(h);
      });
      stream.on("trailers", readStatus);
      stream.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_MESSAGE + 5) {
          finish(
            new GrpcLiteError(`response from ${endpoint.address} exceeds ${MAX_MESSAGE} bytes`, 8, undefined, false),
          );
          stream.close(h2.NGHTTP2_CANCEL);
          return;
        }
        chunks.push(chunk);
      });
      stream.on("error", (err: Error) => {
        // No status came back: the server was not reached, or the connection dropped mid-call.
        const transport = status === undefined;
        finish(
          new GrpcLiteError(
            transport ? `failed to connect to ${endpoint.address}: ${err.message}` : err.message,
            status ?? 14,
            details,
            transport,
          ),
        );
      });
      stream.on("close", () => {
        if (status === undefined) {
          const why = httpStatus ? `HTTP ${httpStatus} without a gRPC status` : "the stream closed before an answer";
          return finish(new GrpcLiteError(`${endpoint.address}: ${why}`, httpStatus ? 13 : 14, undefined, !httpStatus));
        }
        if (status !== 0) return finish(new GrpcLiteError(message, status, details, false));
        const data = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        if (data.length < 5)
          return finish(new GrpcLiteError(`${endpoint.address}: OK without a message`, 13, undefined, false));
        if (data[0] !== 0) {
          return finish(
            new GrpcLiteError(
              `${endpoint.address}: a compressed message though none was accepted`,
              13,
              undefined,
              false,
            ),
          );
        }
        const length = data.readUInt32BE(1);
        if (data.length < 5 + length)
          return finish(new GrpcLiteError(`${endpoint.address}: truncated message`, 13, undefined, false));
        finish(undefined, data.subarray(5, 5 + length));
      });
      stream.end(frame);
    });
  }

  return {
    unary,
    close(): void {
      closed = true;
      session?.close();
      session = undefined;
    },
  };
}
