import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../test-support/ports.js";
import { createTestApp, type TestApp } from "../../test-support/test-app.js";

/**
 * CONTRACT TEST of the validator-vote guard, not an end-to-end test: no Besu runs here, so a local
 * HTTP server answers qbft_getValidatorsByBlockNumber and qbft_proposeValidatorVote with the result
 * shapes of Besu's API reference, and records what the console sends.
 */
describe("QBFT validator votes keep the 2/3 quorum unless forced", () => {
  let t: TestApp;
  let server: Server;
  let nodeId: number;
  const validators = [
    "0x1111111111111111111111111111111111111111",
    "0x2222222222222222222222222222222222222222",
    "0x3333333333333333333333333333333333333333",
    "0x4444444444444444444444444444444444444444",
  ];
  const proposals: unknown[][] = [];

  beforeAll(async () => {
    t = await createTestApp("sqlite");
    const rpcPort = await freePort();
    const key = (
      await t.app.inject({
        method: "POST",
        url: "/api/v1/keys",
        headers: t.admin,
        payload: { name: "k", algorithm: "EC", curve: "secp256k1" },
      })
    ).json();
    const net = (
      await t.app.inject({
        method: "POST",
        url: "/api/v1/networks/besu",
        headers: t.admin,
        payload: { name: "vote-net", config: { chainId: 777, initialValidatorsKeyIds: [key.id] } },
      })
    ).json();
    const node = await t.app.inject({
      method: "POST",
      url: "/api/v1/nodes?start=false",
      headers: t.admin,
      payload: {
        name: "voter",
        blockchainPlatform: "BESU",
        besuNode: {
          networkId: net.id,
          keyId: key.id,
          externalIp: "127.0.0.1",
          internalIp: "127.0.0.1",
          p2pHost: "127.0.0.1",
          p2pPort: await freePort(),
          rpcHost: "127.0.0.1",
          rpcPort,
          metricsPort: await freePort(),
        },
      },
    });
    expect(node.statusCode, node.body).toBe(201);
    nodeId = node.json().id;
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const msg = JSON.parse(body);
        if (msg.method === "qbft_proposeValidatorVote") proposals.push(msg.params);
        const result = msg.method === "qbft_getValidatorsByBlockNumber" ? validators : true;
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result }));
      });
    });
    await new Promise<void>((r) => server.listen(rpcPort, "127.0.0.1", () => r()));
  });
  afterAll(async () => {
    server?.close();
    await t?.close();
  });

  const vote = (payload: object) =>
    t.app.inject({
      method: "POST",
      url: `/api/v1/nodes/${nodeId}/rpc/qbft-propose-validator-vote`,
      headers: t.admin,
      payload,
    });

  it("refuses, naming the vote, to remove one of 4 validators without force", async () => {
    const res = await vote({ validatorAddress: validators[3], vote: false });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^vote: with 3 validator\(s\) the network tolerates 0/);
    expect(proposals).toHaveLength(0);
  });

  it("casts it with force, and adds validators freely", async () => {
    expect((await vote({ validatorAddress: validators[3], vote: false, force: true })).json()).toBe(true);
    expect((await vote({ validatorAddress: "0x5555555555555555555555555555555555555555", vote: true })).json()).toBe(
      true,
    );
    expect(proposals.map((p) => [String(p[0]).toLowerCase(), p[1]])).toEqual([
      [validators[3], false],
      ["0x5555555555555555555555555555555555555555", true],
    ]);
    const audit = await t.app.inject({
      method: "GET",
      url: "/api/v1/audit/logs?event_type=node.qbft_vote",
      headers: t.admin,
    });
    expect(audit.json().total_count).toBe(3);
  });
});
