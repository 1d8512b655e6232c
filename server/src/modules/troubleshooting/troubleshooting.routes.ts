import type { LookupFunction } from "node:net";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError, ForbiddenError, InputError } from "../../http/errors.js";
import type { SettingsService } from "../settings/settings.service.js";
import { CryptoInputError } from "../../crypto/errors.js";
import { validateCertificate } from "./certificate-check.js";
import { parseEndpoint, testConnection } from "./connection-test.js";
import { LookupError, publicIp } from "./public-ip.js";
import type { Guard } from "./troubleshooting.guard.js";
import { checkedPublicAddress, NotPublicError, pinnedLookup } from "./public-address.js";
import {
  ANON_TIMEOUT_S,
  certificateValidationBody,
  certificateValidationResponse,
  connectionTestBody,
  connectionTestResponse,
  publicIpResponse,
} from "./troubleshooting.schema.js";

const tags = ["Troubleshooting"];

/**
 * The troubleshooting tools (docs/troubleshooting.md). They are public as upstream's are, so they
 * are guarded here: an admin setting can require credentials, every caller is rate-limited per IP,
 * anonymous callers get only reachability (no TLS details, headers or bodies) of public addresses
 * (never loopback, link-local, private or unspecified ones: public-address.ts), a foreign web page
 * can't use a visitor's browser to call them (Sec-Fetch-Site / Origin), and no CORS header is sent,
 * so no other site can read an answer.
 */
export function registerTroubleshootingRoutes(
  app: FastifyInstance,
  deps: {
    settings: Pick<SettingsService, "get">;
    knownTlsCas: () => Promise<{ name: string; pem: string }[]>;
    guard: Guard;
  },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = deps.guard;

  r.get(
    "/troubleshooting/public-ip",
    {
      config: { access: "public" },
      schema: {
        operationId: "getPublicIp",
        tags,
        summary: "The address other parties should use to reach this console (no outside service is assumed)",
        response: { 200: publicIpResponse },
      },
    },
    async (req) => {
      await guard(req);
      const { config } = await deps.settings.get();
      try {
        return await publicIp({
          configured: config.defaultNodeExposeIP,
          lookupUrl: config.publicIpLookupUrl,
          timeoutMs: 5_000,
        });
      } catch (err) {
        if (err instanceof LookupError) throw new AppError(err.message, 502, "UPSTREAM_ERROR");
        throw err;
      }
    },
  );

  r.post(
    "/troubleshooting/test-connection",
    {
      config: { access: "public", audit: "troubleshooting.test_connection" },
      schema: {
        operationId: "testConnection",
        tags,
        summary: "Reach an endpoint over tcp, tls, grpc(s) or http(s): timing, TLS details, gRPC handshake and health",
        body: connectionTestBody,
        response: { 200: connectionTestResponse },
      },
    },
    async (req) => {
      const { signedIn } = await guard(req);
      const b = req.body;
      // Headers may carry credentials: only the endpoint and protocol are recorded.
      req.auditInfo.resource = `endpoint:${b.endpoint.slice(0, 200)}`;
      req.auditInfo.details = { protocol: b.protocol, anonymous: !signedIn };
      let host: string;
      try {
        host = parseEndpoint(b.endpoint, b.protocol).host;
      } catch (err) {
        throw new InputError(`body.${(err as Error).message}`, { field: "body.endpoint" });
      }
      if (!signedIn && b.headers && Object.keys(b.headers).length > 0) {
        throw new InputError("body.headers: only signed-in callers may send headers", { field: "body.headers" });
      }
      const unreachable = { endpoint: b.endpoint, protocol: b.protocol, success: false, response_time_ms: 0 };
      let lookup: LookupFunction | undefined;
      if (!signedIn) {
        // Resolved once and checked address by address; the connection then goes to that address.
        try {
          lookup = pinnedLookup(await checkedPublicAddress(host));
        } catch (err) {
          if (err instanceof NotPublicError) {
            throw new ForbiddenError(`body.endpoint: ${err.message}`, { field: "body.endpoint" });
          }
          return { ...unreachable, error: "not reachable or not verified" };
        }
      }
      const timeoutS = Math.min(b.timeout ?? 10, signedIn ? Number.POSITIVE_INFINITY : ANON_TIMEOUT_S);
      const result = await testConnection({
        endpoint: b.endpoint,
        protocol: b.protocol,
        timeoutMs: timeoutS * 1000,
        headers: signedIn ? b.headers : undefined,
        caPem: b.ca_cert,
        knownCas: b.ca_cert ? [] : await deps.knownTlsCas(),
        serverName: b.server_name,
        lookup,
      });
      if (signedIn) return result;
      // Anonymous: reachability only.
      const { endpoint, protocol, success, response_time_ms } = result;
      return {
        endpoint,
        protocol,
        success,
        response_time_ms,
        ...(result.error ? { error: success ? result.error : "not reachable or not verified" } : {}),
      };
    },
  );

  r.post(
    "/troubleshooting/validate-certificate",
    {
      config: { access: "public", audit: "troubleshooting.validate_certificate" },
      schema: {
        operationId: "validateCertificate",
        tags,
        summary: "Check a certificate: chain, validity window, key usage, SANs, CA flag",
        body: certificateValidationBody,
        response: { 200: certificateValidationResponse },
      },
    },
    async (req) => {
      await guard(req);
      try {
        return validateCertificate(req.body);
      } catch (err) {
        if (err instanceof CryptoInputError)
          throw new InputError(`body.${err.message}`, { field: `body.${err.field}` });
        throw err;
      }
    },
  );
}
