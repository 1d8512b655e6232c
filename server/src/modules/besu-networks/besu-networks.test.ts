import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromRlp } from "viem";
import { publicKeyToAddress } from "viem/accounts";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";

describe.each(dialects())("Besu networks on %s", (dialect) => {
  let t: TestApp;
  const secpKeys: Array<{ id: number; ethereumAddress: string }> = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/keys",
        headers: t.admin,
        payload: { name: `validator-${i}`, algorithm: "EC", curve: "secp256k1" },
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      secpKeys.push(res.json());
    }
  });
  afterAll(async () => t.close());

  it("parallel creates of the same network give one success and 409s, never a 500", async () => {
    const results = await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        create({ name: "raced", config: { chainId: 7100 + i, initialValidatorsKeyIds: [secpKeys[3]!.id] } }),
      ),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().message).toMatch(/^name: /);
    const sameChain = await Promise.all(
      ["chain-a", "chain-b", "chain-c"].map((name) =>
        create({ name, config: { chainId: 7200, initialValidatorsKeyIds: [secpKeys[3]!.id] } }),
      ),
    );
    const statuses = sameChain.map((r) => r.statusCode).sort();
    expect(statuses[0]).toBe(200);
    // The loser is told by the pre-check (400) or, having raced past it, by the unique index (409).
    for (const st of statuses.slice(1)) expect([400, 409]).toContain(st);
    for (const r of sameChain.filter((x) => x.statusCode !== 200))
      expect(r.json().message).toMatch(/^config\.chainId: /);
  });

  const create = (payload: object, query = "") =>
    t.app.inject({ method: "POST", url: `/api/v1/networks/besu${query}`, headers: t.admin, payload });

  it("builds a QBFT genesis whose extraData an independent decoder reads back as the validators", async () => {
    const external = generateKeyPairSync("ec", { namedCurve: "secp256k1" });
    const jwk = external.publicKey.export({ format: "jwk" });
    const uncompressed =
      `0x04${Buffer.from(jwk.x!, "base64url").toString("hex")}${Buffer.from(jwk.y!, "base64url").toString("hex")}` as const;
    const externalAddress = publicKeyToAddress(uncompressed);
    const res = await create({
      name: "qbft-1",
      description: "four validators",
      config: {
        chainId: 1337,
        blockPeriod: 2,
        epochLength: 30000,
        requestTimeout: 10,
        gasLimit: "0x29b92700",
        alloc: { [secpKeys[0]!.ethereumAddress]: { balance: "0xad78ebc5ac6200000" } },
        initialValidatorsKeyIds: secpKeys.slice(0, 3).map((k) => k.id),
        externalValidatorKeys: [{ publicKey: uncompressed, ethereumAddress: externalAddress }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const net = res.json();
    expect(net).toMatchObject({ name: "qbft-1", platform: "BESU", chainId: 1337, status: "created" });
    const expected = [...secpKeys.slice(0, 3).map((k) => k.ethereumAddress), externalAddress].map((a) =>
      a.toLowerCase(),
    );
    expect(net.validators.map((a: string) => a.toLowerCase())).toEqual(expected);

    const genesis = JSON.parse(net.genesisConfig);
    expect(genesis.config).toMatchObject({
      chainId: 1337,
      qbft: { blockperiodseconds: 2, epochlength: 30000, requesttimeoutseconds: 10 },
    });
    expect(genesis.gasLimit).toBe("0x29b92700");
    const decoded = fromRlp(genesis.extraData, "hex") as unknown[];
    expect(decoded[0]).toBe(`0x${"00".repeat(32)}`);
    expect((decoded[1] as string[]).map((a) => a.toLowerCase())).toEqual(expected);
    expect(decoded[2]).toEqual([]);
    expect(decoded[3]).toBe("0x");
    expect(decoded[4]).toEqual([]);
    expect(JSON.parse(Buffer.from(net.config, "base64").toString())).toMatchObject({
      chainId: 1337,
      consensus: "qbft",
    });

    const list = await t.app.inject({ method: "GET", url: "/api/v1/networks/besu?name=qbft", headers: t.admin });
    expect(list.json().total).toBe(1);
    const viewer = await createUser(t, "besu-viewer", "viewer");
    expect(
      (await t.app.inject({ method: "GET", url: `/api/v1/networks/besu/${net.id}`, headers: viewer })).json().id,
    ).toBe(net.id);
  });

  it("keeps validator keys from being deleted while a network uses them", async () => {
    const del = await t.app.inject({ method: "DELETE", url: `/api/v1/keys/${secpKeys[0]!.id}`, headers: t.admin });
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toMatch(/qbft-1/);
  });

  it.each([
    ["a duplicate chain id", { chainId: 1337 }, "config.chainId"],
    ["an empty validator set", { chainId: 2001, initialValidatorsKeyIds: [] }, "config.initialValidatorsKeyIds"],
    ["an unknown key", { chainId: 2002, initialValidatorsKeyIds: [999999] }, "config.initialValidatorsKeyIds[0]"],
    [
      "a mismatched external address",
      {
        chainId: 2003,
        externalValidatorKeys: [{ publicKey: `0x04${"11".repeat(64)}`, ethereumAddress: `0x${"22".repeat(20)}` }],
      },
      "config.externalValidatorKeys[0]",
    ],
    ["an unknown field", { chainId: 2004, surprise: true }, "body.config"],
    ["a bad gas limit", { chainId: 2005, gasLimit: "lots" }, "body.config.gasLimit"],
  ])("rejects %s with a named 400 and creates nothing", async (_l, override, field) => {
    const before = (await t.app.inject({ method: "GET", url: "/api/v1/networks/besu", headers: t.admin })).json().total;
    // Strict: an unknown field is refused rather than dropped with a warning.
    const res = await create(
      { name: `bad-${field}`, config: { initialValidatorsKeyIds: [secpKeys[3]!.id], ...override } },
      "?fieldValidation=Strict",
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message.startsWith(field), res.json().message).toBe(true);
    expect((await t.app.inject({ method: "GET", url: "/api/v1/networks/besu", headers: t.admin })).json().total).toBe(
      before,
    );
  });

  it("refuses a validator key that is not secp256k1", async () => {
    const p256 = await t.app.inject({
      method: "POST",
      url: "/api/v1/keys",
      headers: t.admin,
      payload: { name: "p256", algorithm: "EC", curve: "P-256" },
    });
    const res = await create({
      name: "wrong-curve",
      config: { chainId: 2010, initialValidatorsKeyIds: [p256.json().id] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^config\.initialValidatorsKeyIds\[0\]: .*not secp256k1/);
  });

  it("imports a network from a genesis file, and deletes it", async () => {
    const source = JSON.parse(
      (await t.app.inject({ method: "GET", url: "/api/v1/networks/besu?limit=1", headers: t.admin })).json().networks[0]
        .genesisConfig,
    );
    source.config.chainId = 4242;
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/networks/besu/import",
      headers: t.admin,
      payload: { name: "imported", chainId: 4242, genesisFile: JSON.stringify(source) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().networkId;
    const net = (await t.app.inject({ method: "GET", url: `/api/v1/networks/besu/${id}`, headers: t.admin })).json();
    expect(net).toMatchObject({ status: "imported", chainId: 4242 });
    expect(net.validators).toHaveLength(4);
    const bad = await t.app.inject({
      method: "POST",
      url: "/api/v1/networks/besu/import",
      headers: t.admin,
      payload: { name: "x2", genesisFile: "{not json" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^genesisFile: /);
    const mismatch = await t.app.inject({
      method: "POST",
      url: "/api/v1/networks/besu/import",
      headers: t.admin,
      payload: {
        name: "x3",
        chainId: 1,
        genesisFile: JSON.stringify({ ...source, config: { ...source.config, chainId: 5151 } }),
      },
    });
    expect(mismatch.json().message).toMatch(/^chainId: /);
    expect(
      (await t.app.inject({ method: "DELETE", url: `/api/v1/networks/besu/${id}`, headers: t.admin })).statusCode,
    ).toBe(204);
    expect(
      (await t.app.inject({ method: "GET", url: `/api/v1/networks/besu/${id}`, headers: t.admin })).statusCode,
    ).toBe(404);
  });
});
