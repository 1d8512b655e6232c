import type { paths } from "@/api/schema";
import { api, type ResponseOf } from "@/api/client";
import { ApiError, toApiError } from "@/api/errors";

export type ConnectionTestRequest = NonNullable<
  paths["/troubleshooting/test-connection"]["post"]
>["requestBody"]["content"]["application/json"];
export type ConnectionTestResult = ResponseOf<"/troubleshooting/test-connection", "post">;
export type CertificateValidationRequest = NonNullable<
  paths["/troubleshooting/validate-certificate"]["post"]
>["requestBody"]["content"]["application/json"];
export type CertificateValidation = ResponseOf<"/troubleshooting/validate-certificate", "post">;
export type PublicIp = ResponseOf<"/troubleshooting/public-ip", "get">;
export type ConnectionProtocol = NonNullable<ConnectionTestRequest["protocol"]>;

/** The body of a 429: the server's envelope plus the Retry-After header it sent. */
export interface RateLimitBody {
  retryAfterSeconds: number;
}

/** Seconds to wait: the Retry-After header, else the server's "try again in N s", else a minute. */
export function retryAfter(header: string | null, message: string): number {
  const fromHeader = Number(header);
  if (header && Number.isFinite(fromHeader) && fromHeader > 0) return Math.ceil(fromHeader);
  const m = /try again in (\d+) s/.exec(message);
  return m ? Number(m[1]) : 60;
}

/**
 * Like `unwrap`, but a 429 keeps the Retry-After header (the tools are rate-limited per client IP,
 * and the screen says how long to wait).
 */
async function unwrapTool<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const e = toApiError(response.status, error);
  if (response.status !== 429) throw e;
  const body: RateLimitBody = { retryAfterSeconds: retryAfter(response.headers.get("retry-after"), e.message) };
  throw new ApiError(e.status, e.code, e.message, body);
}

export function fetchPublicIp(): Promise<PublicIp> {
  return unwrapTool(api.GET("/troubleshooting/public-ip"));
}

export function testConnection(body: ConnectionTestRequest): Promise<ConnectionTestResult> {
  return unwrapTool(api.POST("/troubleshooting/test-connection", { body }));
}

export function validateCertificate(body: CertificateValidationRequest): Promise<CertificateValidation> {
  return unwrapTool(api.POST("/troubleshooting/validate-certificate", { body }));
}

/** What the screen says for a failed call: the rate limit and the sign-in setting get their own words. */
export function describeToolError(e: unknown): string {
  if (!(e instanceof ApiError)) return e instanceof Error ? e.message : String(e);
  if (e.status === 429) {
    const wait = (e.body as Partial<RateLimitBody> | undefined)?.retryAfterSeconds ?? 60;
    return `Rate limited: too many troubleshooting calls from this address; retry after ${wait} s.`;
  }
  if (e.status === 401) {
    return "Sign-in required: an administrator set the troubleshooting tools to need a signed-in user or API key (Settings → Troubleshooting).";
  }
  return e.message || `The call failed (HTTP ${e.status}).`;
}
