import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { common } from "@hyperledger/fabric-protos";
import { afterAll, describe, expect, it } from "vitest";
import { consortium, type Consortium, type ConsortiumMember } from "../../test-support/consortium.js";
import {
  E2E_FABRIC_VERSION as VERSION,
  haveFabricBinaries,
  waitFor,
  type Json,
} from "../../test-support/fabric-api.js";
import { identityOf, signedHeaders } from "../../test-support/federation.js";

const ASSET_NODE = resolve(dirname(fileURLToPath(import.meta.url)), "../../fabric/test-support/chaincode/asset-node");

/**
 * Issue 17: three consoles (orgs A, B, C), connected, on one real channel holding the three orgs
 * under MAJORITY Admins. A proposes adding org D, signs, shares with B and C; B signs and sends its
 * signature back, withdraws it (gone on A too), signs again; A submits with 2 of 3 and org D is in
 * every console's current-channel-config. A proposal computed before is stale on A and on B (409),
 * arrives stale on C, and a proposal whose config doesn't match the receiver's is refused.
 * In the same setup A proposes a chaincode definition whose policy needs all three orgs; B and C
 * accept it (install, chaincode server, approve on their own consoles), A commits, and an invoke
 * endorsed by the three orgs' peers succeeds. Skipped without binaries (the reason is printed).
 */
const bins = await haveFabricBinaries("governance consortium e2e");
let h: Consortium | undefined;

afterAll(() => h?.close());

const P = "/pro/networks/proposals";

/** The copy on `m` of a proposal A shared, found by its kind (each kind is proposed once here). */
async function copyOn(m: ConsortiumMember, proposalType: string): Promise<Json> {
  const list = (await m.api.ok("GET", P)).proposals as Json[];
  const p = list.find((x) => x.proposal_type === proposalType);
  if (!p) throw new Error(`no ${proposalType} proposal on ${m.mspId}'s console`);
  return p;
}

const mspIds = async (m: ConsortiumMember, id: string): Promise<string[]> =>
  ((await m.api.ok("GET", `${P}/${id}/signatures`)).signatures as Json[]).map((s) => s.msp_id as string).sort();

describe("config-update proposals across three consoles on a real channel", () => {
  it.skipIf(!bins)(
    `2 of 3 orgs sign on their own consoles; withdraw and staleness travel between them (Fabric ${VERSION})`,
    { timeout: 600_000 },
    async () => {
      h = await consortium({ code: "Cons", channel: "conschannel" });
      const { a, b, c } = h;
      const orgD = await a.api.ok("POST", "/organizations", { mspId: "ConsDOrg1MSP", name: "Cons D" });
      const p1 = await a.api.ok("POST", P, {
        network_id: a.networkId,
        proposal_type: "add_org",
        operations: [
          {
            type: "add_org",
            payload: {
              msp_id: "ConsDOrg1MSP",
              root_certs: [orgD.signCertificate],
              tls_root_certs: [orgD.tlsCertificate],
            },
          },
        ],
      });
      expect(p1.policy).toMatchObject({ summary: "0 of 3 orgs signed", required: 2, satisfied: false });
      // A second proposal computed against the same config (B's anchor peer), overtaken later.
      const [bHost, bPort] = (b.peer.endpoint as string).split(":");
      const p2 = await a.api.ok("POST", P, {
        network_id: a.networkId,
        proposal_type: "set_anchor_peers",
        operations: [
          {
            type: "set_anchor_peers",
            payload: { msp_id: b.mspId, anchor_peers: [{ host: bHost, port: Number(bPort) }] },
          },
        ],
      });

      // A signs; one signature is refused, naming the two missing orgs.
      await a.api.ok("POST", `${P}/${p1.id}/sign`, { msp_id: a.mspId });
      const alone = await a.api.call("POST", `${P}/${p1.id}/submit`);
      expect(alone.status).toBe(400);
      expect(alone.body.message).toContain("(1 of 3 orgs signed); signatures missing from: ");
      expect(alone.body.message).toContain(b.mspId);
      expect(alone.body.message).toContain(c.mspId);

      // A shares it with B and C (the receivers check it against their own peer's config).
      await a.api.ok("POST", `${P}/${p1.id}/share`, { connection_id: h.conn("a", "b") });
      await a.api.ok("POST", `${P}/${p1.id}/share`, { connection_id: h.conn("a", "c") });
      await a.api.ok("POST", `${P}/${p2.id}/share`, { connection_id: h.conn("a", "b") });
      const p1OnB = await copyOn(b, "add_org");
      const p1OnC = await copyOn(c, "add_org");
      for (const [m, copy] of [
        [b, p1OnB],
        [c, p1OnC],
      ] as const) {
        expect(copy).toMatchObject({ origin_node_id: a.api.nodeId, network_id: m.networkId, status: "pending" });
        expect(copy.policy.summary).toBe("0 of 3 orgs signed");
      }

      // B signs and sends its signature back: 2 of 3 on A.
      const sB = await b.api.ok("POST", `${P}/${p1OnB.id}/sign`, { msp_id: b.mspId });
      await b.api.ok("POST", `${P}/${p1OnB.id}/signatures/share`, {
        connection_id: h.conn("b", "a"),
        signature_id: sB.id,
      });
      expect((await a.api.ok("GET", `${P}/${p1.id}`)).policy).toMatchObject({
        summary: "2 of 3 orgs signed",
        satisfied: true,
      });

      // B withdraws it: gone on B and on A, and A's submit is refused naming B.
      await b.api.ok("DELETE", `${P}/${p1OnB.id}/signatures/${sB.id}`);
      expect(await mspIds(b, p1OnB.id)).toEqual([]);
      expect(await mspIds(a, p1.id)).toEqual([a.mspId]);
      const withdrawn = await a.api.call("POST", `${P}/${p1.id}/submit`);
      expect(withdrawn.status).toBe(400);
      expect(withdrawn.body.message).toMatch(new RegExp(`1 of 3 orgs signed.*missing from: .*${b.mspId}`));

      // B signs again and sends it back; A submits with 2 of 3.
      const again = await b.api.ok("POST", `${P}/${p1OnB.id}/sign`, { msp_id: b.mspId });
      await b.api.ok("POST", `${P}/${p1OnB.id}/signatures/share`, {
        connection_id: h.conn("b", "a"),
        signature_id: again.id,
      });
      const submitted = await a.api.ok("POST", `${P}/${p1.id}/submit`);
      expect(submitted.tx_id).toMatch(/^[0-9a-f]{64}$/);

      // Org D is in the channel config on every console (B's and C's peers catch up).
      for (const m of [a, b, c]) {
        await waitFor(
          `ConsDOrg1MSP in current-channel-config on ${m.mspId}'s console`,
          async () => {
            const r = await m.api.call("GET", `/networks/fabric/${m.networkId}/current-channel-config`);
            const groups = r.status === 200 ? r.body.config.channel_group.groups.Application.groups : {};
            return "ConsDOrg1MSP" in groups ? Object.keys(groups).sort() : undefined;
          },
          60_000,
        ).then((groups) => expect(groups).toEqual(["ConsAOrg1MSP", "ConsBOrg1MSP", "ConsCOrg1MSP", "ConsDOrg1MSP"]));
      }
      // A told B and C; its timeline shows the round trip.
      for (const [m, copy] of [
        [b, p1OnB],
        [c, p1OnC],
      ] as const) {
        expect(await m.api.ok("GET", `${P}/${copy.id}`)).toMatchObject({ status: "submitted", tx_id: submitted.tx_id });
      }
      const events = (await a.api.ok("GET", `${P}/${p1.id}/events`)) as Json[];
      // Events written in one request may share a millisecond (their order is then arbitrary).
      const types = events.map((e) => e.event_type as string);
      expect(types.slice(0, 7)).toEqual([
        "proposal_created",
        "signature_added",
        "proposal_shared",
        "proposal_shared",
        "signature_received",
        "signature_withdrawn",
        "signature_received",
      ]);
      expect(types.slice(7).sort()).toEqual(["proposal_submitted", "status_sent", "status_sent"]);

      // P2 was computed before the change. Shared to C now, it arrives stale (C's peer is newer).
      await a.api.ok("POST", `${P}/${p2.id}/share`, { connection_id: h.conn("a", "c") });
      const p2OnC = await copyOn(c, "set_anchor_peers");
      expect(p2OnC).toMatchObject({ status: "stale", stale: true });
      const cEvents = (await c.api.ok("GET", `${P}/${p2OnC.id}/events`)) as Json[];
      expect(cEvents.map((e) => e.event_type).sort()).toEqual(["proposal_received", "proposal_stale"]);
      // Stale on A and on B: neither can submit it, B can't sign it.
      expect(await a.api.ok("GET", `${P}/${p2.id}`)).toMatchObject({ status: "stale", stale: true });
      const onA = await a.api.call("POST", `${P}/${p2.id}/submit`);
      expect(onA.status).toBe(409);
      expect(onA.body.message).toMatch(/stale/);
      const p2OnB = await copyOn(b, "set_anchor_peers");
      expect(await b.api.ok("GET", `${P}/${p2OnB.id}`)).toMatchObject({ status: "stale", stale: true });
      expect((await b.api.call("POST", `${P}/${p2OnB.id}/submit`)).status).toBe(409);
      expect((await b.api.call("POST", `${P}/${p2OnB.id}/sign`, { msp_id: b.mspId })).status).toBe(409);

      // A fresh proposal matches C's view; the same proposal with other config bytes at the same
      // sequence is refused by C.
      const [cHost, cPort] = (c.peer.endpoint as string).split(":");
      const p3 = await a.api.ok("POST", P, {
        network_id: a.networkId,
        proposal_type: "set_anchor_peers_c",
        operations: [
          {
            type: "set_anchor_peers",
            payload: { msp_id: c.mspId, anchor_peers: [{ host: cHost, port: Number(cPort) }] },
          },
        ],
      });
      await a.api.ok("POST", `${P}/${p3.id}/share`, { connection_id: h.conn("a", "c") });
      expect(await copyOn(c, "set_anchor_peers_c")).toMatchObject({ status: "pending" });
      const row = await a.api.t.database.db
        .selectFrom("governance_proposals")
        .selectAll()
        .where("id", "=", p3.id as string)
        .executeTakeFirstOrThrow();
      const other = common.Config.deserializeBinary(Buffer.from(row.config_b64, "base64"));
      other.getChannelGroup()?.setModPolicy("Tampered");
      const path = "/federation/governance/proposals";
      const body = JSON.stringify({
        proposal_id: "forged-config",
        channel_name: row.channel_name,
        proposal_type: "forged",
        operations: JSON.parse(row.operations_json) as unknown,
        update_b64: row.update_b64,
        config_b64: Buffer.from(other.serializeBinary()).toString("base64"),
        config_sequence: row.config_sequence,
        preview_json: row.preview_json,
        created_by: "admin",
      });
      const refused = await c.api.t.app.inject({
        method: "POST",
        url: `/api/v1${path}`,
        headers: signedHeaders(await identityOf(a.api.t), { to: c.api.nodeId, method: "POST", path, body }),
        payload: body,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toMatch(/^body\.config_b64: .*does not match this console's channel config/);
      expect(((await c.api.ok("GET", P)).proposals as Json[]).map((x) => x.proposal_type)).not.toContain("forged");
    },
  );
  it.skipIf(!bins)(
    "a chaincode proposal: A proposes and shares, B and C accept (install, server, approve), A commits, an invoke endorsed by all three succeeds",
    { timeout: 900_000 },
    async () => {
      if (!h) throw new Error("the consortium did not start (see the test before)");
      const { a, b, c } = h;
      const CC = "/pro/chaincodes/proposals";
      const policy = `AND('${a.mspId}.member','${b.mspId}.member','${c.mspId}.member')`;
      const created = await a.api.ok("POST", CC, {
        name: "consasset",
        network_id: a.networkId,
        version: "1.0",
        sequence: 1,
        endorsement_policy: policy,
      });
      expect(created).toMatchObject({ status: "proposed", channelName: "conschannel", endorsementPolicy: policy });
      await a.api.ok("POST", `/sc/fabric/definitions/${created.definitionId}/source`, { source_path: ASSET_NODE });
      expect((await a.api.ok("POST", `${CC}/${created.id}/accept`)).proposal.status).toBe("accepted");
      const shared = await a.api.ok("POST", `${CC}/${created.id}/share`, {
        recipients: [h.conn("a", "b"), h.conn("a", "c")],
      });
      expect(shared).toEqual({ success: true });

      // B and C accept on their own consoles: their peers install it, their chaincode servers start, their orgs approve.
      const accepted: Record<string, Json> = {};
      for (const m of [b, c]) {
        const copy = ((await m.api.ok("GET", CC)) as Json[]).find((x) => x.chaincodeDefId === created.chaincodeDefId);
        expect(copy).toMatchObject({ status: "received", networkId: m.networkId, endorsementPolicy: policy });
        const r = await m.api.ok("POST", `${CC}/${copy.id}/accept`);
        expect(r.proposal).toMatchObject({ status: "accepted", error: "" });
        accepted[m.mspId] = r;
      }

      const approvals = await waitFor(
        "A sees the three orgs' approvals",
        async () => {
          const ap = (await a.api.ok("GET", `${CC}/${created.id}`)).proposal.approvals as Record<string, boolean>;
          return ap[a.mspId] && ap[b.mspId] && ap[c.mspId] ? ap : undefined;
        },
        90_000,
        1000,
      );
      expect(approvals).toMatchObject({ [a.mspId]: true, [b.mspId]: true, [c.mspId]: true });
      await a.api.ok("POST", `/sc/fabric/definitions/${created.definitionId}/commit`, { peer_id: a.peerId });
      expect((await a.api.ok("GET", `${CC}/${created.id}`)).proposal.status).toBe("committed");

      const wrote = await waitFor(
        "an invoke endorsed by the peers of A, B and C",
        async () => {
          const r = await a.api.call("POST", `/sc/fabric/chaincodes/${created.chaincodeId}/invoke`, {
            function: "CreateAsset",
            args: ["cons1", "blue"],
          });
          if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
          return r.body as Json;
        },
        120_000,
        3000,
      );
      expect(wrote.transaction_id).toMatch(/^[0-9a-f]{64}$/);
      for (const m of [b, c]) {
        const read = await waitFor(
          `${m.mspId} reads the asset through its own peer`,
          async () => {
            const r = await m.api.call("POST", `/sc/fabric/chaincodes/${accepted[m.mspId]!.chaincode.id}/query`, {
              function: "ReadAsset",
              args: ["cons1"],
            });
            return r.status === 200 ? (r.body as Json) : undefined;
          },
          30_000,
          1000,
        );
        expect(read.result).toMatchObject({ id: "cons1", value: "blue" });
      }
    },
  );
});
