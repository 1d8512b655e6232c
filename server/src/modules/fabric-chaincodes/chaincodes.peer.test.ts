import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCcaasPackage, ustar } from "../../fabric/chaincode/package.js";
import { readChaincodePackage } from "../../fabric/chaincode/package-read.js";
import { expectHostCommandRefused, managerCallers, type Caller } from "../../test-support/callers.js";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";

const golang = gzipSync(
  ustar([["metadata.json", Buffer.from(JSON.stringify({ type: "golang", label: "go_1", path: "x" }))]]),
);

describe("chaincode packages as the peer reads them", () => {
  it("reads type, label, connection and the id the peer computes; refuses what is not a package", () => {
    const pkg = buildCcaasPackage({ label: "cc_1.0", connection: { address: "127.0.0.1:9999", tls_required: false } });
    expect(readChaincodePackage(pkg.bytes)).toEqual({
      type: "ccaas",
      label: "cc_1.0",
      packageId: pkg.packageId,
      connection: { address: "127.0.0.1:9999", tls_required: false },
    });
    expect(readChaincodePackage(golang, "f")).toMatchObject({ type: "golang", label: "go_1" });
    expect(() => readChaincodePackage(Buffer.from("plain"), "f")).toThrow(/not gzip/);
    expect(() => readChaincodePackage(gzipSync(Buffer.alloc(1024)), "f")).toThrow(/no metadata.json/);
  });
});

/**
 * Who may use the per-peer lifecycle, one-shot deploy, transaction read and reload-block, on both
 * databases: viewers read only; a manager's package of another type than ccaas is a host command
 * (403 naming the field, audited, nothing stored); bad input names its field before any node is asked.
 */
describe.each(dialects())("per-peer lifecycle routes on %s", (dialect) => {
  let t: TestApp;
  let viewer: { authorization: string };
  let managers: Caller[];
  beforeAll(async () => {
    t = await createTestApp(dialect);
    viewer = await createUser(t, "vic", "viewer");
    managers = await managerCallers(t);
  });
  afterAll(async () => t.close());

  const post = (url: string, body: unknown, headers: Record<string, string> = t.admin) =>
    t.app.inject({
      method: "POST",
      url: `/api/v1${url}`,
      headers: { ...headers, "content-type": "application/json" },
      payload: JSON.stringify(body),
    });
  const ccaas = buildCcaasPackage({ label: "cc_1", connection: { address: "127.0.0.1:9", tls_required: false } });

  it("refuses viewers every change and lets them read transactions", async () => {
    for (const url of [
      "/sc/fabric/peer/1/chaincode/install",
      "/sc/fabric/peer/1/chaincode/approve",
      "/sc/fabric/peer/1/chaincode/commit",
      "/sc/fabric/deploy",
      "/networks/fabric/1/reload-block",
    ])
      expect((await post(url, {}, viewer)).statusCode, url).toBe(403);
    const read = await t.app.inject({
      method: "GET",
      url: "/api/v1/networks/fabric/77/transactions/abc",
      headers: viewer,
    });
    expect(read.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: "GET",
      url: "/api/v1/networks/fabric/77/transactions/a%20b",
      headers: viewer,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/txId/);
  });

  it("refuses a manager's non-ccaas package as a host command, on install and deploy, and stores nothing", async () => {
    const count = async () =>
      (await t.app.inject({ method: "GET", url: "/api/v1/sc/fabric/chaincodes", headers: t.admin })).json().chaincodes
        .length;
    for (const m of managers) {
      const before = await count();
      await expectHostCommandRefused(
        t,
        await post(
          "/sc/fabric/peer/1/chaincode/install",
          { label: "go_1", package_bytes: golang.toString("base64") },
          m.headers,
        ),
        { eventType: "chaincode.peer_install", field: "package_bytes", before, state: count },
      );
      await expectHostCommandRefused(
        t,
        await post(
          "/sc/fabric/deploy",
          {
            installParams: { packageBytes: [...golang] },
            approveParams: { channelID: "ch", name: "go", version: "1", sequence: 1 },
          },
          m.headers,
        ),
        { eventType: "chaincode.deploy", field: "installParams.packageBytes", before, state: count },
      );
    }
  });

  it("names bad input before asking a node, for managers too", async () => {
    const [m] = managers;
    const cases: [string, unknown, RegExp][] = [
      ["/sc/fabric/peer/1/chaincode/install", { package_bytes: "%%%" }, /^package_bytes: not base64/],
      ["/sc/fabric/peer/1/chaincode/install", { label: "x_1", package_bytes: [...ccaas.bytes] }, /^label: /],
      ["/sc/fabric/peer/999/chaincode/install", { package_bytes: [...ccaas.bytes] }, /^peerId: node 999 not found/],
      [
        "/sc/fabric/peer/1/chaincode/approve",
        { channelID: "ch", name: "cc", version: "1", sequence: 0 },
        /^sequence: /,
      ],
      ["/sc/fabric/peer/1/chaincode/commit", { channelID: "ch", name: "c c", version: "1", sequence: 1 }, /^name: /],
      [
        "/sc/fabric/peer/999/chaincode/approve",
        { channelID: "ch", name: "cc", version: "1", sequence: 1 },
        /^peerId: /,
      ],
      [
        "/sc/fabric/deploy",
        {
          installParams: { packageBytes: ccaas.bytes.toString("base64") },
          approveParams: { channelID: "ch", name: "cc", version: "1", sequence: 1 },
          commitParams: { version: "2" },
        },
        /^commitParams\.version: differs/,
      ],
      [
        "/sc/fabric/deploy",
        {
          installParams: { packageBytes: ccaas.bytes.toString("base64") },
          approveParams: { channelID: "nochannel", name: "cc", version: "1", sequence: 1 },
        },
        /^approveParams\.channelID: no Fabric channel 'nochannel'/,
      ],
    ];
    for (const [url, body, message] of cases) {
      const res = await post(url, body, m!.headers);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const reload = await post("/networks/fabric/4242/reload-block", {}, m!.headers);
    expect(reload.statusCode).toBe(404);
  });
});
