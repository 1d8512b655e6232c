import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LABEL } from "../../server/src/runtime/docker/index.js";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, settled, type Session } from "../support/browser.js";
import { consoleContainers, deleteNodesOf, specEngine } from "../support/docker.js";

const SUFFIX = Date.now().toString(36);
const MSP = `DockerE2e${SUFFIX}MSP`;
const PEER = `peer0-docker-${SUFFIX}`;
const engine = specEngine("nodes in Docker (browser)");

/**
 * A peer created from the form with the runtime "Docker container" runs as a container on the
 * console's engine: RUNNING on its page with that runtime, one container labelled as the console's,
 * and none left after deleting the node from its page.
 */
describe.skipIf(!engine)("nodes in Docker", () => {
  let s: Session;
  let orgId = 0;
  let nodeId = 0;

  /** The console's containers of this spec's peer, stopped ones included. */
  const peerContainers = () => consoleContainers(engine!.docker, PEER);

  beforeAll(async () => {
    s = await openSession();
    const r = await apiCall<{ id: number }>(s.baseUrl, adminUser(), "POST", "/organizations", {
      mspId: MSP,
      name: `docker-e2e-${SUFFIX}`,
    });
    expect(r.status).toBe(201);
    orgId = r.data.id;
  });

  afterAll(async () => {
    // No container may outlive the spec: delete (which removes the container) what is left of ours.
    if (s) {
      await deleteNodesOf(s.baseUrl, orgId);
      await s.close();
    }
  });

  it("creates a peer with the runtime Docker container from the form", async () => {
    await openAs(s, adminUser(), "/nodes/fabric/create?type=peer");
    await s.page.getByRole("heading", { name: "Create Fabric Node" }).waitFor();
    const runtime = s.page.getByRole("radiogroup", { name: "Runtime" });
    expect(await runtime.getByRole("radio", { name: /^Process/ }).getAttribute("aria-checked")).toBe("true");
    await s.page.waitForFunction(() =>
      Boolean((document.getElementById("fabric-listenAddress") as HTMLInputElement)?.value),
    );
    await settled(s.page);

    // Choosing Docker asks the server again, with mode=docker: the proposal for a container node.
    const proposal = s.page.waitForResponse(
      (r) => r.url().includes("/api/v1/nodes/defaults/fabric?") && r.url().includes("mode=docker"),
    );
    await runtime.getByRole("radio", { name: /^Docker container/ }).click();
    const answer = await proposal;
    expect(answer.status()).toBe(200);
    const proposed = ((await answer.json()) as { peers: { externalEndpoint: string }[] }).peers[0]!;
    await s.page.waitForFunction(
      (want) => (document.getElementById("fabric-externalEndpoint") as HTMLInputElement | null)?.value === want,
      proposed.externalEndpoint,
    );
    expect(await runtime.getByRole("radio", { name: /^Docker container/ }).getAttribute("aria-checked")).toBe("true");

    // The Engine select fills in once GET /docker/engines (which pings each engine) answers.
    await s.page.getByRole("combobox", { name: "Engine" }).filter({ hasText: "local" }).waitFor({ timeout: 60_000 });
    await s.page.getByRole("combobox", { name: "Organization" }).click();
    await s.page.getByRole("option", { name: MSP }).click();
    await s.page.getByLabel("Name", { exact: true }).fill(PEER);
    const created = s.page.waitForResponse((r) => r.url().endsWith("/api/v1/nodes?start=true"), { timeout: 180_000 });
    await s.page.getByRole("button", { name: "Create node" }).click();
    // The first container node builds chainlaunch/fabric:<version> on the engine.
    const res = await created;
    expect(res.status(), await res.text()).toBe(201);
    const body = (await res.json()) as { id: number; fabricPeer: { mode: string } };
    expect(body.fabricPeer.mode).toBe("docker");
    nodeId = body.id;
    await s.page.waitForURL(new RegExp(`/nodes/${nodeId}$`));
    await s.page.getByRole("heading", { name: PEER }).waitFor();
  }, 240_000);

  it("shows the peer RUNNING with the runtime Docker container", async () => {
    await s.page.waitForFunction(
      () => document.querySelector('[data-testid="node-status"]')?.getAttribute("data-status") === "RUNNING",
      undefined,
      { timeout: 120_000 },
    );
    expect(await s.page.getByTestId("node-runtime").textContent()).toBe("Docker container");
    const api = await apiCall<{ status: string; fabricPeer: { mode: string } }>(
      s.baseUrl,
      adminUser(),
      "GET",
      `/nodes/${nodeId}`,
    );
    expect(api.data).toMatchObject({ status: "RUNNING", fabricPeer: { mode: "docker" } });
  }, 150_000);

  it("runs the peer in one container labelled as the console's", async () => {
    const containers = await peerContainers();
    expect(containers).toHaveLength(1);
    expect(containers[0]!.State).toBe("running");
    expect(containers[0]!.Labels[LABEL.managed]).toBe("true");
  });

  it("deletes the node from its page and leaves no container", async () => {
    await s.page.getByRole("button", { name: "Delete", exact: true }).click();
    const dialog = s.page.getByRole("alertdialog", { name: `Delete ${PEER}?` });
    await dialog.getByRole("button", { name: "Delete node" }).click();
    await s.page.waitForURL(/\/nodes$/, { timeout: 60_000 });
    expect((await apiCall(s.baseUrl, adminUser(), "GET", `/nodes/${nodeId}`)).status).toBe(404);
    expect(await peerContainers()).toEqual([]);
  }, 90_000);
});
