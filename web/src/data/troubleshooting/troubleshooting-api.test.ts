import { beforeEach, describe, expect, it, vi } from "vitest";

const http = await vi.hoisted(async () => (await import("@/test-support/fetch-mock")).installFetchMock());
const { describeToolError, retryAfter, testConnection, validateCertificate } =
  await import("@/data/troubleshooting/troubleshooting-api");

describe("troubleshooting data layer", () => {
  beforeEach(() => http.reset());

  it("posts a connection test and returns the answer", async () => {
    http.respond("POST", "/troubleshooting/test-connection", 200, {
      endpoint: "h:1",
      protocol: "tcp",
      success: false,
      response_time_ms: 3,
      error: "connect ECONNREFUSED",
    });
    const r = await testConnection({ endpoint: "h:1", protocol: "tcp", timeout: 2 });
    expect(r.error).toBe("connect ECONNREFUSED");
    expect(http.calls).toEqual([
      {
        method: "POST",
        path: "/troubleshooting/test-connection",
        query: "",
        body: { endpoint: "h:1", protocol: "tcp", timeout: 2 },
      },
    ]);
  });

  it("turns a 429 into 'retry after N s' and a 401 into the sign-in message", async () => {
    http.respond("POST", "/troubleshooting/validate-certificate", 429, {
      error: "RATE_LIMITED",
      message: "too many troubleshooting calls from 127.0.0.1; try again in 17 s",
      requestId: "r",
    });
    const e429 = await validateCertificate({ certificate: "x" }).catch((e: unknown) => e);
    expect(describeToolError(e429)).toBe(
      "Rate limited: too many troubleshooting calls from this address; retry after 17 s.",
    );
    http.respond("POST", "/troubleshooting/validate-certificate", 401, {
      error: "UNAUTHORIZED",
      message: "the troubleshooting tools need a signed-in user or API key (Settings)",
      requestId: "r",
    });
    const e401 = await validateCertificate({ certificate: "x" }).catch((e: unknown) => e);
    expect(describeToolError(e401)).toMatch(/^Sign-in required/);
  });

  it("prefers the Retry-After header", () => {
    expect(retryAfter("5", "try again in 17 s")).toBe(5);
    expect(retryAfter(null, "no number")).toBe(60);
  });
});
