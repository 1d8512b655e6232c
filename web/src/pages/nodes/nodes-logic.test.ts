import { describe, expect, it } from "vitest";
import { ApiError } from "@/api/errors";
import { allowedActions, hasTransientNode, isTransientStatus, nodeStatusDot } from "@/data/nodes/node-status";
import { formatEther, latestBlockNumbers, quorumWarning, toBigInt } from "@/pages/nodes/besu-rpc";
import {
  FABRIC_FORM_EMPTY,
  suggestName,
  toCreateFabricBody,
  validHostPort,
  valuesFromNode,
} from "@/pages/nodes/fabric-form";
import { bulkReducer, bulkSummary, pendingRows } from "@/pages/nodes/bulk-progress";
import { healthBars } from "@/pages/nodes/health";
import { appendChunk, EMPTY_LOG, lineLevel, visibleLines } from "@/pages/nodes/log-buffer";

describe("node status", () => {
  it("colours dots per spec", () => {
    expect(nodeStatusDot("RUNNING")).toBe("bg-green-500");
    expect(nodeStatusDot("STOPPED")).toBe("bg-gray-400");
    expect(nodeStatusDot("ERROR")).toBe("bg-red-500");
    for (const s of ["STARTING", "STOPPING", "PENDING"]) expect(nodeStatusDot(s)).toBe("bg-yellow-500");
  });

  it("polls only while a node is changing state", () => {
    expect(isTransientStatus("STARTING")).toBe(true);
    expect(isTransientStatus("RUNNING")).toBe(false);
    expect(hasTransientNode([{ status: "RUNNING" }, { status: "PENDING" }])).toBe(true);
    expect(hasTransientNode([{ status: "RUNNING" }, { status: "ERROR" }])).toBe(false);
  });

  it("offers the actions that make sense", () => {
    expect(allowedActions("RUNNING")).toEqual({ start: false, stop: true, restart: true });
    expect(allowedActions("STOPPED")).toEqual({ start: true, stop: false, restart: false });
    expect(allowedActions("ERROR")).toEqual({ start: true, stop: true, restart: true });
    expect(allowedActions("STOPPING")).toEqual({ start: false, stop: false, restart: false });
  });
});

describe("log buffer", () => {
  it("splits chunks into lines and keeps a partial line until its newline", () => {
    let b = appendChunk(EMPTY_LOG, "one\ntw");
    expect(b.lines).toEqual(["one"]);
    expect(visibleLines(b)).toEqual(["one", "tw"]);
    b = appendChunk(b, "o\r\nthree\n");
    expect(b.lines).toEqual(["one", "two", "three"]);
    expect(b.partial).toBe("");
  });

  it("drops the oldest lines past the cap and counts them", () => {
    let b = EMPTY_LOG;
    for (let i = 0; i < 10; i++) b = appendChunk(b, `l${i}\n`, 4);
    expect(b.lines).toEqual(["l6", "l7", "l8", "l9"]);
    expect(b.dropped).toBe(6);
  });

  it("classifies Fabric and Besu levels", () => {
    expect(lineLevel("2026-01-01 UTC ERRO [peer] boom")).toBe("error");
    expect(lineLevel("2026-01-01 | main | WARN | x")).toBe("warn");
    expect(lineLevel("2026-01-01 UTC INFO [nodeCmd] Started peer")).toBe("info");
  });
});

describe("Fabric form", () => {
  it("builds a peer body with the chaincode address and split domain names", () => {
    const body = toCreateFabricBody(
      {
        ...FABRIC_FORM_EMPTY,
        name: " peer0 ",
        organizationId: "3",
        listenAddress: "0.0.0.0:7051",
        chaincodeAddress: "0.0.0.0:7052",
        operationsListenAddress: "0.0.0.0:9443",
        externalEndpoint: "127.0.0.1:7051",
        domainNames: "a.example.com, 10.0.0.1  b",
      },
      "Org1MSP",
    );
    expect(body.name).toBe("peer0");
    expect(body.fabricPeer).toMatchObject({
      organizationId: 3,
      mspId: "Org1MSP",
      chaincodeAddress: "0.0.0.0:7052",
      domainNames: ["a.example.com", "10.0.0.1", "b"],
    });
    expect(body.fabricPeer).not.toHaveProperty("version");
    expect(body.fabricOrderer).toBeUndefined();
  });

  it("builds an orderer body with the admin address", () => {
    const body = toCreateFabricBody(
      { ...FABRIC_FORM_EMPTY, kind: "orderer", name: "o", organizationId: "1", adminAddress: "0.0.0.0:7053" },
      "OrdererMSP",
    );
    expect(body.fabricOrderer).toMatchObject({ adminAddress: "0.0.0.0:7053" });
    expect(body.fabricPeer).toBeUndefined();
  });

  it("checks host:port and suggests names", () => {
    expect(validHostPort("0.0.0.0:7051")).toBe(true);
    expect(validHostPort("[::1]:7051")).toBe(true);
    expect(validHostPort("peer0:99999")).toBe(false);
    expect(validHostPort("7051")).toBe(false);
    expect(suggestName("peer", "Org1MSP")).toBe("peer0-org1");
    expect(suggestName("orderer", "OrdererMSP", 2)).toBe("orderer2-orderer");
  });

  it("reads an existing orderer back into the form", () => {
    const v = valuesFromNode({
      id: 1,
      name: "o1",
      platform: "FABRIC",
      nodeType: "FABRIC_ORDERER",
      status: "RUNNING",
      endpoint: "127.0.0.1:7050",
      createdAt: "",
      updatedAt: "",
      fabricOrderer: {
        organizationId: 2,
        mspId: "OrdererMSP",
        listenAddress: "0.0.0.0:7050",
        externalEndpoint: "127.0.0.1:7050",
        operationsAddress: "0.0.0.0:8443",
        domainNames: ["o1.example.com"],
        mode: "service",
        version: "3.1.0",
        signKeyId: 1,
        tlsKeyId: 2,
        signCert: "",
        tlsCert: "",
        signCaCert: "",
        tlsCaCert: "",
        adminAddress: "0.0.0.0:7053",
      },
    });
    expect(v).toMatchObject({ kind: "orderer", organizationId: "2", adminAddress: "0.0.0.0:7053", version: "3.1.0" });
    expect(v.domainNames).toBe("o1.example.com");
  });
});

describe("Besu RPC helpers", () => {
  it("reads the quorum warning of a refused vote", () => {
    const e = new ApiError(
      400,
      "BAD_REQUEST",
      "vote: with 3 validator(s) the network tolerates 0 faulty validator(s); one more failure loses the 2/3 quorum; send force: true to cast it anyway",
    );
    expect(quorumWarning(e)).toBe(
      "With 3 validator(s) the network tolerates 0 faulty validator(s); one more failure loses the 2/3 quorum",
    );
    expect(quorumWarning(new ApiError(400, "BAD_REQUEST", "validatorAddress: bad"))).toBeUndefined();
    expect(quorumWarning(new ApiError(502, "BAD_GATEWAY", "vote: x"))).toBeUndefined();
  });

  it("formats wei and lists latest blocks", () => {
    expect(formatEther(toBigInt("0xde0b6b3a7640000"))).toBe("1 ETH");
    expect(formatEther(1500000000000000000n)).toBe("1.5 ETH");
    expect(latestBlockNumbers(2, 10)).toEqual([2, 1, 0]);
    expect(latestBlockNumbers(100, 3)).toEqual([100, 99, 98]);
  });

  it("orders health bars oldest first and keeps the newest", () => {
    const bars = healthBars(
      [
        { checkedAt: "2026-01-01T00:02:00Z", status: "healthy", responseTimeMs: 2 },
        { checkedAt: "2026-01-01T00:00:00Z", status: "unreachable", responseTimeMs: 0 },
        { checkedAt: "2026-01-01T00:01:00Z", status: "healthy", responseTimeMs: 1 },
      ],
      2,
    );
    expect(bars.map((b) => b.ms)).toEqual([1, 2]);
  });
});

describe("bulk progress", () => {
  const body = { name: "x", blockchainPlatform: "FABRIC" as const };
  const planned = [
    { key: "peer-0", kind: "peer" as const, name: "peer0-org1", body },
    { key: "peer-1", kind: "peer" as const, name: "peer1-org1", body },
    { key: "orderer-0", kind: "orderer" as const, name: "orderer0-org1", body },
  ];

  it("moves rows through creating → done/failed and retries only the failed one", () => {
    let rows = bulkReducer([], { type: "plan", rows: planned });
    expect(pendingRows(rows).map((r) => r.key)).toEqual(["peer-0", "peer-1", "orderer-0"]);
    rows = bulkReducer(rows, { type: "creating", key: "peer-0" });
    rows = bulkReducer(rows, { type: "done", key: "peer-0", nodeId: 7 });
    rows = bulkReducer(rows, { type: "creating", key: "peer-1" });
    rows = bulkReducer(rows, { type: "failed", key: "peer-1", error: "port taken" });
    rows = bulkReducer(rows, { type: "done", key: "orderer-0", nodeId: 8 });
    expect(bulkSummary(rows)).toEqual({ pending: 0, creating: 0, done: 2, failed: 1 });
    expect(pendingRows(rows)).toEqual([]);
    rows = bulkReducer(rows, { type: "creating", key: "peer-1" });
    expect(rows.find((r) => r.key === "peer-1")).toMatchObject({ state: "creating", error: undefined });
    rows = bulkReducer(rows, { type: "done", key: "peer-1", nodeId: 9 });
    expect(rows.map((r) => r.nodeId)).toEqual([7, 9, 8]);
    expect(bulkReducer(rows, { type: "reset" })).toEqual([]);
  });
});
