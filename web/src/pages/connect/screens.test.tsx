import { describe, expect, it } from "vitest";
import { externalNodeKeys } from "@/data/external-nodes/keys";
import type { ExternalOrganization } from "@/data/external-nodes/types";
import { federationKeys } from "@/data/federation/keys";
import type { FederationIdentity, PeerNodes } from "@/data/federation/types";
import { ConnectionPage } from "@/pages/connect/ConnectionPage";
import { ConnectPage } from "@/pages/connect/ConnectPage";
import { ExternalNodesPage } from "@/pages/external-nodes/ExternalNodesPage";
import { peerB } from "@/test-support/federation-fixtures";
import { asRole, failing, screenText, type Seed } from "@/test-support/static-screen";

const identity: FederationIdentity = { node_id: "cl-aaaa", public_key: "PUBKEY", endpoint: "http://a.example" };
const org: ExternalOrganization = {
  id: 3,
  externalNodeId: 7,
  mspId: "Org2MSP",
  name: "Org2",
  signCertificate: "",
  tlsCertificate: "",
};

const connect = (...seeds: Seed[]): string => screenText(<ConnectPage />, "/connect", "/connect", ...seeds);
const connection = (...seeds: Seed[]): string =>
  screenText(<ConnectionPage />, "/connect/:id", "/connect/cl-bbbb", ...seeds);
const external = (...seeds: Seed[]): string =>
  screenText(<ExternalNodesPage />, "/external-nodes", "/external-nodes", ...seeds);

describe("Connect screen", () => {
  it("shows loading, then the identity and the empty list", () => {
    expect(connect(asRole("admin"))).toContain("Loading");
    const text = connect(asRole("admin"), (qc) => {
      qc.setQueryData(federationKeys.identity(), identity);
      qc.setQueryData(federationKeys.peers(), []);
    });
    expect(text).toContain("cl-aaaa");
    expect(text).toContain("http://a.example");
    expect(text).toContain("Generate invitation");
    expect(text).toContain("Accept invitation");
    expect(text).toContain("No connected instances yet");
  });

  it("says where to set a missing endpoint", () => {
    const text = connect(asRole("admin"), (qc) =>
      qc.setQueryData(federationKeys.identity(), { ...identity, endpoint: null }),
    );
    expect(text).toContain("No endpoint is set");
    expect(text).toContain("Set an endpoint first.");
  });

  it("lists connections with their status, and hides the invitations from viewers", () => {
    const text = connect(asRole("viewer"), (qc) => {
      qc.setQueryData(federationKeys.identity(), identity);
      qc.setQueryData(federationKeys.peers(), [peerB, { ...peerB, id: 8, node_id: "cl-cccc", status: "revoked" }]);
    });
    expect(text).toContain("cl-bbbb");
    expect(text).toContain("Connected");
    expect(text).toContain("Revoked");
    expect(text).not.toContain("Generate invitation");
    expect(text).not.toContain("Accept invitation");
  });

  it("shows the server's error", () => {
    const text = connect(asRole("admin"), (qc) => failing(federationKeys.peers())(qc));
    expect(text).toContain("database is locked");
  });
});

describe("Connection screen", () => {
  const nodes: PeerNodes = { organizations: [org], fabric_peers: [], fabric_orderers: [], besu_nodes: [] };

  it("shows loading, not found and errors", () => {
    expect(connection(asRole("admin"))).toContain("Loading");
    expect(connection(asRole("admin"), (qc) => qc.setQueryData(federationKeys.peers(), []))).toContain("not found");
    expect(connection(asRole("admin"), (qc) => failing(federationKeys.peers())(qc))).toContain("database is locked");
  });

  it("shows the connection, its live nodes and the actions for operators", () => {
    const text = connection(asRole("admin"), (qc) => {
      qc.setQueryData(federationKeys.peers(), [peerB]);
      qc.setQueryData(federationKeys.peerNodes("cl-bbbb"), nodes);
    });
    expect(text).toContain("http://b.example");
    expect(text).toContain("Org2MSP");
    expect(text).toContain("Sync external nodes");
    expect(text).toContain("Disconnect");
  });

  it("shows its empty and error states, and no actions for viewers or revoked connections", () => {
    const empty = connection(asRole("viewer"), (qc) => {
      qc.setQueryData(federationKeys.peers(), [peerB]);
      qc.setQueryData(federationKeys.peerNodes("cl-bbbb"), { ...nodes, organizations: [] });
    });
    expect(empty).toContain("It has no organizations or nodes yet");
    expect(empty).not.toContain("Sync external nodes");
    const failed = connection(asRole("admin"), (qc) => {
      qc.setQueryData(federationKeys.peers(), [peerB]);
      failing(federationKeys.peerNodes("cl-bbbb"))(qc);
    });
    expect(failed).toContain("database is locked");
    const revoked = connection(asRole("admin"), (qc) =>
      qc.setQueryData(federationKeys.peers(), [{ ...peerB, status: "revoked", last_error: "disconnected by cl-bbbb" }]),
    );
    expect(revoked).toContain("This connection is revoked");
    expect(revoked).toContain("disconnected by cl-bbbb");
    expect(revoked).not.toContain("Sync external nodes");
  });
});

describe("External Nodes screen", () => {
  it("shows loading, empty, error and rows with their source", () => {
    expect(external(asRole("admin"))).toContain("Loading");
    expect(
      external(asRole("admin"), (qc) => qc.setQueryData(externalNodeKeys.list("fabric-organizations"), [])),
    ).toContain("No external organizations");
    expect(external(asRole("admin"), (qc) => failing(externalNodeKeys.list("fabric-organizations"))(qc))).toContain(
      "database is locked",
    );
    const text = external(asRole("admin"), (qc) => {
      qc.setQueryData(externalNodeKeys.list("fabric-organizations"), [org]);
      qc.setQueryData(federationKeys.peers(), [peerB]);
    });
    expect(text).toContain("Org2MSP");
    expect(text).toContain("cl-bbbb");
    expect(text).toContain("Organizations (1)");
  });

  it("offers delete to operators only", () => {
    const seed: Seed = (qc) => qc.setQueryData(externalNodeKeys.list("fabric-organizations"), [org]);
    expect(screenText(<ExternalNodesPage />, "/external-nodes", "/external-nodes", asRole("admin"), seed)).toContain(
      "Delete Org2MSP",
    );
    expect(
      screenText(<ExternalNodesPage />, "/external-nodes", "/external-nodes", asRole("viewer"), seed),
    ).not.toContain("Delete Org2MSP");
  });
});
