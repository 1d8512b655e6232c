import { describe, expect, it } from "vitest";
import { createGatewayPool } from "./gateway-pool.js";

/** A connection that records whether it was closed. */
function conn(name: string) {
  return {
    name,
    closed: false,
    close(): void {
      this.closed = true;
    },
  };
}
const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

describe("gateway pool", () => {
  it("reuses a slot's connection while its fingerprint holds", async () => {
    const pool = createGatewayPool<ReturnType<typeof conn>>();
    let opened = 0;
    const open = async () => conn(`c${++opened}`);
    const a = await pool.get("peer1:key1", "addr|tls|Org1MSP|cert", open);
    const b = await pool.get("peer1:key1", "addr|tls|Org1MSP|cert", open);
    expect(b).toBe(a);
    expect(opened).toBe(1);
  });

  it("reopens when the node moved, its TLS root changed or the certificate was renewed, closing the old one", async () => {
    const pool = createGatewayPool<ReturnType<typeof conn>>();
    const first = await pool.get("peer1:key1", "127.0.0.1:7051|ca1|Org1MSP|cert1", async () => conn("first"));
    const moved = await pool.get("peer1:key1", "127.0.0.1:9051|ca1|Org1MSP|cert1", async () => conn("moved"));
    await settle();
    expect(moved.name).toBe("moved");
    expect(first.closed).toBe(true);
    const renewed = await pool.get("peer1:key1", "127.0.0.1:9051|ca1|Org1MSP|cert2", async () => conn("renewed"));
    await settle();
    expect(renewed.name).toBe("renewed");
    expect(moved.closed).toBe(true);
    expect(pool.size).toBe(1);
  });

  it("does not keep a failed open", async () => {
    const pool = createGatewayPool<ReturnType<typeof conn>>();
    await expect(pool.get("k", "f", async () => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    await settle();
    expect(pool.size).toBe(0);
    expect((await pool.get("k", "f", async () => conn("again"))).name).toBe("again");
  });

  it("closes slots unused for the idle time (a deleted node or key) at the next lookup", async () => {
    let t = 0;
    const pool = createGatewayPool<ReturnType<typeof conn>>({ idleMs: 1000, now: () => t });
    const gone = await pool.get("deleted-peer:key1", "f", async () => conn("gone"));
    t = 1500;
    await pool.get("peer2:key1", "f", async () => conn("other"));
    await settle();
    expect(gone.closed).toBe(true);
    expect(pool.size).toBe(1);
  });

  it("close() closes every connection", async () => {
    const pool = createGatewayPool<ReturnType<typeof conn>>();
    const a = await pool.get("a", "f", async () => conn("a"));
    const b = await pool.get("b", "f", async () => conn("b"));
    pool.close();
    await settle();
    expect([a.closed, b.closed]).toEqual([true, true]);
    expect(pool.size).toBe(0);
  });
});
