import { QueryClient, QueryClientProvider, type QueryKey } from "@tanstack/react-query";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter, Route, Routes } from "react-router";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/api/errors";
import { authKeys } from "@/data/auth/keys";
import { externalNodeKeys } from "@/data/external-nodes/keys";
import type { ExternalOrganization } from "@/data/external-nodes/types";
import { federationKeys } from "@/data/federation/keys";
import type { ConnectedPeer, FederationIdentity, PeerNodes } from "@/data/federation/types";
import { ConnectionPage } from "@/pages/connect/ConnectionPage";
import { ConnectPage } from "@/pages/connect/ConnectPage";
import { ExternalNodesPage } from "@/pages/external-nodes/ExternalNodesPage";

type Seed = (qc: QueryClient) => void;

const identity: FederationIdentity = { node_id: "cl-aaaa", public_key: "PUBKEY", endpoint: "http://a.example" };
const peer: ConnectedPeer = {
  id: 7,
  node_id: "cl-bbbb",
  peer_endpoint: "http://b.example",
  peer_public_key: "BKEY",
  status: "connected",
  metrics_federation: false,
  peer_grants_metrics: null,
  analytics_enabled: false,
  last_seen_at: null,
  last_error: null,
};
const org: ExternalOrganization = {
  id: 3,
  externalNodeId: 7,
  mspId: "Org2MSP",
  name: "Org2",
  signCertificate: "",
  tlsCertificate: "",
};

const user =
  (role: "admin" | "viewer"): Seed =>
  (qc) =>
    qc.setQueryData(authKeys.me(), { id: 1, username: role, role });

function fail(qc: QueryClient, queryKey: QueryKey): void {
  qc.getQueryCache()
    .build(qc, { queryKey })
    .setState({ status: "error", error: new ApiError(500, "INTERNAL", "database is locked"), fetchStatus: "idle" });
}

/** The screen's text (with aria-labels, as a screen reader hears them) at `path`, with the cache seeded (nothing is fetched during a static render). */
function render(el: ReactElement, route: string, path: string, ...seeds: Seed[]): string {
  const qc = new QueryClient({
    defaultOptions: { queries: { retry: false, retryOnMount: false, staleTime: Infinity } },
  });
  for (const s of seeds) s(qc);
  return renderToStaticMarkup(
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={el} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  )
    .replace(/aria-label="([^"]*)"/g, "> $1 <")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ");
}

const connect = (...seeds: Seed[]): string => render(<ConnectPage />, "/connect", "/connect", ...seeds);
const connection = (...seeds: Seed[]): string =>
  render(<ConnectionPage />, "/connect/:id", "/connect/cl-bbbb", ...seeds);
const external = (...seeds: Seed[]): string =>
  render(<ExternalNodesPage />, "/external-nodes", "/external-nodes", ...seeds);

describe("Connect screen", () => {
  it("shows loading, then the identity and the empty list", () => {
    expect(connect(user("admin"))).toContain("Loading");
    const text = connect(user("admin"), (qc) => {
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
    const text = connect(user("admin"), (qc) =>
      qc.setQueryData(federationKeys.identity(), { ...identity, endpoint: null }),
    );
    expect(text).toContain("No endpoint is set");
    expect(text).toContain("Set an endpoint first.");
  });

  it("lists connections with their status, and hides the invitations from viewers", () => {
    const text = connect(user("viewer"), (qc) => {
      qc.setQueryData(federationKeys.identity(), identity);
      qc.setQueryData(federationKeys.peers(), [peer, { ...peer, id: 8, node_id: "cl-cccc", status: "revoked" }]);
    });
    expect(text).toContain("cl-bbbb");
    expect(text).toContain("Connected");
    expect(text).toContain("Revoked");
    expect(text).not.toContain("Generate invitation");
    expect(text).not.toContain("Accept invitation");
  });

  it("shows the server's error", () => {
    const text = connect(user("admin"), (qc) => fail(qc, federationKeys.peers()));
    expect(text).toContain("database is locked");
  });
});

describe("Connection screen", () => {
  const nodes: PeerNodes = { organizations: [org], fabric_peers: [], fabric_orderers: [], besu_nodes: [] };

  it("shows loading, not found and errors", () => {
    expect(connection(user("admin"))).toContain("Loading");
    expect(connection(user("admin"), (qc) => qc.setQueryData(federationKeys.peers(), []))).toContain("not found");
    expect(connection(user("admin"), (qc) => fail(qc, federationKeys.peers()))).toContain("database is locked");
  });

  it("shows the connection, its live nodes and the actions for operators", () => {
    const text = connection(user("admin"), (qc) => {
      qc.setQueryData(federationKeys.peers(), [peer]);
      qc.setQueryData(federationKeys.peerNodes("cl-bbbb"), nodes);
    });
    expect(text).toContain("http://b.example");
    expect(text).toContain("Org2MSP");
    expect(text).toContain("Sync external nodes");
    expect(text).toContain("Disconnect");
  });

  it("shows its empty and error states, and no actions for viewers or revoked connections", () => {
    const empty = connection(user("viewer"), (qc) => {
      qc.setQueryData(federationKeys.peers(), [peer]);
      qc.setQueryData(federationKeys.peerNodes("cl-bbbb"), { ...nodes, organizations: [] });
    });
    expect(empty).toContain("It has no organizations or nodes yet");
    expect(empty).not.toContain("Sync external nodes");
    const failed = connection(user("admin"), (qc) => {
      qc.setQueryData(federationKeys.peers(), [peer]);
      fail(qc, federationKeys.peerNodes("cl-bbbb"));
    });
    expect(failed).toContain("database is locked");
    const revoked = connection(user("admin"), (qc) =>
      qc.setQueryData(federationKeys.peers(), [{ ...peer, status: "revoked", last_error: "disconnected by cl-bbbb" }]),
    );
    expect(revoked).toContain("This connection is revoked");
    expect(revoked).toContain("disconnected by cl-bbbb");
    expect(revoked).not.toContain("Sync external nodes");
  });
});

describe("External Nodes screen", () => {
  it("shows loading, empty, error and rows with their source", () => {
    expect(external(user("admin"))).toContain("Loading");
    expect(
      external(user("admin"), (qc) => qc.setQueryData(externalNodeKeys.list("fabric-organizations"), [])),
    ).toContain("No external organizations");
    expect(external(user("admin"), (qc) => fail(qc, externalNodeKeys.list("fabric-organizations")))).toContain(
      "database is locked",
    );
    const text = external(user("admin"), (qc) => {
      qc.setQueryData(externalNodeKeys.list("fabric-organizations"), [org]);
      qc.setQueryData(federationKeys.peers(), [peer]);
    });
    expect(text).toContain("Org2MSP");
    expect(text).toContain("cl-bbbb");
    expect(text).toContain("Organizations (1)");
  });

  it("offers delete to operators only", () => {
    const seed: Seed = (qc) => qc.setQueryData(externalNodeKeys.list("fabric-organizations"), [org]);
    expect(render(<ExternalNodesPage />, "/external-nodes", "/external-nodes", user("admin"), seed)).toContain(
      "Delete Org2MSP",
    );
    expect(render(<ExternalNodesPage />, "/external-nodes", "/external-nodes", user("viewer"), seed)).not.toContain(
      "Delete Org2MSP",
    );
  });
});
