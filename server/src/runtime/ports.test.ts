import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { reservePorts } from "../test-support/ports.js";
import { bindTest, checkPort, checkPorts, proposeFabricNodePorts, proposeFreePorts } from "./ports.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

function listen(host: string, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    servers.push(s);
    s.once("error", reject);
    s.listen({ port, host }, () => resolve((s.address() as { port: number }).port));
  });
}

describe("ports", () => {
  it("sees a port bound on 127.0.0.1 as in use, also from the 0.0.0.0 side", async () => {
    const port = await listen("127.0.0.1");
    expect(await bindTest(port, "127.0.0.1")).toBe("EADDRINUSE");
    expect(await checkPort(port)).toMatchObject({ port, reason: "in-use", host: "127.0.0.1", errorCode: "EADDRINUSE" });
    expect(await checkPort(port, { hosts: ["0.0.0.0"] })).toMatchObject({ reason: "in-use", host: "0.0.0.0" });
  });

  it("sees a port bound on 0.0.0.0 as in use", async () => {
    const port = await listen("0.0.0.0");
    expect(await checkPort(port)).toMatchObject({ reason: "in-use" });
  });

  it("treats ports reserved by other nodes and duplicates in one request as conflicts", async () => {
    const a = await reservePorts(2);
    const b = a + 1;
    expect(await checkPort(a)).toBeNull();
    expect(await checkPort(a, { reserved: [a] })).toEqual({ port: a, reason: "reserved" });
    expect(await checkPorts([a, b, a])).toEqual([{ port: a, reason: "reserved" }]);
    await expect(checkPort(70000)).rejects.toMatchObject({ code: "PORT_INVALID" });
  });

  it("proposes distinct free ports, skipping busy and reserved ones", async () => {
    // A block of the tests' own ports, so nothing but this test binds in it.
    const base = await reservePorts(51);
    const busy = await listen("127.0.0.1", base + 1);
    const got = await proposeFreePorts(3, { from: base, to: base + 50, reserved: [base + 2] });
    expect(new Set(got).size).toBe(3);
    expect(got).not.toContain(busy);
    expect(got).not.toContain(base + 2);
    expect(got[0]).toBe(base);
  });

  it("reports an exhausted range", async () => {
    const port = await listen("127.0.0.1");
    await expect(proposeFreePorts(1, { from: port, to: port })).rejects.toMatchObject({ code: "PORT_RANGE_EXHAUSTED" });
  });
});

describe("proposeFabricNodePorts", () => {
  it("gives peers and orderers distinct ports that skip reserved ones", async () => {
    const peer = await proposeFabricNodePorts("peer", { reserved: [7051] });
    expect(peer.listen).toBeGreaterThanOrEqual(7052);
    expect(peer.chaincode).toBeGreaterThan(peer.listen);
    expect(peer.operations).toBeGreaterThanOrEqual(9443);
    const reserved = [peer.listen, peer.chaincode as number, peer.operations];
    const orderer = await proposeFabricNodePorts("orderer", { reserved });
    expect(orderer.admin).toBeDefined();
    expect(reserved).not.toContain(orderer.listen);
    expect(reserved).not.toContain(orderer.admin);
    expect(new Set([...reserved, orderer.listen, orderer.admin, orderer.operations]).size).toBe(6);
  });
});
