import { common } from "@hyperledger/fabric-protos";
import { describe, expect, it } from "vitest";
import { BroadcastError } from "./broadcast.js";
import { ordererHasNoLeader } from "./chaincode/gateway.js";
import { DeliverError } from "./deliver.js";
import { isNoLeader, untilLeader } from "./leader-wait.js";

const noLeader = () => new BroadcastError(common.Status.SERVICE_UNAVAILABLE, "SERVICE_UNAVAILABLE", "no Raft leader");

/** An operation that fails with `errors` in turn, then answers "ok"; counts its calls. */
function flaky(errors: unknown[]) {
  let calls = 0;
  return {
    calls: () => calls,
    op: async (): Promise<string> => {
      const e = errors[calls++];
      if (e) throw e;
      return "ok";
    },
  };
}

describe("waiting for a Raft leader", () => {
  it("knows the orderer's no-leader answers from the others", () => {
    expect(isNoLeader(noLeader())).toBe(true);
    expect(isNoLeader(new DeliverError(common.Status.SERVICE_UNAVAILABLE, "deliver: SERVICE_UNAVAILABLE"))).toBe(true);
    expect(isNoLeader(new BroadcastError(common.Status.BAD_REQUEST, "BAD_REQUEST", "bad"))).toBe(false);
    expect(isNoLeader(new DeliverError(common.Status.NOT_FOUND, "NOT_FOUND"))).toBe(false);
    expect(isNoLeader(new Error("14 UNAVAILABLE: connect ECONNREFUSED"))).toBe(false);
  });

  it("retries no-leader answers with a growing pause until the orderer serves", async () => {
    const f = flaky([noLeader(), noLeader(), noLeader()]);
    const t0 = Date.now();
    expect(await untilLeader(f.op, { firstMs: 10, capMs: 20, timeoutMs: 5_000 })).toBe("ok");
    expect(f.calls()).toBe(4);
    // 10 + 20 + 20 ms of pauses.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(45);
  });

  it("throws any other failure at once", async () => {
    const bad = new BroadcastError(common.Status.FORBIDDEN, "FORBIDDEN", "implicit policy evaluation failed");
    const f = flaky([noLeader(), bad]);
    await expect(untilLeader(f.op, { firstMs: 1, timeoutMs: 5_000 })).rejects.toBe(bad);
    expect(f.calls()).toBe(2);
  });

  it("gives up at the deadline and says how long it waited", async () => {
    const f = flaky(Array.from({ length: 1000 }, noLeader));
    const t0 = Date.now();
    const err = await untilLeader(f.op, { firstMs: 20, capMs: 50, timeoutMs: 300 }).catch((e: unknown) => e);
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(err).toBeInstanceOf(BroadcastError);
    expect((err as BroadcastError).message).toMatch(
      /SERVICE_UNAVAILABLE: no Raft leader \(still after waiting 0\.\d s for a leader\)/,
    );
    expect(isNoLeader(err)).toBe(true);
  });

  it("reads the Gateway's words for orderers without a leader, and not its other failures", () => {
    const gw = (message: string, details: { address: string; mspId: string; message: string }[] = []) =>
      Object.assign(new Error(message), { details });
    const detail = (message: string) => ({ address: "127.0.0.1:7050", mspId: "OrdMSP", message });
    // Fabric 3.1: every orderer answered a 5xx status, and the Gateway adds no detail.
    expect(ordererHasNoLeader(gw("14 UNAVAILABLE: no orderers could successfully process transaction"))).toBe(true);
    expect(
      ordererHasNoLeader(
        gw("14 UNAVAILABLE: no orderers could successfully process transaction", [
          detail("rpc error: code = Aborted desc = received unsuccessful response from orderer: SERVICE_UNAVAILABLE"),
        ]),
      ),
    ).toBe(true);
    // A connection failure (a detail without the status) and a 4xx refusal are not waited for.
    expect(
      ordererHasNoLeader(
        gw("14 UNAVAILABLE: no orderers could successfully process transaction", [
          detail("rpc error: code = Unavailable desc = connection error: connect: connection refused"),
        ]),
      ),
    ).toBe(false);
    expect(
      ordererHasNoLeader(gw("10 ABORTED: received unsuccessful response from orderer: status=BAD_REQUEST, info=x")),
    ).toBe(false);
  });
});
