import { describe, expect, it } from "vitest";
import { consoleCurl, directCommand, shellQuote } from "@/pages/troubleshooting/curl";

describe("copy as curl", () => {
  it("always offers the console API call, with the body as JSON and quotes escaped", () => {
    const cmd = consoleCurl("https://console.example.com/", {
      endpoint: "peer0:7051",
      protocol: "grpcs",
      server_name: "it's",
      headers: {},
    });
    expect(cmd).toBe(
      [
        "curl -X POST 'https://console.example.com/api/v1/troubleshooting/test-connection'",
        "-H 'Content-Type: application/json'",
        `-d '{"endpoint":"peer0:7051","protocol":"grpcs","server_name":"it'\\''s"}'`,
      ].join(" \\\n  "),
    );
  });

  it("builds curl with headers for http(s), adding the scheme to host:port", () => {
    expect(
      directCommand({
        endpoint: "10.0.0.1:9443",
        protocol: "https",
        timeout: 5,
        headers: { Authorization: "Bearer x" },
        ca_cert: "PEM",
      }),
    ).toBe("curl -sS -i --max-time 5 -H 'Authorization: Bearer x' --cacert ca.pem 'https://10.0.0.1:9443'");
    expect(directCommand({ endpoint: "http://h:1/healthz", protocol: "http" })).toBe(
      "curl -sS -i --max-time 10 'http://h:1/healthz'",
    );
  });

  it("builds openssl s_client for tls and nc for tcp; nothing direct for gRPC", () => {
    expect(directCommand({ endpoint: "orderer0:7053", protocol: "tls" })).toBe(
      "openssl s_client -connect 'orderer0:7053' -servername 'orderer0' </dev/null",
    );
    expect(directCommand({ endpoint: "10.0.0.1:7053", protocol: "tls", server_name: "orderer0.org" })).toBe(
      "openssl s_client -connect '10.0.0.1:7053' -servername 'orderer0.org' </dev/null",
    );
    expect(directCommand({ endpoint: "h:22", protocol: "tcp", timeout: 3 })).toBe("nc -vz -w 3 'h' 22");
    expect(directCommand({ endpoint: "h:7051", protocol: "grpcs" })).toBeUndefined();
  });

  it("quotes for the shell", () => {
    expect(shellQuote("a b")).toBe("'a b'");
    expect(shellQuote("x'; rm -rf /")).toBe(`'x'\\''; rm -rf /'`);
  });
});
