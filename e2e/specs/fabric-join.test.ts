import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { createFabricNodes, removeFabricFixtures, type FabricNode } from "../support/fabric.js";

const SUFFIX = Date.now().toString(36);
const MSP = `Join${SUFFIX}MSP`;
const CHANNEL = `join-${SUFFIX}`;
const ORDERER = `orderer0-join-${SUFFIX}`;
const PEER0 = `peer0-join-${SUFFIX}`;
const PEER1 = `peer1-join-${SUFFIX}`;

interface Org {
  id: number;
  mspId: string;
  tlsCertificate: string;
  signCertificate: string;
}

/**
 * Issue 6's join and import screens on real nodes. A channel made through the API is forgotten
 * by the console (record deleted, the nodes keep it); the browser then joins it again from its
 * orderer URL and TLS CA on fabric-join (a peer that was outside it joins and catches up), and
 * imports it from its genesis block file on networks/import.
 */
describe("fabric join and import", () => {
  let s: Session;
  let org: Org;
  let orderer: FabricNode;
  const nodes: FabricNode[] = [];
  const ports: string[] = [];
  const admin = adminUser;
  let genesisB64 = "";
  const tmp = mkdtempSync(join(tmpdir(), "cl-e2e-join-"));

  const forget = async (): Promise<void> => {
    const nets = await apiCall<{ networks: { id: number; name: string }[] }>(
      s.baseUrl,
      admin(),
      "GET",
      "/networks/fabric?limit=1000",
    );
    for (const n of nets.data.networks.filter((x) => x.name === CHANNEL)) {
      expect((await apiCall(s.baseUrl, admin(), "DELETE", `/networks/fabric/${n.id}`)).status).toBe(204);
    }
  };

  beforeAll(async () => {
    s = await openSession();
    const o = await apiCall<Org>(s.baseUrl, admin(), "POST", "/organizations", {
      mspId: MSP,
      name: `join-e2e-${SUFFIX}`,
    });
    expect(o.status).toBe(201);
    org = o.data;
    nodes.push(
      ...(await createFabricNodes(s.baseUrl, admin(), org, { orderers: [ORDERER], peers: [PEER0, PEER1] }, ports)),
    );
    orderer = nodes.find((n) => n.name === ORDERER)!;
    const peer0 = nodes.find((n) => n.name === PEER0)!;
    // The channel, with the orderer and peer0 only.
    const net = await apiCall<{ id: number; genesisBlock: string }>(s.baseUrl, admin(), "POST", "/networks/fabric", {
      name: CHANNEL,
      config: {
        peerOrganizations: [{ id: org.id, nodeIds: [peer0.id] }],
        ordererOrganizations: [{ id: org.id, nodeIds: [orderer.id] }],
        batchTimeout: "1s",
      },
      joinNodes: true,
    });
    expect(net.status, JSON.stringify(net.data)).toBe(201);
    genesisB64 = net.data.genesisBlock;
    const until = Date.now() + 90_000;
    for (;;) {
      const m = await apiCall<{ nodes: { status: string }[] }>(
        s.baseUrl,
        admin(),
        "GET",
        `/networks/fabric/${net.data.id}/nodes`,
      );
      if (m.data.nodes.every((x) => x.status === "joined")) break;
      if (Date.now() > until) throw new Error(`joins: ${JSON.stringify(m.data)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    await forget();
  }, 240_000);

  afterAll(async () => {
    const survivors = await removeFabricFixtures(s.baseUrl, admin(), {
      channels: [CHANNEL],
      orgId: org?.id ?? 0,
      nodeIds: nodes.map((n) => n.id),
      ports,
    });
    rmSync(tmp, { recursive: true, force: true });
    await s.close();
    expect(survivors).toEqual([]);
  }, 120_000);

  const fillOrdererForm = async (cert: string): Promise<void> => {
    await s.page.getByRole("combobox", { name: "Organization" }).click();
    await s.page.getByRole("option", { name: MSP }).click();
    await s.page.getByLabel("Channel name").fill(CHANNEL);
    await s.page.getByLabel("Orderer URL").fill(`grpcs://${orderer.fabricOrderer!.externalEndpoint}`);
    await s.page.getByLabel("Orderer TLS CA certificate").fill(cert);
  };

  it("shows the orderer's TLS refusal under the certificate field", { timeout: 60_000 }, async () => {
    await openAs(s, admin(), "/fabric-join");
    await s.page.getByRole("heading", { name: "Join Fabric Network" }).waitFor();
    await s.page.waitForFunction(() => document.title === "Join Fabric Network | ChainLaunch");
    // Client-side rules first.
    await s.page.getByLabel("Orderer URL").fill("grpc://nowhere:7050");
    await s.page.getByRole("button", { name: "Connect" }).click();
    await s.page.getByText("grpc:// is not supported; orderers use TLS").waitFor();
    // The org's signing CA is not the TLS CA: the server names the field.
    await fillOrdererForm(org.signCertificate);
    await s.page.getByRole("button", { name: "Connect" }).click();
    const form = s.page.getByTestId("orderer-import-form");
    await form.getByText(/the TLS handshake with orderer .* failed/).waitFor({ timeout: 30_000 });
    await screenshot(s.page, "fabric-join-tls-error");
  });

  it("connects from the orderer URL and TLS CA, then joins both peers", { timeout: 180_000 }, async () => {
    await fillOrdererForm(org.tlsCertificate);
    await s.page.getByRole("button", { name: "Connect" }).click();
    const step = s.page.getByTestId("join-peers");
    await step.waitFor({ timeout: 30_000 });
    // Both running peers of the org are offered and pre-selected.
    expect(await step.getByLabel(PEER0).isChecked()).toBe(true);
    expect(await step.getByLabel(PEER1).isChecked()).toBe(true);
    await screenshot(s.page, "fabric-join-peers");
    await s.page.getByRole("button", { name: "Join selected peers" }).click();
    for (const name of [PEER0, PEER1]) {
      await s.page.locator(`[data-testid="join-row-${name}"][data-state="joined"]`).waitFor({ timeout: 120_000 });
    }
    await s.page.getByRole("link", { name: `Open network ${CHANNEL}` }).click();
    await s.page.waitForURL(/\/networks\/\d+\/fabric$/);
    await s.page.getByRole("heading", { name: CHANNEL }).waitFor();
    await s.page.getByRole("tab", { name: "Nodes" }).click();
    for (const name of [PEER0, PEER1]) {
      const row = s.page.getByTestId(`member-row-${name}`);
      await row.waitFor();
      expect(await row.getAttribute("data-status")).toBe("joined");
    }
    // peer1 was outside the channel: it caught up with the orderer (genesis + nothing else = height 1).
    const peer1 = nodes.find((n) => n.name === PEER1)!;
    const until = Date.now() + 30_000;
    for (;;) {
      const h = await apiCall<{ height: number }>(
        s.baseUrl,
        admin(),
        "GET",
        `/nodes/${peer1.id}/channels/${CHANNEL}/height`,
      );
      if (h.status === 200 && h.data.height >= 1) break;
      if (Date.now() > until) throw new Error(`peer1 height: ${JSON.stringify(h)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    // Unjoin restarts the peer around `peer node unjoin`; the dialog says so first.
    await s.page.getByRole("button", { name: `Unjoin ${PEER1}` }).click();
    const dialog = s.page.getByRole("alertdialog");
    await dialog.getByText(/is stopped, .* is removed from its ledger \(peer node unjoin\)/).waitFor();
    await dialog.getByRole("button", { name: "Unjoin" }).click();
    await s.page.locator(`[data-testid="member-row-${PEER1}"][data-status="unjoined"]`).waitFor({ timeout: 90_000 });
    expect((await apiCall<{ status: string }>(s.baseUrl, admin(), "GET", `/nodes/${peer1.id}`)).data.status).toBe(
      "RUNNING",
    );
    await s.page.getByRole("tab", { name: "Organizations" }).click();
    await s.page.getByTestId("network-orgs").getByRole("link", { name: MSP }).waitFor({ timeout: 30_000 });
    await screenshot(s.page, "fabric-join-network");
  });

  it("imports the channel from its genesis block file", { timeout: 90_000 }, async () => {
    await forget();
    const file = join(tmp, `${CHANNEL}.block`);
    writeFileSync(file, Buffer.from(genesisB64, "base64"));
    await s.page.goto("/networks/import");
    await s.page.getByRole("heading", { name: "Import Network" }).waitFor();
    await s.page.getByRole("tab", { name: "Fabric" }).click();
    await s.page.getByRole("tab", { name: "From a block file" }).click();
    const form = s.page.getByTestId("block-import-form");
    await form.locator('input[type="file"]').setInputFiles(file);
    await s.page.waitForFunction(
      (want) => (document.getElementById("import-block") as HTMLTextAreaElement | null)?.value === want,
      genesisB64,
    );
    await form.getByLabel("Description").fill("imported in e2e");
    await form.getByRole("button", { name: "Import network" }).click();
    await s.page.getByText("Fabric network imported").first().waitFor({ timeout: 30_000 });
    await s.page.waitForURL(/\/networks\/\d+\/fabric$/);
    await s.page.getByRole("heading", { name: CHANNEL }).waitFor();
    // The same channel again is a named conflict on the form.
    await s.page.goto("/networks/import");
    await s.page.getByRole("tab", { name: "Fabric" }).click();
    await s.page.getByRole("tab", { name: "From a block file" }).click();
    await s.page.getByLabel("Genesis block").fill(genesisB64);
    await s.page.getByTestId("block-import-form").getByRole("button", { name: "Import network" }).click();
    await s.page.getByText(`a network named '${CHANNEL}' already exists`).first().waitFor({ timeout: 30_000 });
    await screenshot(s.page, "fabric-import-block");
  });
});
