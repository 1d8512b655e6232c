import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditRowOf, managerCallers, type Caller } from "../../../test-support/callers.js";
import { createTestApp, dialects, type TestApp } from "../../../test-support/test-app.js";
import { createAwsClients } from "./aws-kms-client.js";

/**
 * The host's own AWS credentials (here in the environment, as an instance role or a shared config
 * would provide them) never go to an endpoint a manager typed in: an AWS_KMS provider with a custom
 * endpoint and no credentials is a 400 naming the field, and the endpoint sees no request. With
 * explicit credentials, only those reach it. A real HTTP server on a free port records what arrives.
 */
const AMBIENT = {
  AWS_ACCESS_KEY_ID: "AKIAAMBIENTHOST0001",
  AWS_SECRET_ACCESS_KEY: "ambient-host-secret-key-000000000000001",
  AWS_SESSION_TOKEN: "ambient-host-session-token-0001",
};

describe.each(dialects())("AWS KMS ambient credentials (%s)", (dialect) => {
  let t: TestApp;
  let callers: Caller[];
  let server: Server;
  let endpoint = "";
  const seen: IncomingHttpHeaders[] = [];
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    for (const [k, v] of Object.entries(AMBIENT)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    server = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      res.writeHead(500, { "content-type": "application/x-amz-json-1.1" }).end("{}");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await createTestApp(dialect);
    callers = await managerCallers(t);
  });
  afterAll(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    server?.close();
    await t?.close();
  });

  const create = (c: Caller, awsKms: Record<string, unknown>, name: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/v1/key-providers",
      headers: c.headers,
      payload: { name, type: "AWS_KMS", config: { awsKms: { awsRegion: "us-east-1", ...awsKms } } },
    });

  it("refuses a custom endpoint without credentials before any request, as a manager session and API key", async () => {
    for (const c of callers) {
      for (const extra of [{}, { assumeRoleArn: "arn:aws:iam::123456789012:role/x" }]) {
        const res = await create(c, { endpointUrl: endpoint, ...extra }, `ambient-${seen.length}`);
        expect(res.statusCode, `${c.label}: ${res.body}`).toBe(400);
        expect(res.json().message).toMatch(/^config\.awsKms\.awsAccessKeyId: is required with endpointUrl/);
        expect(await auditRowOf(t, res)).toMatchObject({
          type: "key_provider.create",
          outcome: "FAILURE",
          username: c.username,
        });
      }
    }
    expect(seen).toEqual([]);
    const names = (await t.app.inject({ method: "GET", url: "/api/v1/key-providers", headers: t.admin }))
      .json()
      .map((p: { name: string }) => p.name);
    expect(names.filter((n: string) => n.startsWith("ambient-"))).toEqual([]);
  });

  it("sends only the explicit credentials to a custom endpoint", async () => {
    const res = await create(
      callers[1]!,
      { endpointUrl: endpoint, awsAccessKeyId: "AKIAEXPLICIT0001", awsSecretAccessKey: "explicit-secret" },
      "explicit",
    );
    // The recorder is not KMS: the setup check fails, but what it received is the point.
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(seen.length).toBeGreaterThan(0);
    for (const h of seen) {
      expect(String(h.authorization)).toContain("Credential=AKIAEXPLICIT0001/");
      expect(JSON.stringify(h)).not.toContain(AMBIENT.AWS_ACCESS_KEY_ID);
      expect(JSON.stringify(h)).not.toContain(AMBIENT.AWS_SESSION_TOKEN);
    }
  });

  it("never builds a client for a stored provider with a custom endpoint and no credentials", async () => {
    await expect(
      createAwsClients({ awsRegion: "us-east-1", endpointUrl: endpoint, kmsKeyAliasPrefix: "x/" }, {}),
    ).rejects.toThrow(/^config\.awsKms\.awsAccessKeyId: is required with endpointUrl/);
  });
});
