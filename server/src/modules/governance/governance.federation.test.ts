import { common } from "@hyperledger/fabric-protos";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGenesisBlock } from "../../fabric/configtx/index.js";
import { configFromBlock } from "../../fabric/deliver.js";
import { buildChannelMsp } from "../../fabric/msp/index.js";
import { bootConsole, connect, connectionId, notificationsOf, type Console } from "../../test-support/sharing.js";
import { apiOf, signedHeaders, strangerIdentity } from "../../test-support/federation.js";
import { storeAddOrgProposal } from "../../test-support/governance-proposal.js";
import { createUser, dialects } from "../../test-support/test-app.js";

const CHANNEL = "govchannel";

async function orgWithTls(c: Console, mspId: string) {
  const res = await c.api("POST", "/organizations", { mspId, name: mspId });
  expect(res.statusCode, res.body).toBe(201);
  const o = res.json() as { signCertificate: string; tlsCertificate: string };
  return {
    msp: buildChannelMsp({ mspId, caCertPem: o.signCertificate, tlsCaCertPem: o.tlsCertificate }),
    tls: o.tlsCertificate,
    ca: o.signCertificate,
  };
}

async function org(c: Console, mspId: string) {
  const res = await c.api("POST", "/organizations", { mspId, name: mspId });
  expect(res.statusCode, res.body).toBe(201);
  const o = res.json() as { signCertificate: string; tlsCertificate: string };
  return buildChannelMsp({ mspId, caCertPem: o.signCertificate, tlsCaCertPem: o.tlsCertificate });
}

/**
 * Two real consoles over HTTP: A shares a channel config-update proposal with B, B signs it as
 * its org's admin and sends the signature back, A verifies it against the org's MSP before it
 * stores it; forged or tampered signatures are refused and nothing is stored.
 */
describe.each(dialects())("governance proposals between consoles (%s)", (dialect) => {
  let a: Console;
  let b: Console;
  let bOnA: number;
  let aOnB: number;
  let proposalId: string;
  let onB: string;

  const proposal = async (c: Console, id: string) => {
    const res = await c.api("GET", `/pro/networks/proposals/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      signatures: { id: number; msp_id: string }[];
      policy: { summary: string; missing: string[]; satisfied: boolean };
      origin_node_id: string;
      network_id: number;
      diff: string[];
    };
  };

  beforeAll(async () => {
    [a, b] = await Promise.all([bootConsole(dialect), bootConsole(dialect)]);
    bOnA = await connect(a, b);
    aOnB = await connectionId(b, a);
    const { msp: orgA, tls: tlsA } = await orgWithTls(a, "GovAMSP");
    const orgB = await org(b, "GovBMSP");
    const orgC = await orgWithTls(a, "GovCMSP");
    const TLS_A = tlsA;
    const block = buildGenesisBlock({
      channelId: CHANNEL,
      fabricVersion: "3.1.0",
      peerOrgs: [{ msp: orgA }, { msp: orgB }],
      ordererOrgs: [{ msp: orgA, ordererEndpoints: ["orderer0.example.com:7050"] }],
      consensus: {
        type: "etcdraft",
        consenters: [
          {
            host: "orderer0.example.com",
            port: 7050,
            clientTlsCert: TLS_A,
            serverTlsCert: TLS_A,
          },
        ],
      },
    });
    const genesis = Buffer.from(block.serializeBinary()).toString("base64");
    const ids: number[] = [];
    for (const c of [a, b]) {
      const res = await c.api("POST", "/networks/fabric/import", { genesisFile: genesis });
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json().networkId as number);
    }
    proposalId = await storeAddOrgProposal(a.t.database.db, {
      networkId: ids[0] as number,
      channel: CHANNEL,
      config: configFromBlock(block),
      add: { mspId: "GovCMSP", signCert: orgC.ca, tlsCert: orgC.tls },
    });
  });
  afterAll(async () => {
    await Promise.all([a?.t.close(), b?.t.close()]);
  });

  it("A's proposal counts MAJORITY Admins of two orgs and shows the diff", async () => {
    const p = await proposal(a, proposalId);
    expect(p.policy).toMatchObject({
      summary: "0 of 2 orgs signed",
      satisfied: false,
      missing: ["GovAMSP", "GovBMSP"],
    });
    expect(p.diff).toEqual(["+ channel_group.groups.Application.groups.GovCMSP"]);
  });

  it("A shares it with B: B stores it mapped to its network and is notified", async () => {
    const res = await a.api("POST", `/pro/networks/proposals/${proposalId}/share`, { connection_id: bOnA });
    expect(res.statusCode, res.body).toBe(200);
    const list = (await b.api("GET", "/pro/networks/proposals")).json().proposals as { id: string }[];
    expect(list).toHaveLength(1);
    onB = (list[0] as { id: string }).id;
    const p = await proposal(b, onB);
    expect(p.origin_node_id).toBe(a.id.nodeId);
    expect(p.network_id).toBeGreaterThan(0);
    // B shows what the bytes it would sign change, computed from the config and update it received.
    expect(p.diff).toEqual(["+ channel_group.groups.Application.groups.GovCMSP"]);
    const n = await notificationsOf(b, "proposal.received");
    expect(n[0]).toMatchObject({ channel_name: CHANNEL, from_node_id: a.id.nodeId, proposal_id: onB });
    // Sharing it again is idempotent on B.
    expect(
      (await a.api("POST", `/pro/networks/proposals/${proposalId}/share`, { connection_id: bOnA })).statusCode,
    ).toBe(200);
    expect((await b.api("GET", "/pro/networks/proposals")).json().total).toBe(1);
  });

  it("B can't sign for an org it doesn't hold", async () => {
    const res = await b.api("POST", `/pro/networks/proposals/${onB}/sign`, { msp_id: "GovAMSP" });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/body\.msp_id: this console holds no admin identity of GovAMSP/);
  });

  it("a tampered or misattributed signature is refused by A and nothing is stored", async () => {
    const signed = await b.api("POST", `/pro/networks/proposals/${onB}/sign`, { msp_id: "GovBMSP" });
    expect(signed.statusCode, signed.body).toBe(200);
    const sigId = signed.json().id as number;
    const db = b.t.database.db;
    const row = await db
      .selectFrom("governance_signatures")
      .selectAll()
      .where("id", "=", sigId)
      .executeTakeFirstOrThrow();
    const sig = Buffer.from(row.signature_b64, "base64");
    sig[sig.length - 1] = (sig[sig.length - 1] as number) ^ 0xff;
    await db
      .updateTable("governance_signatures")
      .set({ signature_b64: sig.toString("base64") })
      .where("id", "=", sigId)
      .execute();
    const tampered = await b.api("POST", `/pro/networks/proposals/${onB}/signatures/share`, {
      connection_id: aOnB,
      signature_id: sigId,
    });
    expect(tampered.statusCode).toBe(502);
    expect(tampered.json().message).toMatch(/does not verify over the config update/);
    // Claiming another org's name with B's admin certificate.
    await db
      .updateTable("governance_signatures")
      .set({ signature_b64: row.signature_b64, msp_id: "GovAMSP" })
      .where("id", "=", sigId)
      .execute();
    const misattributed = await b.api("POST", `/pro/networks/proposals/${onB}/signatures/share`, {
      connection_id: aOnB,
      signature_id: sigId,
    });
    expect(misattributed.statusCode).toBe(502);
    expect(misattributed.json().message).toMatch(/the signer belongs to GovBMSP, not GovAMSP/);
    expect((await proposal(a, proposalId)).signatures).toEqual([]);
  });

  it("B signs and sends the signature back: A verifies and stores it, is notified, and counts it", async () => {
    const signed = await b.api("POST", `/pro/networks/proposals/${onB}/sign`, { msp_id: "GovBMSP" });
    expect(signed.statusCode, signed.body).toBe(200);
    const res = await b.api("POST", `/pro/networks/proposals/${onB}/signatures/share`, {
      connection_id: aOnB,
      signature_id: signed.json().id,
    });
    expect(res.statusCode, res.body).toBe(200);
    const p = await proposal(a, proposalId);
    expect(p.signatures.map((s) => s.msp_id)).toEqual(["GovBMSP"]);
    expect(p.policy).toMatchObject({ summary: "1 of 2 orgs signed", missing: ["GovAMSP"] });
    const n = await notificationsOf(a, "signature.received");
    expect(n[0]).toMatchObject({ channel_name: CHANNEL, signer_msp_id: "GovBMSP", proposal_id: proposalId });
    // A signs as its own org: the MAJORITY is met.
    const mine = await a.api("POST", `/pro/networks/proposals/${proposalId}/sign`, { msp_id: "GovAMSP" });
    expect(mine.statusCode, mine.body).toBe(200);
    expect((await proposal(a, proposalId)).policy).toMatchObject({ summary: "2 of 2 orgs signed", satisfied: true });
    const events = (await a.api("GET", `/pro/networks/proposals/${proposalId}/events`)).json() as {
      event_type: string;
    }[];
    expect(events.map((e) => e.event_type)).toEqual([
      "proposal_shared",
      "proposal_shared",
      "signature_received",
      "signature_added",
    ]);
  });

  it("audits proposals, signatures and shares on both sides; a viewer reads but can't sign or share", async () => {
    const types = async (c: Console) =>
      (
        await c.t.database.db
          .selectFrom("audit_logs")
          .select(["event_type", "event_outcome"])
          .where("event_type", "like", "governance.%")
          .execute()
      ).map((x) => `${x.event_type}:${x.event_outcome}`);
    expect(await types(a)).toEqual(
      expect.arrayContaining([
        "governance.proposal_share:SUCCESS",
        "governance.signature_received:SUCCESS",
        "governance.signature_received:FAILURE",
        "governance.proposal_sign:SUCCESS",
      ]),
    );
    expect(await types(b)).toEqual(
      expect.arrayContaining([
        "governance.proposal_received:SUCCESS",
        "governance.proposal_sign:SUCCESS",
        "governance.proposal_sign:FAILURE",
        "governance.signature_share:SUCCESS",
        "governance.signature_share:FAILURE",
      ]),
    );
    // No private key material in any audit detail.
    const details = await a.t.database.db.selectFrom("audit_logs").select("details").execute();
    expect(JSON.stringify(details)).not.toMatch(/PRIVATE KEY/);
    const viewer = apiOf(a.t, await createUser(a.t, "govviewer", "viewer"));
    expect((await viewer("GET", `/pro/networks/proposals/${proposalId}`)).statusCode).toBe(200);
    expect((await viewer("POST", `/pro/networks/proposals/${proposalId}/sign`, { msp_id: "GovAMSP" })).statusCode).toBe(
      403,
    );
    expect(
      (await viewer("POST", `/pro/networks/proposals/${proposalId}/share`, { connection_id: bOnA })).statusCode,
    ).toBe(403);
  });

  it("B withdraws the signature it sent: gone on A too; forged, stranger's and other-org withdrawals refused", async () => {
    const path = "/federation/governance/signatures/withdraw";
    const send = (signer: typeof a.id, body: object, from?: string) => {
      const raw = JSON.stringify(body);
      return a.t.app.inject({
        method: "POST",
        url: `/api/v1${path}`,
        headers: signedHeaders(signer, { to: a.id.nodeId, method: "POST", path, body: raw, ...(from ? { from } : {}) }),
        payload: raw,
      });
    };
    const onA = async () => (await proposal(a, proposalId)).signatures.map((s) => s.msp_id).sort();
    expect(await onA()).toEqual(["GovAMSP", "GovBMSP"]);
    // Not signed by a connected console, or signed by a stranger claiming to be B.
    expect((await send(strangerIdentity(), { proposal_id: proposalId, msp_id: "GovBMSP" })).statusCode).toBe(401);
    expect(
      (await send(strangerIdentity(), { proposal_id: proposalId, msp_id: "GovBMSP" }, b.id.nodeId)).statusCode,
    ).toBe(401);
    // B may not withdraw a signature it didn't send (A's own).
    const other = await send(b.id, { proposal_id: proposalId, msp_id: "GovAMSP" });
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toMatch(/body\.msp_id: the signature of GovAMSP was not sent by this console/);
    expect(await onA()).toEqual(["GovAMSP", "GovBMSP"]);

    // B withdraws through its own route: A deletes it and records it.
    const mine = (await proposal(b, onB)).signatures.find((s) => s.msp_id === "GovBMSP");
    const res = await b.api("DELETE", `/pro/networks/proposals/${onB}/signatures/${mine?.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await onA()).toEqual(["GovAMSP"]);
    expect((await proposal(b, onB)).signatures.map((s) => s.msp_id)).not.toContain("GovBMSP");
    const eventsOf = async (c: Console, id: string) =>
      ((await c.api("GET", `/pro/networks/proposals/${id}/events`)).json() as { event_type: string; data: string }[])
        .filter((e) => e.event_type.startsWith("signature_withdraw"))
        .map((e) => ({ type: e.event_type, ...(JSON.parse(e.data) as object) }));
    expect(await eventsOf(a, proposalId)).toEqual([
      { type: "signature_withdrawn", msp_id: "GovBMSP", from_node_id: b.id.nodeId },
    ]);
    // Both written by one request: their order within a millisecond is arbitrary.
    expect(await eventsOf(b, onB)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "signature_withdrawal_sent", msp_id: "GovBMSP", to_node_id: a.id.nodeId }),
        expect.objectContaining({ type: "signature_withdrawn", msp_id: "GovBMSP" }),
      ]),
    );
    expect(await eventsOf(b, onB)).toHaveLength(2);

    // B signs and sends it again; once A has submitted, B's withdrawal is refused and B keeps it.
    const again = await b.api("POST", `/pro/networks/proposals/${onB}/sign`, { msp_id: "GovBMSP" });
    expect(again.statusCode, again.body).toBe(200);
    const shared = await b.api("POST", `/pro/networks/proposals/${onB}/signatures/share`, {
      connection_id: aOnB,
      signature_id: again.json().id,
    });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(await onA()).toEqual(["GovAMSP", "GovBMSP"]);
    const proposals = a.t.database.db.updateTable("governance_proposals").where("id", "=", proposalId);
    await proposals.set({ status: "submitted" }).execute();
    const late = await b.api("DELETE", `/pro/networks/proposals/${onB}/signatures/${again.json().id}`);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/refused the withdrawal: proposal .* is already submitted/);
    expect((await proposal(b, onB)).signatures.map((s) => s.msp_id)).toContain("GovBMSP");
    await proposals.set({ status: "pending" }).execute();
  });

  it("a re-shared proposal with new bytes (recomputed by A) replaces B's copy and voids B's signatures", async () => {
    const row = await a.t.database.db
      .selectFrom("governance_proposals")
      .selectAll()
      .where("id", "=", proposalId)
      .executeTakeFirstOrThrow();
    // Other update bytes for the same channel, as a recompute on A would produce.
    const update = new common.ConfigUpdate();
    update.setChannelId(CHANNEL);
    const path = "/federation/governance/proposals";
    const body = JSON.stringify({
      proposal_id: proposalId,
      channel_name: CHANNEL,
      proposal_type: row.proposal_type,
      operations: JSON.parse(row.operations_json) as unknown,
      update_b64: Buffer.from(update.serializeBinary()).toString("base64"),
      config_b64: row.config_b64,
      config_sequence: row.config_sequence,
      preview_json: row.preview_json,
      created_by: row.created_by,
    });
    expect((await proposal(b, onB)).signatures.length).toBeGreaterThan(0);
    const res = await b.t.app.inject({
      method: "POST",
      url: `/api/v1${path}`,
      headers: signedHeaders(a.id, { to: b.id.nodeId, method: "POST", path, body }),
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ proposal_id: onB });
    expect((await proposal(b, onB)).signatures).toEqual([]);
    const events = (await b.api("GET", `/pro/networks/proposals/${onB}/events`)).json() as { event_type: string }[];
    expect(events.map((e) => e.event_type)).toContain("proposal_recomputed");
    // Only the proposer recomputes.
    expect((await b.api("POST", `/pro/networks/proposals/${onB}/recompute`)).statusCode).toBe(409);
  });

  it("B's copy becomes submitted when A's signed status message says so; a stranger's message is refused", async () => {
    const path = "/federation/governance/status";
    const send = (signer: typeof a.id) => {
      const body = JSON.stringify({ proposal_id: proposalId, status: "submitted", tx_id: "ab".repeat(32) });
      return b.t.app.inject({
        method: "POST",
        url: `/api/v1${path}`,
        headers: signedHeaders(signer, { to: b.id.nodeId, method: "POST", path, body }),
        payload: body,
      });
    };
    expect((await send(strangerIdentity())).statusCode).toBe(401);
    const res = await send(a.id);
    expect(res.statusCode, res.body).toBe(200);
    const p = (await b.api("GET", `/pro/networks/proposals/${onB}`)).json();
    expect(p).toMatchObject({ status: "submitted", tx_id: "ab".repeat(32) });
    const sign = await b.api("POST", `/pro/networks/proposals/${onB}/sign`, { msp_id: "GovBMSP" });
    expect(sign.statusCode).toBe(409);
  });
});
