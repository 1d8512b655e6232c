import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { PROTOCOLS } from "./connection-test.js";

/** Longest test-connection timeout a caller may ask for; anonymous callers get at most ANON_TIMEOUT_S. */
export const MAX_TIMEOUT_S = 30;
export const ANON_TIMEOUT_S = 10;

export const connectionTestBody = lazySchema(() =>
  z
    .object({
      endpoint: z.string().min(1).max(1000).describe("host:port, or an http(s) URL"),
      protocol: z.enum(PROTOCOLS).default("tcp").describe("tcp, tls, grpc, grpcs, http or https"),
      timeout: z
        .number()
        .int()
        .min(1)
        .max(MAX_TIMEOUT_S)
        .optional()
        .describe(`seconds, default 10, at most ${MAX_TIMEOUT_S} (${ANON_TIMEOUT_S} without credentials)`),
      headers: z
        .record(z.string().max(200), z.string().max(4000))
        .optional()
        .describe("HTTP request headers (http/https; signed-in callers only)"),
      ca_cert: z
        .string()
        .max(200_000)
        .optional()
        .describe("PEM CA bundle to verify TLS against; default: the TLS CAs of this console's organizations"),
      server_name: z
        .string()
        .max(253)
        .optional()
        .describe("Server name to send (SNI) and check the certificate for; default: the endpoint's host"),
    })
    .meta({ id: "ConnectionTestRequest" }),
);

const tlsInfo = lazySchema(() =>
  z
    .object({
      version: z.string().describe("Negotiated TLS version"),
      cipher_suite: z.string().describe("Negotiated cipher suite"),
      server_name: z.string().describe("Server name sent and checked"),
      issuer: z.string().describe("Issuer of the server's certificate"),
      cert_expiry: z.string().describe("The server certificate's notAfter"),
      certificate_valid: z.boolean().describe("The chain verifies against the CA and the certificate names the host"),
      subject: z.string().describe("Subject of the server's certificate"),
      chain: z.array(z.string()).describe("Subjects of the chain the server sent, leaf first"),
      verify_error: z.string().describe("Why verification failed; empty when valid"),
      verified_against: z.string().describe("What the chain was checked against"),
    })
    .meta({ id: "TLSInfo" }),
);

export const connectionTestResponse = lazySchema(() =>
  z
    .object({
      endpoint: z.string().describe("The endpoint tested"),
      protocol: z.string().describe("The protocol used"),
      success: z.boolean().describe("Reached, and for TLS verified, and for gRPC answered"),
      response_time_ms: z.number().int().describe("Time to the answer"),
      status_code: z.number().int().optional().describe("HTTP status, or the gRPC status of the health check"),
      error: z.string().optional().describe("Why it failed"),
      tls_info: tlsInfo.optional().describe("TLS details (signed-in callers only)"),
      details: z
        .record(z.string(), z.string())
        .optional()
        .describe("gRPC handshake and health check, or a few HTTP response headers (signed-in callers only)"),
    })
    .meta({ id: "ConnectionTestResponse" }),
);

export const certificateValidationBody = lazySchema(() =>
  z
    .object({
      certificate: z.string().min(1).max(200_000).describe("PEM encoded certificate; intermediates may follow it"),
      root_ca: z.string().max(200_000).optional().describe("Optional root CA (and intermediates) to validate against"),
      dns_names: z
        .array(z.string().min(1).max(253))
        .max(100)
        .optional()
        .describe("Optional DNS names (or IPs) the certificate must cover"),
    })
    .meta({ id: "CertificateValidationRequest" }),
);

export const certificateValidationResponse = lazySchema(() =>
  z
    .object({
      subject: z.string().describe("Subject"),
      issuer: z.string().describe("Issuer"),
      serial_number: z.string().describe("Serial number (hex)"),
      not_before: z.string().describe("Valid from"),
      not_after: z.string().describe("Valid until"),
      is_ca: z.boolean().describe("basicConstraints CA:TRUE"),
      key_usage: z.array(z.string()).describe("Key usages and extended key usages"),
      dns_names: z.array(z.string()).describe("SAN DNS names"),
      ip_addresses: z.array(z.string()).describe("SAN IP addresses"),
      valid: z.boolean().describe("No errors"),
      errors: z.array(z.string()).describe("What makes it invalid"),
      warnings: z.array(z.string()).describe("What may cause trouble"),
      chain: z.array(z.string()).describe("Subjects from the certificate up to the root it chained to"),
      fingerprint: z.string().describe("SHA-256 fingerprint (hex)"),
    })
    .meta({ id: "CertificateValidationResponse" }),
);

export const publicIpResponse = lazySchema(() =>
  z.record(z.string(), z.string()).describe("ip, source (settings, lookup or interface) and notes"),
);

/** Ping and check-port bounds: Go's zero (0) means the default. */
export const PING_MAX_COUNT = 10;
export const PING_MAX_TIMEOUT_S = 10;

const host = lazySchema(() => z.string().max(255).describe("Host name or IP address (no port, no scheme)"));

export const pingBody = lazySchema(() =>
  z
    .object({
      host: host.optional(),
      count: z
        .number()
        .int()
        .min(0)
        .max(PING_MAX_COUNT)
        .optional()
        .describe(`Echo requests to send, default 4, at most ${PING_MAX_COUNT}`),
      timeout: z
        .number()
        .int()
        .min(0)
        .max(PING_MAX_TIMEOUT_S)
        .optional()
        .describe(`Seconds to wait for each reply, default 5, at most ${PING_MAX_TIMEOUT_S}`),
    })
    .meta({ id: "PingRequest" }),
);

export const pingResponse = lazySchema(() =>
  z
    .object({
      host: z.string().describe("The host asked for"),
      resolved_ip: z.string().describe("The address pinged (resolved once)"),
      packets_sent: z.number().int().describe("Echo requests sent"),
      packets_recv: z.number().int().describe("Replies received"),
      packet_loss: z.number().describe("Percent of requests without a reply"),
      min_rtt_ms: z.number().int().describe("Fastest round trip, ms"),
      avg_rtt_ms: z.number().int().describe("Mean round trip, ms"),
      max_rtt_ms: z.number().int().describe("Slowest round trip, ms"),
      reachable: z.boolean().describe("At least one reply came back"),
      error: z.string().optional().describe("Why there was no reply (our words, never the remote's)"),
    })
    .meta({ id: "PingResponse" }),
);

export const portCheckBody = lazySchema(() =>
  z
    .object({
      host: host.optional(),
      port: z.number().int().min(0).max(65535).optional().describe("TCP port, 1-65535"),
      timeout: z
        .number()
        .int()
        .min(0)
        .max(MAX_TIMEOUT_S)
        .optional()
        .describe(`Seconds, default 5, at most ${MAX_TIMEOUT_S} (${ANON_TIMEOUT_S} without credentials)`),
    })
    .meta({ id: "PortCheckRequest" }),
);

export const portCheckResponse = lazySchema(() =>
  z
    .object({
      host: z.string().describe("The host asked for"),
      port: z.number().int().describe("The port checked"),
      open: z.boolean().describe("A TCP connection was accepted"),
      reachable: z.boolean().describe("The host answered (accepted or refused the connection)"),
      error: z.string().optional().describe("Why the port is not open (our words, never the remote's)"),
    })
    .meta({ id: "PortCheckResponse" }),
);
