import { describe, expect, it } from "vitest";
import type { ConnectedPeer, SyncResult } from "@/data/federation/types";
import {
  isActive,
  parseExpiryHours,
  readInvitation,
  sourceNodeId,
  statusBadge,
  syncMessage,
  syncSummary,
} from "@/pages/connect/federation-view";

const zero: SyncResult = {
  organizations_added: 0,
  organizations_deleted: 0,
  fabric_peers_added: 0,
  fabric_peers_deleted: 0,
  fabric_orderers_added: 0,
  fabric_orderers_deleted: 0,
  besu_nodes_added: 0,
  besu_nodes_deleted: 0,
  errors: [],
};

function b64url(s: string): string {
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function peer(id: number, node_id: string, status: ConnectedPeer["status"] = "connected"): ConnectedPeer {
  return {
    id,
    node_id,
    peer_endpoint: "http://b.example",
    peer_public_key: "k",
    status,
    metrics_federation: false,
    peer_grants_metrics: null,
    analytics_enabled: false,
    last_seen_at: null,
    last_error: null,
  };
}

describe("statusBadge", () => {
  it("colours each status", () => {
    expect(statusBadge("connected")).toEqual({ label: "Connected", variant: "success" });
    expect(statusBadge("unreachable")).toEqual({ label: "Unreachable", variant: "warning" });
    expect(statusBadge("revoked")).toEqual({ label: "Revoked", variant: "destructive" });
  });
});

describe("parseExpiryHours", () => {
  it("accepts whole hours from 1 to 720", () => {
    expect(parseExpiryHours("24")).toEqual({ hours: 24 });
    expect(parseExpiryHours(" 1 ")).toEqual({ hours: 1 });
    expect(parseExpiryHours("720")).toEqual({ hours: 720 });
  });
  it("refuses anything else with a message", () => {
    for (const bad of ["", "0", "721", "1.5", "-3", "abc"]) expect(parseExpiryHours(bad)).toHaveProperty("error");
  });
});

describe("readInvitation", () => {
  const payload = { iss: "cl-abc", endpoint: "https://a.example", pub: "x", nonce: "n", iat: 1, exp: 1_800_000_000 };
  const jwt = `${b64url('{"alg":"EdDSA","typ":"JWT"}')}.${b64url(JSON.stringify(payload))}.sig`;

  it("reads issuer, endpoint and expiry", () => {
    expect(readInvitation(` ${jwt}\n`)).toEqual({
      issuer: "cl-abc",
      endpoint: "https://a.example",
      expiresAt: new Date(1_800_000_000_000),
    });
  });
  it("is undefined for text that is not an invitation", () => {
    expect(readInvitation("not a jwt")).toBeUndefined();
    expect(readInvitation("a.!!!.c")).toBeUndefined();
    expect(readInvitation(`x.${b64url('{"iss":"cl-abc"}')}.y`)).toBeUndefined();
  });
});

describe("sync summary", () => {
  it("lists only the kinds that changed", () => {
    const r = { ...zero, organizations_added: 1, fabric_orderers_added: 2, besu_nodes_deleted: 1 };
    expect(syncSummary(r)).toEqual([
      "Organizations: 1 added, 0 deleted",
      "Orderers: 2 added, 0 deleted",
      "Besu nodes: 0 added, 1 deleted",
    ]);
  });
  it("says when nothing changed and counts failed entries", () => {
    expect(syncMessage(zero)).toBe("Nothing added or deleted");
    expect(syncMessage({ ...zero, fabric_peers_added: 1, errors: ["a", "b"] })).toBe(
      "Peers: 1 added, 0 deleted. 2 entries could not be stored.",
    );
  });
});

describe("connections", () => {
  it("finds the node id of a record's connection", () => {
    const peers = [peer(1, "cl-one"), peer(2, "cl-two")];
    expect(sourceNodeId(2, peers)).toBe("cl-two");
    expect(sourceNodeId(3, peers)).toBeUndefined();
    expect(sourceNodeId(1, undefined)).toBeUndefined();
  });
  it("treats only revoked connections as inactive", () => {
    expect(isActive(peer(1, "a", "unreachable"))).toBe(true);
    expect(isActive(peer(1, "a", "revoked"))).toBe(false);
  });
});
