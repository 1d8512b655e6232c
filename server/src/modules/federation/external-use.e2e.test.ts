import { afterAll, describe, expect, it } from "vitest";
import { fabricApi, haveFabricBinaries, type FabricApi, type Json } from "../../test-support/fabric-api.js";
import { apiOf, identityOf, listenAndSetEndpoint } from "../../test-support/federation.js";
import { createTestApp, type TestApp } from "../../test-support/test-app.js";

/**
 * An organization of another console added to a real channel by its external record: console B
 * holds the organization, console A (with a real orderer and peer) syncs it from B and adds it with
 * `add_org {external_organization_id}`; the new config block carries B's MSP. B, now a member, then
 * imports the channel through A's orderer by its external id. Skipped without binaries.
 */
const bins = await haveFabricBinaries("federation external organization e2e");
let harness: FabricApi | undefined;
let other: TestApp | undefined;

afterAll(async () => {
  await harness?.close();
  await other?.close();
});

describe("external organizations in a real channel", () => {
  it.skipIf(!bins)(
    "adds an organization synced from another console by its external id; that console imports through an external orderer",
    { timeout: 300_000 },
    async () => {
      const h = await fabricApi({ portCount: 50 });
      harness = h;
      const b = await createTestApp("sqlite");
      other = b;
      const { peer, orderer, net } = await h.peerOrdererChannel({ code: "Fx", prefix: "fx", channel: "fxchannel" });

      await Promise.all([listenAndSetEndpoint(h.t), listenAndSetEndpoint(b)]);
      const bApi = apiOf(b);
      const remote = (await bApi("POST", "/organizations", { mspId: "FxRemoteMSP", name: "Fx Remote" })).json();
      const jwt = (await bApi("POST", "/node/generate-invitation", { bidirectional: true })).json().invitation_jwt;
      await h.ok("POST", "/node/accept-invitation", { invitation_jwt: jwt });
      await h.ok("POST", "/node/sync-external-nodes", { peer_node_id: (await identityOf(b)).nodeId });
      const ext = ((await h.ok("GET", "/external-nodes/fabric-organizations")) as Json[]).find(
        (o) => o.mspId === "FxRemoteMSP",
      );
      expect(ext).toBeDefined();

      const add = await h.ok("POST", `/networks/fabric/${net.id}/update-config`, {
        operations: [{ type: "add_org", payload: { external_organization_id: ext.id } }],
      });
      expect(add.operations).toEqual([
        {
          type: "add_org",
          payload: {
            msp_id: "FxRemoteMSP",
            root_certs: [remote.signCertificate],
            tls_root_certs: [remote.tlsCertificate],
          },
        },
      ]);
      expect(add.configBlockNumber).toBeGreaterThan(0);
      const cur = (await h.ok("GET", `/networks/fabric/${net.id}/current-channel-config`)).config;
      expect(Object.keys(cur.channel_group.groups.Application.groups).sort()).toEqual(["FxOrg1MSP", "FxRemoteMSP"]);

      // Now a member, B imports the channel through A's orderer, known to B as an external orderer.
      await bApi("POST", "/node/sync-external-nodes", { peer_node_id: (await identityOf(h.t)).nodeId });
      const extOrderer = ((await bApi("GET", "/external-nodes/fabric-orderers")).json() as Json[]).find(
        (o) => o.name === orderer.name,
      );
      expect(extOrderer).toBeDefined();
      const imported = await bApi("POST", "/networks/fabric/import-with-org", {
        channelId: "fxchannel",
        externalOrdererId: extOrderer.id,
        organizationId: remote.id,
      });
      expect(imported.statusCode, imported.body).toBe(200);
      expect(imported.json().message).toContain(extOrderer.externalEndpoint);
      const onB = (await bApi("GET", `/networks/fabric/${imported.json().networkId}`)).json();
      expect(onB).toMatchObject({ name: "fxchannel" });

      await h.stopNodes([peer, orderer]);
    },
  );
});
