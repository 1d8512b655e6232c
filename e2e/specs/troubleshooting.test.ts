import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { join } from "node:path";
import { adminUser, ARTIFACTS, openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { removeFabricFixtures, waitNodeStatus } from "../support/fabric.js";
import { reservePorts } from "../support/server.js";

const SUFFIX = Date.now().toString(36);
const MSP = `TrE2e${SUFFIX}MSP`;
const PEER = `peer0-tr-${SUFFIX}`;
const ORDERER = `orderer0-tr-${SUFFIX}`;

interface NodeOut {
  id: number;
  name: string;
  fabricPeer?: { tlsCaCert: string };
}

/**
 * Issue 19's browser test: with one real peer and one real orderer, "Test all nodes" on the
 * Troubleshooting screen reaches the peer's gRPC port over TLS (valid against the org's TLS CA; the
 * peer does not offer the gRPC health service) and both operations ports (/healthz answers 200);
 * then the certificate tool says the org's TLS CA is valid.
 */
describe("troubleshooting", () => {
  let s: Session;
  let orgId = 0;
  const nodeIds: number[] = [];
  const ports: string[] = [];
  let tlsCa = "";

  beforeAll(async () => {
    s = await openSession();
    const admin = adminUser();
    const org = await apiCall<{ id: number }>(s.baseUrl, admin, "POST", "/organizations", {
      mspId: MSP,
      name: `tr-e2e-${SUFFIX}`,
    });
    expect(org.status).toBe(201);
    orgId = org.data.id;
    // The defaults give the external host; the ports are reserved for this spec.
    const d = await apiCall<{ peers: { externalEndpoint: string }[] }>(
      s.baseUrl,
      admin,
      "GET",
      "/nodes/defaults/fabric?peerCount=1&ordererCount=1",
    );
    const host = d.data.peers[0]?.externalEndpoint.split(":")[0] ?? "127.0.0.1";
    const first = await reservePorts(6);
    const [oListen, oAdmin, oOps, pListen, pCc, pOps] = [first, first + 1, first + 2, first + 3, first + 4, first + 5];
    ports.push(...[oListen, oAdmin, oOps, pListen, pCc, pOps].map(String));
    const common = { organizationId: orgId, mspId: MSP };
    const bodies = [
      {
        name: ORDERER,
        blockchainPlatform: "FABRIC",
        fabricOrderer: {
          ...common,
          listenAddress: `0.0.0.0:${oListen}`,
          adminAddress: `0.0.0.0:${oAdmin}`,
          operationsListenAddress: `0.0.0.0:${oOps}`,
          externalEndpoint: `${host}:${oListen}`,
        },
      },
      {
        name: PEER,
        blockchainPlatform: "FABRIC",
        fabricPeer: {
          ...common,
          listenAddress: `0.0.0.0:${pListen}`,
          chaincodeAddress: `0.0.0.0:${pCc}`,
          operationsListenAddress: `0.0.0.0:${pOps}`,
          externalEndpoint: `${host}:${pListen}`,
        },
      },
    ];
    for (const body of bodies) {
      const r = await apiCall<NodeOut>(s.baseUrl, admin, "POST", "/nodes", body);
      if (r.status !== 201) throw new Error(`create ${body.name}: ${r.status} ${JSON.stringify(r.data)}`);
      nodeIds.push(r.data.id);
    }
    for (const id of nodeIds) await waitNodeStatus(s.baseUrl, admin, id);
    const peer = await apiCall<NodeOut>(s.baseUrl, admin, "GET", `/nodes/${nodeIds[1]}`);
    tlsCa = peer.data.fabricPeer?.tlsCaCert ?? "";
    expect(tlsCa).toContain("BEGIN CERTIFICATE");
  }, 240_000);

  afterAll(async () => {
    const survivors = await removeFabricFixtures(s.baseUrl, adminUser(), { channels: [], orgId, nodeIds, ports });
    if (orgId) await apiCall(s.baseUrl, adminUser(), "DELETE", `/organizations/${orgId}`);
    await s.close();
    expect(survivors).toEqual([]);
  });

  it("tests every node from the presets and shows the results", async () => {
    await openAs(s, adminUser(), "/platform/troubleshooting");
    const page = s.page;
    await page.getByRole("heading", { name: "Troubleshooting", level: 1 }).waitFor();
    // The public IP card answers from this host's interfaces (no outside service is configured).
    await page.getByText("IP address").waitFor();

    const all = page.getByRole("button", { name: "Test all nodes" });
    await page.getByText(/\d+ presets:/).waitFor();
    await all.click();
    const table = page.getByRole("table", { name: "Connection test results" });
    const grpc = table.getByRole("row", { name: `${PEER} gRPC`, exact: true });
    await grpc.getByText("Success").waitFor({ timeout: 30_000 });
    await grpc.getByText("TLS valid").waitFor();
    await grpc.getByText(/not offered \(UNIMPLEMENTED\)/).waitFor();
    for (const node of [PEER, ORDERER]) {
      const ops = table.getByRole("row", { name: `${node} Operations`, exact: true });
      await ops.getByText("Success").waitFor({ timeout: 30_000 });
      await ops.getByRole("cell", { name: "200", exact: true }).waitFor();
    }
    // Every preset finishes (the orderer's admin port may refuse a client without a certificate).
    await page.getByRole("button", { name: "Test all nodes" }).and(page.locator(":enabled")).waitFor();
    expect(await table.getByText("Running").count()).toBe(0);

    // The TLS details of the peer's gRPC row.
    await grpc.getByRole("button", { name: `Show details of ${PEER} gRPC` }).click();
    await table.getByText(/^TLSv1\.[23]$/).waitFor();
    await page.getByRole("region", { name: "Node presets" }).evaluate((el) => el.scrollIntoView({ block: "start" }));
    await screenshot(page, "troubleshooting");
    await page.screenshot({ path: join(ARTIFACTS, "troubleshooting-full.png"), fullPage: true });

    // Copy as curl: the console API call for the row.
    await grpc.getByRole("button", { name: `Copy command for ${PEER} gRPC` }).click();
    await page.getByRole("menuitem", { name: "curl via this console's API" }).click();
    await page.getByText("Command copied").waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(`${s.baseUrl}/api/v1/troubleshooting/test-connection`);
    expect(copied).toContain('"protocol":"grpcs"');
  });

  it("validates the peer org's TLS CA certificate", async () => {
    const page = s.page;
    await page.getByLabel("Certificate (PEM)").fill(tlsCa);
    await page.getByRole("button", { name: "Validate" }).click();
    const result = page.getByRole("region", { name: "Certificate check result" });
    await result.getByText("Valid", { exact: true }).waitFor({ timeout: 15_000 });
    await result.getByText("CA", { exact: true }).waitFor();
    await result.evaluate((el) => el.scrollIntoView({ block: "end" }));
    await screenshot(page, "troubleshooting-certificate");
  });
  it("has a Troubleshooting card in General settings that checks the lookup URL", async () => {
    const page = s.page;
    await page.goto("/settings/general#troubleshooting");
    const card = page.locator("form").filter({ has: page.getByRole("heading", { name: "Troubleshooting" }) });
    await card.getByLabel("Troubleshooting tools need sign-in").waitFor();
    const url = card.getByLabel("Public IP lookup service");
    await url.fill("ftp://ip.example.com");
    await card.getByRole("button", { name: "Save changes" }).click();
    await card.getByText("Use an http(s) URL such as https://ip.example.com, or leave empty").waitFor();
    // Nothing was saved: the setting is still empty.
    const saved = await apiCall<{ config: { publicIpLookupUrl: string } }>(s.baseUrl, adminUser(), "GET", "/settings");
    expect(saved.data.config.publicIpLookupUrl).toBe("");
    await card.getByRole("button", { name: "Reset" }).click();
  });
});
