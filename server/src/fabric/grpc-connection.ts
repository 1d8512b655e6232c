import * as grpc from "@grpc/grpc-js";

/** How to reach a peer or orderer gRPC endpoint over TLS. */
export interface GrpcEndpoint {
  /** "host:port" to dial. */
  address: string;
  /** PEM of the TLS CA that issued the node's server cert (the org TLS CA). */
  tlsRootCert: string;
  /** Host name to verify the server cert against when it differs from the dialled host. */
  serverNameOverride?: string;
  /** Client cert and key (PEM) for mutual TLS, when the node requires it. */
  clientCert?: string;
  clientKey?: string;
}

/** Default per-call deadline. */
export const DEFAULT_GRPC_TIMEOUT_MS = 30_000;

/** Fabric's default max message size (100 MB) for both directions. */
const MAX_MESSAGE = 100 * 1024 * 1024;

/** How many TLS credentials are kept (a few per organization: its TLS root, with and without its admin pair). */
const CREDENTIALS_MAX = 64;
const credentials = new Map<string, grpc.ChannelCredentials>();

/**
 * TLS credentials, one object per root and client pair. Each `createSsl` builds an OpenSSL context
 * (parsing the CA and the key, ~2 ms of CPU), and grpc-js shares a connection between clients only
 * when their credentials are the same object: with one per PEM triple, clients opened together to
 * the same node (a join's config read, two peers fetching from one orderer) share one TLS session.
 * Keyed by the PEM text itself, so a new CA or a renewed client certificate is another entry.
 */
function credentialsFor(endpoint: GrpcEndpoint): grpc.ChannelCredentials {
  const key = `${endpoint.tlsRootCert}\0${endpoint.clientKey ?? ""}\0${endpoint.clientCert ?? ""}`;
  let creds = credentials.get(key);
  if (creds) {
    // Most recently used last, so the bound drops the least recently used.
    credentials.delete(key);
  } else {
    creds = grpc.credentials.createSsl(
      Buffer.from(endpoint.tlsRootCert),
      endpoint.clientKey ? Buffer.from(endpoint.clientKey) : null,
      endpoint.clientCert ? Buffer.from(endpoint.clientCert) : null,
    );
    if (credentials.size >= CREDENTIALS_MAX) credentials.delete(credentials.keys().next().value as string);
  }
  credentials.set(key, creds);
  return creds;
}

/**
 * Opens a grpc-js client over TLS (mutual TLS when a client pair is given). Call paths by name
 * ('/protos.Endorser/ProcessProposal'); messages are passed as bytes so any fabric-protos
 * message works. Close it when done.
 */
export function openGrpcClient(endpoint: GrpcEndpoint): grpc.Client {
  const creds = credentialsFor(endpoint);
  const options: grpc.ChannelOptions = {
    "grpc.max_receive_message_length": MAX_MESSAGE,
    "grpc.max_send_message_length": MAX_MESSAGE,
  };
  if (endpoint.serverNameOverride) {
    options["grpc.ssl_target_name_override"] = endpoint.serverNameOverride;
    options["grpc.default_authority"] = endpoint.serverNameOverride;
  }
  return new grpc.Client(endpoint.address, creds, options);
}

const toBuffer = (m: { serializeBinary(): Uint8Array }): Buffer => Buffer.from(m.serializeBinary());

/** One unary call by path. */
export function unaryCall<Req extends { serializeBinary(): Uint8Array }, Res>(
  client: grpc.Client,
  path: string,
  request: Req,
  decode: (b: Uint8Array) => Res,
  timeoutMs = DEFAULT_GRPC_TIMEOUT_MS,
): Promise<Res> {
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      path,
      toBuffer,
      (b: Buffer) => decode(new Uint8Array(b)),
      request,
      new grpc.Metadata(),
      { deadline: Date.now() + timeoutMs },
      (err, res) => (err || res === undefined ? reject(err ?? new Error(`${path}: empty response`)) : resolve(res)),
    );
  });
}

/** A bidi stream by path (Deliver, Broadcast). */
export function bidiStream<Req extends { serializeBinary(): Uint8Array }, Res>(
  client: grpc.Client,
  path: string,
  decode: (b: Uint8Array) => Res,
  timeoutMs = DEFAULT_GRPC_TIMEOUT_MS,
): grpc.ClientDuplexStream<Req, Res> {
  return client.makeBidiStreamRequest(path, toBuffer, (b: Buffer) => decode(new Uint8Array(b)), new grpc.Metadata(), {
    deadline: Date.now() + timeoutMs,
  });
}
