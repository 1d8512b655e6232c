import type { ReactElement } from "react";
import { useForm, type FieldErrors } from "react-hook-form";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { NodeInfo } from "@/api/client";
import type { DockerEngine } from "@/data/docker-engines/types";
import { formErrorsFrom } from "@/lib/field-errors";
import {
  FABRIC_FORM_EMPTY,
  FABRIC_FORM_FIELDS,
  defaultEngineName,
  engineLabel,
  toCreateFabricBody,
  valuesFromNode,
  type FabricFormValues,
} from "@/pages/nodes/fabric-form";
import { FabricNodeForm } from "@/pages/nodes/FabricNodeForm";
import { screenHtml, screenText } from "@/test-support/static-screen";

// The typed client takes fetch when it is created, so the stand-in goes in before any import runs.
const http = await vi.hoisted(async () => (await import("@/test-support/fetch-mock")).installFetchMock());
const { createNode } = await import("@/data/nodes/node-mutations");
const { fetchDockerEngines } = await import("@/data/docker-engines/docker-engines-query");

beforeEach(() => http.reset());

const filled: FabricFormValues = {
  ...FABRIC_FORM_EMPTY,
  name: "peer0-org1",
  organizationId: "3",
  listenAddress: "0.0.0.0:17051",
  chaincodeAddress: "0.0.0.0:17052",
  operationsListenAddress: "0.0.0.0:17443",
  adminAddress: "0.0.0.0:17053",
  externalEndpoint: "192.168.1.20:17051",
};

const local: DockerEngine = {
  id: 0,
  name: "local",
  host: "unix:///var/run/docker.sock",
  tls: false,
  local: true,
  status: "up",
  version: "27.1.1",
};
const rackB: DockerEngine = {
  id: 2,
  name: "rack-b",
  host: "tcp://10.0.0.7:2376",
  tls: true,
  local: false,
  status: "down",
  error: "connect ECONNREFUSED 10.0.0.7:2376",
};

describe("Fabric node engine: request", () => {
  it("sends dockerEngine in fabricPeer/fabricOrderer for a container, never for a process", async () => {
    const peer = toCreateFabricBody({ ...filled, runtime: "docker", dockerEngine: "rack-b" }, "Org1MSP");
    expect(peer.fabricPeer).toMatchObject({ mode: "docker", dockerEngine: "rack-b" });
    const orderer = toCreateFabricBody(
      { ...filled, kind: "orderer", runtime: "docker", dockerEngine: "local" },
      "Org1MSP",
    );
    expect(orderer.fabricOrderer).toMatchObject({ mode: "docker", dockerEngine: "local" });

    // A leftover choice from before switching back to Process is not sent (the server would refuse it).
    const process = toCreateFabricBody({ ...filled, runtime: "service", dockerEngine: "rack-b" }, "Org1MSP");
    expect(process.fabricPeer).not.toHaveProperty("dockerEngine");
    expect(toCreateFabricBody({ ...filled, runtime: "docker" }, "Org1MSP").fabricPeer).not.toHaveProperty(
      "dockerEngine",
    );

    http.respond("POST", "/nodes", 201, { id: 9, name: "peer0-org1" });
    await createNode({ body: peer });
    await createNode({ body: process });
    expect(http.calls.map((c) => c.body)).toEqual([
      expect.objectContaining({ fabricPeer: expect.objectContaining({ mode: "docker", dockerEngine: "rack-b" }) }),
      expect.objectContaining({ fabricPeer: expect.not.objectContaining({ dockerEngine: expect.anything() }) }),
    ]);
  });

  it("keeps an existing container node's engine (local when the server names none)", () => {
    const node = (dockerEngine?: string): NodeInfo =>
      ({
        id: 4,
        name: "o",
        fabricOrderer: { organizationId: 3, mode: "docker", ...(dockerEngine ? { dockerEngine } : {}) },
      }) as unknown as NodeInfo;
    expect(valuesFromNode(node("rack-b")).dockerEngine).toBe("rack-b");
    expect(valuesFromNode(node()).dockerEngine).toBe("local");
  });
});

describe("Fabric node engine: choices", () => {
  it("lists the engines from GET /docker/engines", async () => {
    http.respond("GET", "/docker/engines", 200, { engines: [local, rackB] });
    await expect(fetchDockerEngines()).resolves.toEqual([local, rackB]);
    expect(http.calls[0]).toMatchObject({ method: "GET", path: "/docker/engines" });
  });

  it("defaults to local, else the first engine, and marks a down engine", () => {
    expect(defaultEngineName([rackB, local])).toBe("local");
    expect(defaultEngineName([rackB])).toBe("rack-b");
    expect(defaultEngineName([])).toBe("");
    expect(engineLabel(local)).toBe("local");
    expect(engineLabel(rackB)).toBe("rack-b (down)");
  });
});

describe("Fabric node engine: errors", () => {
  for (const prefix of ["fabricPeer", "fabricOrderer"]) {
    it(`puts ${prefix}.dockerEngine errors on the Engine select`, async () => {
      const message = `${prefix}.dockerEngine: no Docker engine named 'rack-z' is registered`;
      http.respond("POST", "/nodes", 400, {
        error: "INVALID_INPUT",
        message,
        details: { field: `${prefix}.dockerEngine` },
        requestId: "r",
      });
      const err = await createNode({
        body: toCreateFabricBody({ ...filled, runtime: "docker", dockerEngine: "rack-z" }, "Org1MSP"),
      }).catch((e: unknown) => e);
      expect(formErrorsFrom(err, FABRIC_FORM_FIELDS)).toEqual({
        dockerEngine: "no Docker engine named 'rack-z' is registered",
      });
    });
  }
});

function Form({
  values,
  engines,
  errors,
  mode = "create",
}: {
  values: FabricFormValues;
  engines?: DockerEngine[];
  errors?: FieldErrors<FabricFormValues>;
  mode?: "create" | "edit";
}): ReactElement {
  const form = useForm<FabricFormValues>({ defaultValues: values, ...(errors ? { errors } : {}) });
  return (
    <FabricNodeForm
      form={form}
      mode={mode}
      organizations={[]}
      engines={engines}
      onSubmit={() => Promise.resolve()}
      onCancel={() => undefined}
      submitting={false}
      submitLabel="Create node"
    />
  );
}

describe("Fabric node engine: form", () => {
  const route = "/nodes/fabric/create";

  it("shows the Engine select for a container only", () => {
    const docker = { ...filled, runtime: "docker" as const, dockerEngine: "local" };
    const html = screenHtml(<Form values={docker} engines={[local, rackB]} />, route, route);
    expect(html).toMatch(/<label[^>]*for="fabric-dockerEngine"[^>]*>Engine<\/label>/);
    expect(html).toMatch(/<button(?=[^>]*id="fabric-dockerEngine")(?=[^>]*aria-label="Engine")[^>]*>/);
    expect(html).toContain('href="/settings/docker-engines"');
    expect(screenText(<Form values={filled} engines={[local]} />, route, route)).not.toContain("Engine");
  });

  it("shows the server's engine error under the select", () => {
    const html = screenHtml(
      <Form
        values={{ ...filled, runtime: "docker", dockerEngine: "rack-z" }}
        engines={[local]}
        errors={{ dockerEngine: { type: "server", message: "no Docker engine named 'rack-z' is registered" } }}
      />,
      route,
      route,
    );
    expect(html).toMatch(/<button(?=[^>]*id="fabric-dockerEngine")(?=[^>]*aria-invalid="true")[^>]*>/);
    expect(html).toMatch(/role="alert"[^>]*>no Docker engine named &#x27;rack-z&#x27; is registered</);
  });

  it("fixes the engine when editing", () => {
    const html = screenHtml(
      <Form values={{ ...filled, runtime: "docker", dockerEngine: "rack-b" }} mode="edit" />,
      "/nodes/fabric/edit/:id",
      "/nodes/fabric/edit/4",
    );
    expect(html).toMatch(/<button(?=[^>]*id="fabric-dockerEngine")(?=[^>]*disabled="")[^>]*>/);
    expect(html).toContain("Set when the node is created.");
  });
});
