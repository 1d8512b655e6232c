import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BusEvent } from "../../events/bus.js";
import { createTestApp, dialects, type TestApp } from "../../test-support/test-app.js";

describe.each(dialects())("Besu bulk create on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const counts = async () => ({
    keys: (await t.app.inject({ method: "GET", url: "/api/v1/keys?limit=1000", headers: t.admin })).json()
      .totalItems as number,
    networks: (await t.app.inject({ method: "GET", url: "/api/v1/networks/besu", headers: t.admin })).json()
      .total as number,
    nodes: (await t.app.inject({ method: "GET", url: "/api/v1/nodes", headers: t.admin })).json().total as number,
  });
  const bulk = (payload: object) =>
    t.app.inject({ method: "POST", url: "/api/v1/networks/besu/bulk-create", headers: t.admin, payload });

  it("refuses to create nodes that are to start when no besu can be found, before any key or network", async () => {
    const before = await counts();
    const res = await bulk({ networkName: `nobesu-${dialect}`, nodeCount: 2, config: { chainId: 9050 }, start: true });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toMatch(/^start: the node can't start: besu binary not found/);
    expect(await counts()).toEqual(before);
  });

  it("creates N validator keys, the network and N nodes wired to the first as bootnode, reporting progress", async () => {
    const events: BusEvent[] = [];
    const off = t.bus.subscribe((e) => void (e.type === "besu.bulk_create.progress" && events.push(e)));
    const res = await bulk({
      networkName: `bulk-${dialect}`,
      nodeCount: 3,
      config: { chainId: 9001, blockPeriod: 2 },
      start: false,
    });
    off();
    expect(res.statusCode, res.body).toBe(201);
    const { network, nodes, keyIds } = res.json();
    expect(keyIds).toHaveLength(3);
    expect(network.validators).toHaveLength(3);
    const keys = await Promise.all(
      keyIds.map(async (id: number) =>
        (await t.app.inject({ method: "GET", url: `/api/v1/keys/${id}`, headers: t.admin })).json(),
      ),
    );
    expect(network.validators).toEqual(keys.map((k) => k.ethereumAddress));
    expect(nodes.map((n: { name: string }) => n.name)).toEqual([0, 1, 2].map((i) => `bulk-${dialect}-node-${i}`));
    const boot = nodes[0].besuNode.enodeUrl;
    expect(nodes[0].besuNode.bootNodes ?? []).toEqual([]);
    expect(nodes[1].besuNode.bootNodes).toEqual([boot]);
    expect(nodes[2].besuNode.bootNodes).toEqual([boot]);
    const ports = nodes.flatMap((n: { besuNode: { p2pPort: number; rpcPort: number; metricsPort: number } }) => [
      n.besuNode.p2pPort,
      n.besuNode.rpcPort,
      n.besuNode.metricsPort,
    ]);
    expect(new Set(ports).size).toBe(ports.length);
    expect(events.map((e) => e.data.phase)).toEqual([
      "keys",
      "keys",
      "keys",
      "network",
      "nodes",
      "nodes",
      "nodes",
      "done",
    ]);
  });

  it("removes everything it created when a step fails", async () => {
    const before = await counts();
    // Chain id 9001 is taken: the network step fails after the keys were made.
    const res = await bulk({
      networkName: `bulk-fail-${dialect}`,
      nodeCount: 2,
      config: { chainId: 9001 },
      start: false,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^config\.chainId: /);
    expect(await counts()).toEqual(before);
  });

  it("names bad input", async () => {
    const res = await bulk({ networkName: "x", nodeCount: 0, config: { chainId: 9100 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^body\.nodeCount/);
  });
});
