import { QueryClient } from "@tanstack/react-query";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { FabricNodeDefaults, NodeInfo, OrganizationPage } from "@/api/client";
import { ORGANIZATION_LIST_LIMIT } from "@/app/constants";
import { nodeKeys } from "@/data/nodes/keys";
import { organizationKeys } from "@/data/organizations/keys";
import { formErrorsFrom } from "@/lib/field-errors";
import {
  FABRIC_FORM_EMPTY,
  FABRIC_FORM_FIELDS,
  runtimeLabel,
  toCreateFabricBody,
  valuesFromNode,
  type FabricFormValues,
} from "@/pages/nodes/fabric-form";
import { asRole, screenHtml, screenText, seed } from "@/test-support/static-screen";

// The typed client takes fetch when it is created, so the stand-in goes in before any import runs.
const http = await vi.hoisted(async () => (await import("@/test-support/fetch-mock")).installFetchMock());
const { fabricDefaultsOptions } = await import("@/data/nodes/node-query");
const { createNode } = await import("@/data/nodes/node-mutations");
const { FabricNodeCreatePage } = await import("@/pages/nodes/FabricNodeCreatePage");
const { NodeDetailPage } = await import("@/pages/nodes/NodeDetailPage");

beforeEach(() => http.reset());

const proposal = (host: string, mode: "service" | "docker"): FabricNodeDefaults => ({
  listenAddress: "0.0.0.0:17051",
  externalEndpoint: `${host}:17051`,
  operationsListenAddress: "0.0.0.0:17443",
  chaincodeAddress: "0.0.0.0:17052",
  adminAddress: "",
  eventsAddress: "",
  mode,
  serviceName: "",
  containerName: "",
  logPath: "",
  errorLogPath: "",
});

const filled: FabricFormValues = {
  ...FABRIC_FORM_EMPTY,
  name: "peer0-org1",
  organizationId: "3",
  listenAddress: "0.0.0.0:17051",
  chaincodeAddress: "0.0.0.0:17052",
  operationsListenAddress: "0.0.0.0:17443",
  externalEndpoint: "192.168.1.20:17051",
};

const orgs: OrganizationPage = {
  items: [{ id: 3, mspId: "Org1MSP", description: "", createdAt: "", updatedAt: "" }],
  total: 1,
  limit: ORGANIZATION_LIST_LIMIT,
  offset: 0,
} as unknown as OrganizationPage;

describe("Fabric node runtime: defaults", () => {
  it("asks for container defaults with mode=docker, and process defaults as before", async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    http.respond("GET", "/nodes/defaults/fabric-peer", 200, proposal("127.0.0.1", "service"));
    http.respond("GET", "/nodes/defaults/fabric", 200, {
      peers: [proposal("192.168.1.20", "docker")],
      orderers: [],
      availableAddresses: [],
    });

    const process = await qc.fetchQuery(fabricDefaultsOptions("peer", "service"));
    expect(process.externalEndpoint).toBe("127.0.0.1:17051");
    const docker = await qc.fetchQuery(fabricDefaultsOptions("peer", "docker"));
    expect(docker).toMatchObject({ externalEndpoint: "192.168.1.20:17051", mode: "docker" });

    expect(http.calls.map((c) => [c.method, c.path, c.query])).toEqual([
      ["GET", "/nodes/defaults/fabric-peer", ""],
      ["GET", "/nodes/defaults/fabric", "peerCount=1&ordererCount=0&mode=docker"],
    ]);
  });

  it("asks for one orderer's container defaults", async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const orderer = { ...proposal("192.168.1.20", "docker"), chaincodeAddress: "", adminAddress: "0.0.0.0:17053" };
    http.respond("GET", "/nodes/defaults/fabric", 200, { peers: [], orderers: [orderer], availableAddresses: [] });
    await expect(qc.fetchQuery(fabricDefaultsOptions("orderer", "docker"))).resolves.toMatchObject({
      adminAddress: "0.0.0.0:17053",
    });
    expect(http.calls[0]?.query).toBe("peerCount=0&ordererCount=1&mode=docker");
  });

  it("keys the defaults by runtime, so choosing Docker fetches new ones", () => {
    const process = fabricDefaultsOptions("peer", "service");
    const docker = fabricDefaultsOptions("peer", "docker");
    expect(process.queryKey).toEqual(nodeKeys.defaults("peer", "service"));
    expect(docker.queryKey).not.toEqual(process.queryKey);
    // Never served from cache: the proposed ports may be taken by then.
    expect(docker.gcTime).toBe(0);
    expect(docker.staleTime).toBe(0);
  });
});

describe("Fabric node runtime: create", () => {
  it("sends mode docker for a container peer or orderer, service by default", async () => {
    expect(toCreateFabricBody(filled, "Org1MSP").fabricPeer?.mode).toBe("service");
    const orderer = toCreateFabricBody(
      { ...filled, kind: "orderer", runtime: "docker", adminAddress: "0.0.0.0:17053" },
      "Org1MSP",
    );
    expect(orderer.fabricOrderer).toMatchObject({ mode: "docker", adminAddress: "0.0.0.0:17053" });

    const body = toCreateFabricBody({ ...filled, runtime: "docker" }, "Org1MSP");
    http.respond("POST", "/nodes", 201, { id: 9, name: "peer0-org1" });
    await expect(createNode({ body })).resolves.toMatchObject({ id: 9 });
    expect(http.calls).toHaveLength(1);
    expect(http.calls[0]).toMatchObject({ method: "POST", path: "/nodes", query: "start=true" });
    expect(http.calls[0]?.body).toMatchObject({
      name: "peer0-org1",
      blockchainPlatform: "FABRIC",
      fabricPeer: { mode: "docker", externalEndpoint: "192.168.1.20:17051", organizationId: 3, mspId: "Org1MSP" },
    });
  });

  it("puts the server's no-engine answer on the runtime field", async () => {
    const message =
      'fabricPeer.mode: docker: the Docker engine "local" at unix:///var/run/docker.sock does not answer (connect ENOENT); start dockerd or choose mode "service"';
    http.respond("POST", "/nodes", 400, {
      error: "INVALID_INPUT",
      message,
      details: { field: "fabricPeer.mode" },
      requestId: "r",
    });
    const err = await createNode({ body: toCreateFabricBody({ ...filled, runtime: "docker" }, "Org1MSP") }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ status: 400, message });
    expect(formErrorsFrom(err, FABRIC_FORM_FIELDS)).toEqual({ runtime: message.replace("fabricPeer.mode: ", "") });
  });
});

describe("Fabric node runtime: screens", () => {
  const route = "/nodes/fabric/create";

  it("offers Process (chosen) and Docker container as a labelled radio group", () => {
    const seeds = [
      asRole("admin"),
      seed(organizationKeys.list(ORGANIZATION_LIST_LIMIT, 0), orgs),
      seed(nodeKeys.defaults("peer", "service"), proposal("127.0.0.1", "service")),
    ];
    const html = screenHtml(<FabricNodeCreatePage />, route, `${route}?type=peer`, ...seeds);
    const group = /<div role="radiogroup" aria-labelledby="fabric-runtime-label"[^>]*>(.*?)<\/div>/s.exec(html)?.[1];
    expect(group).toBeDefined();
    expect(group).toMatch(/role="radio" aria-checked="true"[^>]*><span[^>]*>Process</);
    expect(group).toMatch(/role="radio" aria-checked="false"[^>]*><span[^>]*>Docker container</);
    expect(html).toContain('id="fabric-runtime-label"');
    expect(screenText(<FabricNodeCreatePage />, route, route, ...seeds)).toContain(
      "A container on the console's Docker engine.",
    );
  });

  it("shows a node's runtime on its page and keeps it in the edit form", () => {
    const node = {
      id: 4,
      name: "peer0-org1",
      platform: "FABRIC",
      nodeType: "FABRIC_PEER",
      status: "RUNNING",
      endpoint: "192.168.1.20:17051",
      createdAt: "2026-01-01T00:00:00Z",
      updatedAt: "2026-01-01T00:00:00Z",
      fabricPeer: {
        organizationId: 3,
        mspId: "Org1MSP",
        listenAddress: "0.0.0.0:17051",
        externalEndpoint: "192.168.1.20:17051",
        operationsAddress: "0.0.0.0:17443",
        chaincodeAddress: "0.0.0.0:17052",
        domainNames: [],
        mode: "docker",
        version: "3.1.0",
        signKeyId: 1,
        tlsKeyId: 2,
        signCert: "",
        tlsCert: "",
        signCaCert: "",
        tlsCaCert: "",
      },
    } as unknown as NodeInfo;
    const text = screenText(
      <NodeDetailPage />,
      "/nodes/:id",
      "/nodes/4",
      asRole("admin"),
      seed(nodeKeys.detail(4), node),
    );
    expect(text).toMatch(/Runtime\s+Docker container/);
    expect(valuesFromNode(node).runtime).toBe("docker");
    expect(runtimeLabel("service")).toBe("Process");
  });
});
