import { afterAll, describe, expect, it } from "vitest";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  type FabricApi,
  haveFabricBinaries,
  type Json,
} from "../../test-support/fabric-api.js";
import { threeOrgChannel } from "../../test-support/governance-channel.js";

/**
 * Channel config-update proposals on real Fabric binaries: one console holds three peer orgs of
 * a channel (MAJORITY Admins) and one orderer. A proposal adding a fourth org is refused with one
 * signature (naming the two missing orgs), submitted with two; a withdrawn signature goes; a
 * proposal overtaken by another config change is stale, can't be submitted, and recomputing it
 * voids its signatures. Skipped without binaries.
 */
const bins = await haveFabricBinaries("governance proposals e2e");
let harness: FabricApi | undefined;

afterAll(() => harness?.close());

describe("governance proposals on a real channel", () => {
  it.skipIf(!bins)(
    `counts MAJORITY Admins, submits a multi-org signed add_org, marks overtaken proposals stale (Fabric ${VERSION})`,
    { timeout: 300_000 },
    async () => {
      const h = await fabricApi();
      harness = h;
      const { orgs, orderer, net } = await threeOrgChannel(h, {
        msp: "GovOrg",
        name: "Gov Org",
        channel: "govchannel",
        nodes: "gov-o",
      });
      const org4 = orgs[3];
      const P = "/pro/networks/proposals";

      const created = await h.ok("POST", P, {
        network_id: net.id,
        proposal_type: "add_org",
        operations: [
          {
            type: "add_org",
            payload: {
              msp_id: "GovOrg4MSP",
              root_certs: [org4.signCertificate],
              tls_root_certs: [org4.tlsCertificate],
            },
          },
        ],
      });
      expect(created).toMatchObject({ status: "pending", stale: false, channel_name: "govchannel" });
      expect(created.policy).toMatchObject({ summary: "0 of 3 orgs signed", required: 2, satisfied: false });
      expect(created.diff).toEqual(["+ channel_group.groups.Application.groups.GovOrg4MSP"]);
      const id = created.id as string;

      // A second proposal computed against the same config: anchor peers of org1 (org1's Admins alone).
      const anchors = await h.ok("POST", P, {
        network_id: net.id,
        proposal_type: "set_anchor_peers",
        operations: [
          {
            type: "set_anchor_peers",
            payload: { msp_id: "GovOrg1MSP", anchor_peers: [{ host: "peer0.gov1.example.com", port: 7051 }] },
          },
        ],
      });
      await h.ok("POST", `${P}/${anchors.id}/sign`, { msp_id: "GovOrg1MSP" });

      await h.ok("POST", `${P}/${id}/sign`, { msp_id: "GovOrg1MSP" });
      const refused = await h.call("POST", `${P}/${id}/submit`);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/1 of 3 orgs signed.*GovOrg2MSP, GovOrg3MSP/);

      // A withdrawn signature no longer counts.
      const s3 = await h.ok("POST", `${P}/${id}/sign`, { msp_id: "GovOrg3MSP" });
      expect((await h.ok("GET", `${P}/${id}`)).policy.summary).toBe("2 of 3 orgs signed");
      await h.ok("DELETE", `${P}/${id}/signatures/${s3.id}`);
      const afterWithdraw = await h.ok("GET", `${P}/${id}/signatures`);
      expect(afterWithdraw.signatures.map((s: Json) => s.msp_id)).toEqual(["GovOrg1MSP"]);

      await h.ok("POST", `${P}/${id}/sign`, { msp_id: "GovOrg2MSP" });
      const ready = await h.ok("GET", `${P}/${id}`);
      expect(ready.policy).toMatchObject({ summary: "2 of 3 orgs signed", satisfied: true, missing: [] });
      const submitted = await h.ok("POST", `${P}/${id}/submit`);
      expect(submitted).toMatchObject({ proposal_id: id });
      expect(submitted.tx_id).toMatch(/^[0-9a-f]{64}$/);
      expect((await h.ok("GET", `${P}/${id}`)).status).toBe("submitted");
      const cfg = (await h.ok("GET", `/networks/fabric/${net.id}/current-channel-config`)).config;
      expect(Object.keys(cfg.channel_group.groups.Application.groups).sort()).toEqual([
        "GovOrg1MSP",
        "GovOrg2MSP",
        "GovOrg3MSP",
        "GovOrg4MSP",
      ]);
      const events = await h.ok("GET", `${P}/${id}/events`);
      expect(events.map((e: Json) => e.event_type)).toEqual([
        "proposal_created",
        "signature_added",
        "signature_added",
        "signature_withdrawn",
        "signature_added",
        "proposal_submitted",
      ]);

      // The anchor-peer proposal was overtaken: stale, not submittable; recomputing voids its signature.
      const stale = await h.ok("GET", `${P}/${anchors.id}`);
      expect(stale).toMatchObject({ status: "stale", stale: true });
      const refusedStale = await h.call("POST", `${P}/${anchors.id}/submit`);
      expect(refusedStale.status).toBe(409);
      expect(refusedStale.body.message).toMatch(/stale/);
      const recomputed = await h.ok("POST", `${P}/${anchors.id}/recompute`);
      expect(recomputed).toMatchObject({ status: "pending", stale: false, signatures: [] });
      expect(recomputed.config_sequence).toBeGreaterThan(stale.config_sequence);

      // A direct update-config overtakes it again.
      await h.ok("POST", `/networks/fabric/${net.id}/update-config`, {
        operations: [{ type: "update_batch_timeout", payload: { timeout: "3s" } }],
      });
      expect((await h.call("POST", `${P}/${anchors.id}/sign`, { msp_id: "GovOrg1MSP" })).status).toBe(409);
      expect((await h.call("POST", `${P}/${anchors.id}/submit`)).status).toBe(409);
      expect((await h.ok("GET", `${P}/${anchors.id}`)).stale).toBe(true);
      await h.stopNodes([orderer]);
    },
  );
});
