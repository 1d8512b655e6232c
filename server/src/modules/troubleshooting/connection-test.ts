import http2 from "node:http2";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { connect as netConnect, isIP, type LookupFunction, type Socket } from "node:net";
import { checkServerIdentity, connect as tlsConnect, type PeerCertificate, type TLSSocket } from "node:tls";

export const PROTOCOLS = ["tcp", "tls", "grpc", "grpcs", "http", "https"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export interface TlsInfo {
  version: string;
  cipher_suite: string;
  server_name: string;
  issuer: string;
  cert_expiry: string;
  certificate_valid: boolean;
  /** Product additions: the chain the server sent (leaf first) and why it did not verify. */
  subject: string;
  chain: string[];
  verify_error: string;
  verified_against: string;
}

export interface ConnectionResult {
  endpoint: string;
  protocol: Protocol;
  success: boolean;
  response_time_ms: number;
  status_code?: number;
  error?: string;
  tls_info?: TlsInfo;
  details?: Record<string, string>;
}

export interface ConnectionTestInput {
  endpoint: string;
  protocol: Protocol;
  timeoutMs: number;
  headers?: Record<string, string> | undefined;
  /** PEM CA bundle to verify TLS against; when absent, `knownCas` (the console's org TLS CAs) then the system store. */
  caPem?: string | undefined;
  knownCas?: { name: string; pem: string }[];
  /** Server name to send (SNI) and check the certificate for; defaults to the endpoint's host. */
  serverName?: string | undefined;
  /**
   * Resolves the host for every connection made (public-address.ts `pinnedLookup`): an anonymous
   * test connects to the address that was checked, not to whatever a second lookup answers.
   */
  lookup?: LookupFunction | undefined;
}

/**
 * host:port (or a URL for http/https) → host, port and the path for HTTP. Only http(s) URLs get a
 * default port; any other scheme is parsed as given, so an explicit :80 or :443 is kept (an http:
 * URL would drop it as its default).
 */
export function parseEndpoint(endpoint: string, protocol: Protocol): { host: string; port: number; path: string } {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint) ? endpoint : `${protocol}://${endpoint}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new Error("endpoint: give host:port (or an http(s) URL)");
  }
  const defaultPort = url.protocol === "http:" ? 80 : url.protocol === "https:" ? 443 : 0;
  const port = url.port ? Number(url.port) : defaultPort;
  if (!url.hostname || !port) throw new Error("endpoint: give host:port (the port is required for this protocol)");
  return { host: url.hostname.replace(/^\[|\]$/g, ""), port, path: `${url.pathname}${url.search}` || "/" };
}

function subjectText(s: PeerCertificate["subject"] | undefined): string {
  if (!s) return "";
  return Object.entries(s)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join("+") : String(v)}`)
    .join(", ");
}

/** Reads what the TLS handshake negotiated and whether the chain and name verify. */
function tlsInfo(socket: TLSSocket, serverName: string, against: string): TlsInfo {
  const cert = socket.getPeerCertificate(true);
  const chain: string[] = [];
  let c: PeerCertificate | undefined = cert;
  const seen = new Set<string>();
  while (c && c.raw && !seen.has(c.fingerprint256)) {
    seen.add(c.fingerprint256);
    chain.push(subjectText(c.subject));
    c = (c as PeerCertificate & { issuerCertificate?: PeerCertificate }).issuerCertificate;
  }
  // Node reports a name mismatch as the authorization error too; the name is checked below, in words.
  const authError = socket.authorized ? "" : String(socket.authorizationError ?? "not verified");
  let verifyError = authError === "ERR_TLS_CERT_ALTNAME_INVALID" ? "" : authError;
  if (!verifyError && cert.raw) {
    const mismatch = checkServerIdentity(serverName, cert);
    if (mismatch) verifyError = `this TLS cert has no SAN for ${serverName} (${mismatch.message})`;
  }
  if (verifyError && /UNABLE_TO_VERIFY_LEAF_SIGNATURE|unable to get local issuer|SELF_SIGNED/i.test(verifyError)) {
    verifyError = `${verifyError}: the server's certificate (issued by "${subjectText(cert.issuer)}") does not chain to ${against}`;
  }
  return {
    version: socket.getProtocol() ?? "",
    cipher_suite: socket.getCipher()?.standardName ?? socket.getCipher()?.name ?? "",
    server_name: serverName,
    issuer: subjectText(cert.issuer),
    cert_expiry: cert.valid_to ? new Date(cert.valid_to).toISOString() : "",
    certificate_valid: verifyError === "",
    subject: subjectText(cert.subject),
    chain,
    verify_error: verifyError,
    verified_against: against,
  };
}

function trustOf(input: ConnectionTestInput): { ca?: string[]; against: string } {
  if (input.caPem?.trim()) return { ca: [input.caPem], against: "the CA given" };
  if (input.knownCas && input.knownCas.length > 0) {
    return {
      ca: input.knownCas.map((k) => k.pem),
      against: `the TLS CAs known to this console (${input.knownCas.map((k) => k.name).join(", ")})`,
    };
  }
  return { against: "the system's trusted roots" };
}

/** Plain words for the usual socket errors. */
function explain(err: Error & { code?: string }, host: string, port: number, timeoutMs: number): string {
  switch (err.code) {
    case "ECONNREFUSED":
      return `connection refused by ${host}:${port} (nothing listens there)`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `the host name ${host} does not resolve`;
    case "ETIMEDOUT":
    case "TIMEOUT":
      return `no answer from ${host}:${port} within ${timeoutMs} ms`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `${host} is unreachable from this console (${err.code})`;
    case "ECONNRESET":
      return `${host}:${port} closed the connection (a TLS server reached without TLS, or the reverse, does this)`;
    default:
      return err.message;
  }
}

function timeoutError(): Error & { code: string } {
  return Object.assign(new Error("timeout"), { code: "TIMEOUT" });
}

/** Runs `fn` with an overall deadline so no protocol can hang past the timeout. */
function withDeadline<T>(ms: number, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ac = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      ac.abort();
      reject(timeoutError());
    }, ms);
  });
  return Promise.race([fn(ac.signal), deadline]).finally(() => clearTimeout(timer));
}

function tcp(host: string, port: number, signal: AbortSignal, lookup?: LookupFunction): Promise<void> {
  return new Promise((resolve, reject) => {
    const s: Socket = netConnect({ host, port, ...(lookup ? { lookup } : {}) });
    signal.addEventListener("abort", () => s.destroy());
    s.once("connect", () => {
      s.destroy();
      resolve();
    });
    s.once("error", reject);
  });
}

function tls(
  host: string,
  port: number,
  servername: string,
  ca: string[] | undefined,
  signal: AbortSignal,
  lookup: LookupFunction | undefined,
  alpn?: string[],
): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const s = tlsConnect({
      host,
      port,
      ...(lookup ? { lookup } : {}),
      ...(isIP(servername) ? {} : { servername }),
      ...(ca ? { ca } : {}),
      ...(alpn ? { ALPNProtocols: alpn } : {}),
      rejectUnauthorized: false,
    });
    signal.addEventListener("abort", () => s.destroy());
    s.once("secureConnect", () => resolve(s));
    s.once("error", reject);
  });
}

/** A gRPC health check (grpc.health.v1.Health/Check, empty service) over an established HTTP/2 session. */
function grpcHealth(
  session: http2.ClientHttp2Session,
  signal: AbortSignal,
): Promise<{ grpcStatus: number; grpcMessage: string; serving: string; httpStatus: number }> {
  return new Promise((resolve, reject) => {
    const req = session.request({
      ":method": "POST",
      ":path": "/grpc.health.v1.Health/Check",
      "content-type": "application/grpc",
      te: "trailers",
    });
    signal.addEventListener("abort", () => req.close());
    let httpStatus = 0;
    let headerStatus: string | undefined;
    let headerMessage = "";
    const chunks: Buffer[] = [];
    req.on("response", (h) => {
      httpStatus = Number(h[":status"] ?? 0);
      // A "trailers-only" answer carries grpc-status in the headers.
      if (h["grpc-status"] !== undefined) headerStatus = String(h["grpc-status"]);
      headerMessage = String(h["grpc-message"] ?? "");
    });
    req.on("data", (c: Buffer) => chunks.push(c));
    let trailers: http2.IncomingHttpHeaders = {};
    req.on("trailers", (t) => {
      trailers = t;
    });
    req.on("error", reject);
    req.on("end", () => {
      const status = trailers["grpc-status"] !== undefined ? String(trailers["grpc-status"]) : headerStatus;
      const message = decodeURIComponent(String(trailers["grpc-message"] ?? headerMessage));
      const body = Buffer.concat(chunks);
      // HealthCheckResponse { status = 1 (enum) }: after the 5-byte frame header, tag 0x08 then the value.
      const code = body.length >= 7 && body[5] === 0x08 ? body[6]! : body.length === 5 ? 0 : -1;
      const serving = ["UNKNOWN", "SERVING", "NOT_SERVING", "SERVICE_UNKNOWN"][code] ?? "";
      resolve({ grpcStatus: status === undefined ? -1 : Number(status), grpcMessage: message, serving, httpStatus });
    });
    // HealthCheckRequest with an empty service name is an empty message: a frame of length 0.
    req.end(Buffer.from([0, 0, 0, 0, 0]));
  });
}

const GRPC_CODES: Record<number, string> = {
  0: "OK",
  1: "CANCELLED",
  2: "UNKNOWN",
  4: "DEADLINE_EXCEEDED",
  5: "NOT_FOUND",
  7: "PERMISSION_DENIED",
  12: "UNIMPLEMENTED",
  13: "INTERNAL",
  14: "UNAVAILABLE",
  16: "UNAUTHENTICATED",
};

async function grpc(
  input: ConnectionTestInput,
  host: string,
  port: number,
  secure: boolean,
  signal: AbortSignal,
  result: ConnectionResult,
): Promise<void> {
  const servername = input.serverName || host;
  const trust = trustOf(input);
  let socket: TLSSocket | undefined;
  if (secure) {
    socket = await tls(host, port, servername, trust.ca, signal, input.lookup, ["h2"]);
    result.tls_info = tlsInfo(socket, servername, trust.against);
    if (socket.alpnProtocol !== "h2") {
      socket.destroy();
      throw new Error(
        `the TLS server at ${host}:${port} did not agree to HTTP/2 (ALPN ${socket.alpnProtocol || "none"}), so it is not a gRPC server`,
      );
    }
  }
  const authority = `${secure ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const session = http2.connect(
    authority,
    socket ? { createConnection: () => socket } : input.lookup ? { lookup: input.lookup } : {},
  );
  signal.addEventListener("abort", () => session.destroy());
  try {
    await new Promise<void>((resolve, reject) => {
      session.once("remoteSettings", () => resolve());
      session.once("error", reject);
    });
    const details: Record<string, string> = { handshake: "HTTP/2 settings exchanged" };
    const h = await grpcHealth(session, signal);
    if (h.grpcStatus < 0) {
      throw new Error(
        `${host}:${port} answered HTTP/2 status ${h.httpStatus} without a gRPC status: not a gRPC server`,
      );
    }
    details.grpc_status = `${h.grpcStatus} ${GRPC_CODES[h.grpcStatus] ?? ""}`.trim();
    if (h.grpcStatus === 0) details.health = h.serving || "UNKNOWN";
    else if (h.grpcStatus === 12) {
      details.health =
        "not offered (UNIMPLEMENTED): the server speaks gRPC; Fabric peers and orderers answer this way, as they do not register the health service";
    } else details.health = `error ${GRPC_CODES[h.grpcStatus] ?? h.grpcStatus}: ${h.grpcMessage}`;
    result.details = details;
    result.status_code = h.grpcStatus;
    // A NOT_SERVING answer is reachable but unhealthy.
    if (h.grpcStatus === 0 && h.serving !== "SERVING") result.error = `health check says ${h.serving || "UNKNOWN"}`;
  } finally {
    session.destroy();
  }
}

async function httpCall(
  input: ConnectionTestInput,
  host: string,
  port: number,
  path: string,
  secure: boolean,
  signal: AbortSignal,
  result: ConnectionResult,
): Promise<void> {
  const servername = input.serverName || host;
  const trust = trustOf(input);
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const opts = {
      host,
      port,
      path,
      method: "GET",
      headers: input.headers ?? {},
      signal,
      ...(input.lookup ? { lookup: input.lookup } : {}),
      ...(secure
        ? {
            rejectUnauthorized: false,
            ...(isIP(servername) ? {} : { servername }),
            ...(trust.ca ? { ca: trust.ca } : {}),
            agent: false,
          }
        : { agent: false }),
    };
    const req = (secure ? httpsRequest : httpRequest)(opts, resolve);
    if (secure) {
      req.once("socket", (s) => {
        (s as TLSSocket).once("secureConnect", () => {
          result.tls_info = tlsInfo(s as TLSSocket, servername, trust.against);
        });
      });
    }
    req.once("error", reject);
    req.end();
  });
  result.status_code = res.statusCode ?? 0;
  const details: Record<string, string> = {};
  for (const k of ["server", "content-type", "content-length"]) {
    const v = res.headers[k];
    if (typeof v === "string") details[k] = v;
  }
  result.details = details;
  res.resume();
}

/**
 * Tests one endpoint the way a node or client would reach it, within `timeoutMs` overall. Never
 * throws: the failure is in `success`/`error`.
 */
export async function testConnection(input: ConnectionTestInput): Promise<ConnectionResult> {
  const { host, port, path } = parseEndpoint(input.endpoint, input.protocol);
  const result: ConnectionResult = {
    endpoint: input.endpoint,
    protocol: input.protocol,
    success: false,
    response_time_ms: 0,
  };
  const started = performance.now();
  try {
    await withDeadline(input.timeoutMs, async (signal) => {
      switch (input.protocol) {
        case "tcp":
          return tcp(host, port, signal, input.lookup);
        case "tls": {
          const servername = input.serverName || host;
          const trust = trustOf(input);
          const s = await tls(host, port, servername, trust.ca, signal, input.lookup);
          result.tls_info = tlsInfo(s, servername, trust.against);
          s.destroy();
          return;
        }
        case "grpc":
        case "grpcs":
          return grpc(input, host, port, input.protocol === "grpcs", signal, result);
        case "http":
        case "https":
          return httpCall(input, host, port, path, input.protocol === "https", signal, result);
      }
    });
    if (result.tls_info && !result.tls_info.certificate_valid && result.error === undefined) {
      result.error = `TLS verification failed: ${result.tls_info.verify_error}`;
    }
    result.success = result.error === undefined;
  } catch (err) {
    result.error = explain(err as Error & { code?: string }, host, port, input.timeoutMs);
  }
  result.response_time_ms = Math.round(performance.now() - started);
  return result;
}
