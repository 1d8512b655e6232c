import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { createFabricNodes, createOneOrgChannel, removeFabricFixtures } from "../support/fabric.js";

const SUFFIX = Date.now().toString(36);
const CHANNEL = `mem-${SUFFIX}`;
const CHANNEL2 = `memp-${SUFFIX}`;
const MSP1 = `MemA${SUFFIX}MSP`;
const MSP2 = `MemB${SUFFIX}MSP`;
const MSP3 = `MemC${SUFFIX}MSP`;
const PEER2 = `peer0-memb-${SUFFIX}`;
const PEER3 = `peer1-memb-${SUFFIX}`;

/**
 * Issue 33 item 6 on real Fabric nodes: a console holding two orgs and a channel of only the first.
 * The second org's peer is not offered as joinable (the server refuses it too); the operator adds
 * the org from the channel screen (a config update signed by org1), joins its peer, and the peer
 * itself reports the channel. A Pending member can be removed from the Nodes tab. On a channel whose
 * policy needs an org this console does not hold, adding the org becomes a governance proposal.
 */
describe("channel membership", () => {
  let s: Session;
  let org1 = 0;
  let org2 = 0;
  let networkId = 0;
  const nodes1: number[] = [];
  const nodes2: number[] = [];
  const peer2 = { id: 0 };
  const peer3 = { id: 0 };
  const ports: string[] = [];
  const admin = adminUser;

  beforeAll(async () => {
    s = await openSession();
    const fx = await createOneOrgChannel(s.baseUrl, admin(), {
      mspId: MSP1,
      orgName: `mem-a-${SUFFIX}`,
      channel: CHANNEL,
      tag: `mema-${SUFFIX}`,
      ports,
    });
    org1 = fx.orgId;
    networkId = fx.networkId;
    nodes1.push(...fx.nodeIds);
    const o2 = await apiCall<{ id: number }>(s.baseUrl, admin(), "POST", "/organizations", {
      mspId: MSP2,
      name: `mem-b-${SUFFIX}`,
    });
    expect(o2.status).toBe(201);
    org2 = o2.data.id;
    const [p2, p3] = await createFabricNodes(
      s.baseUrl,
      admin(),
      { id: org2, mspId: MSP2 },
      { orderers: [], peers: [PEER2, PEER3] },
      ports,
    );
    peer2.id = p2!.id;
    peer3.id = p3!.id;
    nodes2.push(peer2.id, peer3.id);
  }, 300_000);

  afterAll(async () => {
    // The channel and org1's nodes, then org2's; the process sweep covers every port at the end.
    await removeFabricFixtures(s.baseUrl, admin(), {
      channels: [CHANNEL, CHANNEL2],
      orgId: org1,
      nodeIds: nodes1,
      ports: [],
    });
    const left = await removeFabricFixtures(s.baseUrl, admin(), { channels: [], orgId: org2, nodeIds: nodes2, ports });
    await s.close();
    expect(left).toEqual([]);
  }, 120_000);

  it("does not offer a peer of an org outside the channel, and says why", { timeout: 120_000 }, async () => {
    await openAs(s, admin(), `/networks/${networkId}/fabric`);
    await s.page.getByRole("heading", { name: CHANNEL }).waitFor();
    // Once the current config is read, org2's peers are shown but can't be chosen.
    await s.page.getByTestId(`not-member-${MSP2}`).waitFor({ timeout: 60_000 });
    await s.page.getByLabel("Node to add").click();
    const option = s.page.getByRole("option", { name: new RegExp(PEER2) });
    await option.waitFor();
    expect(await option.getAttribute("aria-disabled")).toBe("true");
    expect(await option.innerText()).toContain(`${MSP2} is not a member of the channel`);
    await screenshot(s.page, "channel-membership-not-joinable");
    await s.page.keyboard.press("Escape");
    // The server refuses it by name as well, and leaves no Pending row behind.
    const refused = await apiCall<{ message: string }>(
      s.baseUrl,
      admin(),
      "POST",
      `/networks/fabric/${networkId}/nodes`,
      { nodeId: peer2.id, role: "peer" },
    );
    expect(refused.status).toBe(409);
    expect(refused.data.message).toMatch(new RegExp(`^nodeId: organization ${MSP2} .*add the organization`));
    expect(await s.page.getByTestId(`member-row-${PEER2}`).count()).toBe(0);
  });

  it("adds org2 to the channel from the channel screen, then joins its peer", { timeout: 180_000 }, async () => {
    await s.page.getByRole("link", { name: `Add ${MSP2} to the channel first` }).click();
    await s.page.waitForURL(/tab=organizations/);
    const card = s.page.getByTestId("add-own-org");
    await card.getByLabel("Organization").waitFor({ timeout: 60_000 });
    expect(await card.getByLabel("Organization").inputValue()).toBe(String(org2));
    await card.getByRole("button", { name: "Add to channel" }).click();
    const outcome = card.getByTestId("add-org-outcome");
    await outcome.waitFor({ timeout: 90_000 });
    expect(await outcome.getAttribute("data-outcome")).toBe("applied");
    expect(await outcome.innerText()).toContain(`${MSP2} is a member of the channel`);
    expect(await outcome.innerText()).toContain(`signed by ${MSP1}`);
    // The organizations list is read from the new config block.
    await s.page.getByTestId(`org-row-${MSP2}`).waitFor({ timeout: 30_000 });

    await card.getByRole("button", { name: `Join ${PEER2}` }).click();
    await card.locator(`[data-testid="org-peer-${PEER2}"][data-status="joined"]`).waitFor({ timeout: 90_000 });
    await screenshot(s.page, "channel-membership-org-added");
    // The peer itself reports the channel (CSCC GetChannels through the console).
    const channels = await apiCall<{ channels: { name: string }[] }>(
      s.baseUrl,
      admin(),
      "GET",
      `/nodes/${peer2.id}/channels`,
    );
    expect(channels.status).toBe(200);
    expect(channels.data.channels.map((c) => c.name)).toContain(CHANNEL);
    await s.page.getByRole("tab", { name: "Nodes" }).click();
    await s.page.locator(`[data-testid="member-row-${PEER2}"][data-status="joined"]`).waitFor();
  });

  it("removes a Pending member from the Nodes tab", { timeout: 90_000 }, async () => {
    await s.page.getByLabel("Node to add").click();
    const option = s.page.getByRole("option", { name: new RegExp(PEER3) });
    await option.waitFor();
    expect(await option.getAttribute("aria-disabled")).toBeNull();
    await option.click();
    await s.page.getByRole("button", { name: "Add", exact: true }).click();
    const row = s.page.locator(`[data-testid="member-row-${PEER3}"][data-status="pending"]`);
    await row.waitFor({ timeout: 30_000 });
    await s.page.getByRole("button", { name: `Remove ${PEER3}` }).click();
    const dialog = s.page.getByRole("alertdialog");
    await dialog.getByText("has not joined").waitFor();
    await dialog.getByRole("button", { name: "Remove" }).click();
    await s.page.getByTestId(`member-row-${PEER3}`).waitFor({ state: "detached", timeout: 30_000 });
    const members = await apiCall<{ nodes: { nodeId: number }[] }>(
      s.baseUrl,
      admin(),
      "GET",
      `/networks/fabric/${networkId}/nodes`,
    );
    expect(members.data.nodes.map((m) => m.nodeId)).not.toContain(peer3.id);
  });

  it(
    "proposes adding the org when the channel's policy needs an org this console does not hold",
    {
      timeout: 120_000,
    },
    async () => {
      // A channel of org1 and org3, then org3 leaves this console: MAJORITY Admins of two needs org3's signature.
      const o3 = await apiCall<{ id: number }>(s.baseUrl, admin(), "POST", "/organizations", {
        mspId: MSP3,
        name: `mem-c-${SUFFIX}`,
      });
      expect(o3.status).toBe(201);
      const net = await apiCall<{ id: number }>(s.baseUrl, admin(), "POST", "/networks/fabric", {
        name: CHANNEL2,
        config: {
          peerOrganizations: [
            { id: org1, nodeIds: [] },
            { id: o3.data.id, nodeIds: [] },
          ],
          ordererOrganizations: [{ id: org1, nodeIds: [nodes1[0]] }],
          batchTimeout: "500ms",
        },
      });
      expect(net.status, JSON.stringify(net.data)).toBe(201);
      const joined = await apiCall(
        s.baseUrl,
        admin(),
        "POST",
        `/networks/fabric/${net.data.id}/orderers/${nodes1[0]}/join`,
      );
      expect(joined.status).toBe(200);
      expect((await apiCall(s.baseUrl, admin(), "DELETE", `/organizations/${o3.data.id}`)).status).toBe(204);
      // The new channel's orderer answers SERVICE_UNAVAILABLE until it has elected its Raft leader.
      for (let i = 0; ; i++) {
        const cfg = await apiCall(s.baseUrl, admin(), "GET", `/networks/fabric/${net.data.id}/current-channel-config`);
        if (cfg.status === 200) break;
        if (i >= 120) throw new Error(`the channel's config never became readable: ${JSON.stringify(cfg.data)}`);
        await new Promise((r) => setTimeout(r, 500));
      }

      await s.page.goto(`/networks/${net.data.id}/fabric?tab=organizations`);
      const card = s.page.getByTestId("add-own-org");
      await card.getByLabel("Organization").waitFor({ timeout: 60_000 });
      await card.getByLabel("Organization").selectOption({ label: MSP2 });
      await card.getByRole("button", { name: "Add to channel" }).click();
      const outcome = card.getByTestId("add-org-outcome");
      await outcome.waitFor({ timeout: 90_000 });
      expect(await outcome.getAttribute("data-outcome")).toBe("proposed");
      expect(await outcome.innerText()).toContain(`needs signatures from ${MSP3}`);
      await screenshot(s.page, "channel-membership-proposed");
      await card.getByRole("link", { name: "Open the proposal" }).click();
      await s.page.waitForURL(new RegExp(`/networks/${net.data.id}/fabric/proposals/`));
      const policy = s.page.getByTestId("policy-progress");
      await policy.waitFor({ timeout: 30_000 });
      expect(await policy.innerText()).toContain("1 of 2 orgs signed");
      expect(await policy.innerText()).toContain(MSP3);
    },
  );
});
