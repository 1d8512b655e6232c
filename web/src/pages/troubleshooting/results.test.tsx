import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/api/errors";
import {
  describeToolError,
  type CertificateValidation,
  type ConnectionTestResult,
} from "@/data/troubleshooting/troubleshooting-api";
import { CertificateResult } from "@/pages/troubleshooting/CertificateResult";
import { ResultsTable, shortHealth, TestDetails, type TestRow } from "@/pages/troubleshooting/ResultsTable";

const text = (html: string): string => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

const cert: CertificateValidation = {
  subject: "CN=peer0",
  issuer: "CN=tlsca",
  serial_number: "0a",
  not_before: "2026-01-01T00:00:00Z",
  not_after: "2027-01-01T00:00:00Z",
  is_ca: false,
  key_usage: ["digitalSignature", "serverAuth"],
  dns_names: ["peer0.example.com"],
  ip_addresses: ["127.0.0.1"],
  valid: true,
  errors: [],
  warnings: [],
  chain: ["CN=peer0", "CN=tlsca"],
  fingerprint: "ab:cd",
};

describe("CertificateResult", () => {
  it("shows a valid certificate's fields", () => {
    const t = text(renderToStaticMarkup(<CertificateResult result={cert} />));
    expect(t).toContain("Valid");
    expect(t).not.toContain("Invalid");
    expect(t).toContain("peer0.example.com, 127.0.0.1");
    expect(t).toContain("digitalSignature, serverAuth");
    expect(t).toContain("ab:cd");
  });

  it("lists an invalid certificate's errors in red and warnings in amber", () => {
    const html = renderToStaticMarkup(
      <CertificateResult
        result={{ ...cert, valid: false, errors: ["expired on 2020-01-01"], warnings: ["no SAN for host"] }}
      />,
    );
    expect(text(html)).toContain("Invalid");
    expect(html).toMatch(/aria-label="Errors" class="[^"]*text-destructive[^"]*"><li>expired on 2020-01-01/);
    expect(html).toMatch(/aria-label="Warnings" class="[^"]*text-amber-700[^"]*"><li>no SAN for host/);
  });
});

describe("ResultsTable", () => {
  const failed: ConnectionTestResult = {
    endpoint: "peer0:7051",
    protocol: "grpcs",
    success: false,
    response_time_ms: 12,
    error: "connect ECONNREFUSED 127.0.0.1:7051",
  };
  const ok: ConnectionTestResult = {
    endpoint: "peer0:7051",
    protocol: "grpcs",
    success: true,
    response_time_ms: 8,
    status_code: 12,
    tls_info: {
      version: "TLSv1.3",
      cipher_suite: "TLS_AES_128_GCM_SHA256",
      server_name: "peer0",
      issuer: "CN=tlsca",
      cert_expiry: "2027-01-01",
      certificate_valid: true,
      subject: "CN=peer0",
      chain: ["CN=peer0", "CN=tlsca"],
      verify_error: "",
      verified_against: "Org1MSP TLS CA",
    },
    details: { handshake: "HTTP/2 settings exchanged", health: "not offered (UNIMPLEMENTED)" },
  };
  const row = (patch: Partial<TestRow>): TestRow => ({
    id: "1",
    node: "peer0",
    target: "gRPC",
    request: { endpoint: "peer0:7051", protocol: "grpcs" },
    state: "done",
    ...patch,
  });

  it("shows a failed connection with its error, and a call refused by the rate limit", () => {
    const t = text(
      renderToStaticMarkup(
        <ResultsTable
          rows={[
            row({ result: failed }),
            row({ id: "2", state: "failed", error: "Rate limited: retry after 30 s." }),
            row({ id: "3", state: "running" }),
          ]}
        />,
      ),
    );
    expect(t).toContain("Failed");
    expect(t).toContain("connect ECONNREFUSED 127.0.0.1:7051");
    expect(t).toContain("Rate limited: retry after 30 s.");
    expect(t).toContain("Running");
  });

  it("shows a successful gRPC test with TLS valid and the health answer, and its details", () => {
    const t = text(renderToStaticMarkup(<ResultsTable rows={[row({ result: ok })]} />));
    expect(t).toContain("Success");
    expect(t).toContain("TLS valid");
    expect(t).toContain("not offered (UNIMPLEMENTED)");
    expect(shortHealth("not offered (UNIMPLEMENTED): the server speaks gRPC")).toBe("not offered (UNIMPLEMENTED)");
    const d = text(renderToStaticMarkup(<TestDetails result={ok} />));
    expect(d).toContain("TLSv1.3");
    expect(d).toContain("TLS_AES_128_GCM_SHA256");
    expect(d).toContain("2027-01-01");
    expect(d).toContain("CN=tlsca");
  });
});

describe("describeToolError", () => {
  it("says how long to wait on 429 and why on 401", () => {
    expect(describeToolError(new ApiError(429, "RATE_LIMITED", "x", { retryAfterSeconds: 42 }))).toContain(
      "retry after 42 s",
    );
    expect(describeToolError(new ApiError(401, "UNAUTHORIZED", "x"))).toContain("Sign-in required");
    expect(describeToolError(new ApiError(400, "VALIDATION_ERROR", "body.endpoint: bad"))).toBe("body.endpoint: bad");
  });
});
