import { describe, expect, it } from "vitest";
import {
  bulkOutcome,
  BULK_FORM_DEFAULTS,
  BULK_IDLE,
  bulkProgressReducer,
  bulkSteps,
  parseProgress,
  toBulkCreateBody,
  type BulkProgress,
  type BulkProgressAction,
} from "@/pages/networks/besu-bulk";

const ev = (phase: string, done: number, total: number, message: string, networkName = "net"): BulkProgressAction => ({
  type: "event",
  data: { networkName, phase, done, total, message },
});

function run(...actions: BulkProgressAction[]): BulkProgress {
  return actions.reduce(bulkProgressReducer, BULK_IDLE);
}

const states = (s: BulkProgress) => bulkSteps(s).map((x) => `${x.key}:${x.state}`);

describe("toBulkCreateBody", () => {
  it("parses numbers, trims, drops empties and keys alloc by address", () => {
    const body = toBulkCreateBody({
      ...BULK_FORM_DEFAULTS,
      networkName: " net ",
      nodeCount: "2",
      chainId: "4242",
      gasLimit: "",
      start: false,
      alloc: [
        { address: "0x" + "a".repeat(40), balance: "" },
        { address: " ", balance: "5" },
      ],
    });
    expect(body).toEqual({
      networkName: "net",
      nodeCount: 2,
      config: {
        consensus: "qbft",
        chainId: 4242,
        blockPeriod: 5,
        epochLength: 30000,
        requestTimeout: 10,
        alloc: { ["0x" + "a".repeat(40)]: { balance: "0" } },
      },
      start: false,
    });
  });

  it("sends description and external IP only when given", () => {
    const body = toBulkCreateBody({
      ...BULK_FORM_DEFAULTS,
      networkName: "n",
      description: " d ",
      externalIp: "10.0.0.1",
    });
    expect(body.description).toBe("d");
    expect(body.externalIp).toBe("10.0.0.1");
    expect(body.config.gasLimit).toBe("0x29b92700");
  });
});

describe("bulk progress from events", () => {
  it("ignores malformed events, other networks and events before start", () => {
    expect(parseProgress({ networkName: "x", phase: "nope" })).toBeUndefined();
    expect(parseProgress(null)).toBeUndefined();
    expect(run(ev("keys", 1, 2, "k"))).toEqual(BULK_IDLE);
    const s = run({ type: "start", networkName: "net", total: 2 }, ev("keys", 1, 2, "k", "other"), {
      type: "event",
      data: "junk",
    });
    expect(s.keys).toBe(0);
    expect(s.messages).toEqual([]);
  });

  it("counts keys, then the network, then nodes, with the messages in order", () => {
    const start: BulkProgressAction = { type: "start", networkName: "net", total: 2 };
    expect(states(run(start))).toEqual(["keys:running", "network:pending", "nodes:pending"]);
    const mid = run(start, ev("keys", 1, 2, "validator key 1 of 2"));
    expect(bulkSteps(mid)[0]!.label).toBe("Validator keys 1/2");
    expect(states(mid)).toEqual(["keys:running", "network:pending", "nodes:pending"]);
    const net = run(start, ev("keys", 1, 2, "a"), ev("keys", 2, 2, "b"), ev("network", 1, 1, "c"));
    expect(states(net)).toEqual(["keys:done", "network:done", "nodes:running"]);
    const nodes = run(
      start,
      ev("keys", 1, 2, "a"),
      ev("keys", 2, 2, "b"),
      ev("network", 1, 1, "c"),
      ev("nodes", 1, 2, "d"),
    );
    expect(bulkSteps(nodes)[2]!.label).toBe("Nodes 1/2");
    expect(nodes.messages.map((m) => m.message)).toEqual(["a", "b", "c", "d"]);
    const done = bulkProgressReducer(nodes, { type: "succeeded" });
    expect(done.status).toBe("done");
    expect(states(done)).toEqual(["keys:done", "network:done", "nodes:done"]);
    expect(bulkSteps(done)[2]!.label).toBe("Nodes 2/2");
  });

  it("marks the step that failed, keeps the server's message and notes the rollback", () => {
    const s = run(
      { type: "start", networkName: "net", total: 2 },
      ev("keys", 1, 2, "a"),
      ev("keys", 2, 2, "b"),
      ev("failed", 0, 2, "config.chainId: chain id 1337 is already used"),
      ev("rolled_back", 0, 2, "everything created by this request was removed"),
    );
    expect(s.status).toBe("failed");
    expect(s.rolledBack).toBe(true);
    expect(s.error).toBe("config.chainId: chain id 1337 is already used");
    expect(states(s)).toEqual(["keys:done", "network:failed", "nodes:pending"]);
    // The HTTP error arriving later keeps the event's message unless it has its own.
    const after = bulkProgressReducer(s, { type: "failed", error: "chain id taken" });
    expect(after.error).toBe("chain id taken");
    expect(after.rolledBack).toBe(true);
  });

  it("fails without any event (e.g. a 400 before the flow starts)", () => {
    const s = run({ type: "start", networkName: "net", total: 3 }, { type: "failed", error: "nodeCount: too big" });
    expect(states(s)).toEqual(["keys:failed", "network:pending", "nodes:pending"]);
    expect(run({ type: "start", networkName: "n", total: 1 }, { type: "reset" })).toEqual(BULK_IDLE);
  });
});

describe("bulkOutcome", () => {
  const n = (name: string, status: string, errorMessage?: string) => ({ name, status, errorMessage });
  it("is ready only when every node runs", () => {
    expect(bulkOutcome("net", [n("a", "RUNNING"), n("b", "RUNNING")], true)).toEqual({
      tone: "ready",
      text: "net is ready.",
    });
    expect(bulkOutcome("net", [n("a", "RUNNING"), n("b", "STARTING")], true).tone).toBe("starting");
  });
  it("never says ready while a node is in ERROR, and names it with its message", () => {
    const o = bulkOutcome("net", [n("a", "RUNNING"), n("b", "ERROR", "besu binary not found")], true);
    expect(o.tone).toBe("error");
    expect(o.text).toBe("net was created, but 1 of 2 nodes is in ERROR (b: besu binary not found).");
  });
  it("says nodes created with start off are not started", () => {
    expect(bulkOutcome("net", [n("a", "STOPPED")], false).tone).toBe("not-started");
  });
});
