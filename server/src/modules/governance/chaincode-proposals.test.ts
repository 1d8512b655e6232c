import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedHeaders, strangerIdentity } from "../../test-support/federation.js";
import {
  bootConsole,
  channelBlock,
  connect,
  connectionId,
  notificationsOf,
  type Console,
} from "../../test-support/sharing.js";
import { auditOf, managerCallers } from "../../test-support/callers.js";
import { createUser, dialects } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";
import type { Json } from "../../test-support/fabric-api.js";
import { createChaincodeProposalsRepo } from "./chaincode-proposals.repo.js";
import { GOVERNANCE_PATHS } from "./governance.inbound.js";

const P = "/pro/chaincodes/proposals";
const CHANNEL = "ccpchannel";

async function importChannel(c: Console, genesis: string): Promise<number> {
  const res = await c.api("POST", "/networks/fabric/import", { genesisFile: genesis });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().networkId as number;
}

async function ok(c: Console, method: "GET" | "POST", path: string, body?: object, code = 200): Promise<Json> {
  const res = await c.api(method, path, body);
  expect(res.statusCode, res.body).toBe(code);
  return res.json() as Json;
}

const audits = (c: Console, type: string) =>
  c.t.database.db
    .selectFrom("audit_logs")
    .select(["event_outcome as outcome", "affected_resource as resource"])
    .where("event_type", "=", type)
    .orderBy("id")
    .execute();

/**
 * Chaincode proposals between two real consoles over HTTP (no Fabric binaries): A proposes a
 * definition with a Node.js source, shares it with B (source archive and digest over the signed
 * transport); B stores it mapped to its network, is notified and audits it. Forged, tampered and
 * oversized deliveries are refused; accepts that can't run (no peer, no network) fail retryably.
 */
describe.each(dialects())("chaincode proposals between consoles (%s)", (dialect) => {
  let a: Console;
  let b: Console;
  let bOnA: number;
  let netA: number;
  let netB: number;
  let otherNetA: number;
  let src: string;
  let proposal: Json;
  let onB: Json;

  beforeAll(async () => {
    [a, b] = await Promise.all([bootConsole(dialect), bootConsole(dialect)]);
    bOnA = await connect(a, b);
    await connectionId(b, a);
    const genesis = await channelBlock(a, CHANNEL, "CcpAMSP");
    netA = await importChannel(a, genesis);
    netB = await importChannel(b, genesis);
    // A channel only A has: B stores proposals of it with network 0.
    otherNetA = await importChannel(a, await channelBlock(a, "ccponlya", "CcpOnlyMSP"));
    src = await mkdtemp(join(tmpdir(), "ccp-src-"));
    await writeFile(join(src, "package.json"), JSON.stringify({ name: "ccp", version: "1.0.0", main: "index.js" }));
    await writeFile(join(src, "index.js"), "module.exports = {};\n");
  });
  afterAll(async () => {
    await Promise.all([a?.t.close(), b?.t.close()]);
    if (src) await rm(src, { recursive: true, force: true });
  });

  it("refuses bad input naming the field", async () => {
    const base = { name: "ccp", network_id: netA, version: "1.0", sequence: 1 };
    const cases: [Json, RegExp][] = [
      [{ ...base, network_id: 99999 }, /^body\.network_id: Fabric network 99999 not found/],
      [{ ...base, channel_name: "other" }, /^body\.channel_name: /],
      [{ ...base, name: "bad name" }, /body\/name|name/],
      [{ ...base, sequence: 0 }, /sequence/],
      [
        { ...base, definition_id: 4242 },
        /^body\.definition_id: chaincode 'ccp' on channel 'ccpchannel' has no definition 4242/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await a.api("POST", P, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(message);
    }
  });

  it("creates a proposal with a new definition, and one from an existing definition (fields must match)", async () => {
    proposal = await ok(
      a,
      "POST",
      P,
      {
        name: "ccp",
        network_id: netA,
        channel_name: CHANNEL,
        version: "1.0",
        sequence: 1,
        endorsement_policy: "OR('CcpAMSP.member')",
      },
      201,
    );
    expect(proposal).toMatchObject({
      name: "ccp",
      networkId: netA,
      channelName: CHANNEL,
      status: "proposed",
      connectionId: 0,
      sourceType: "none",
      approvals: {},
      sharedWith: [],
    });
    expect(proposal.definitionId).toBeGreaterThan(0);
    expect(proposal.chaincodeDefId).toMatch(/^ccp-[0-9a-f]{12}$/);
    // The definition gets its source through the chaincode routes.
    await ok(a, "POST", `/sc/fabric/definitions/${proposal.definitionId}/source`, { source_path: src });

    const mismatch = await a.api("POST", P, {
      name: "ccp",
      network_id: netA,
      version: "2.0",
      sequence: 1,
      definition_id: proposal.definitionId,
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toMatch(/^body\.version: definition \d+ has "1\.0", not "2\.0"/);
    const again = await ok(
      a,
      "POST",
      P,
      {
        name: "ccp",
        network_id: netA,
        version: "1.0",
        sequence: 1,
        definition_id: proposal.definitionId,
      },
      201,
    );
    expect(again).toMatchObject({ definitionId: proposal.definitionId, sourceType: "node" });
    const detail = await ok(a, "GET", `${P}/${again.id}`);
    expect(detail.definition).toMatchObject({ id: proposal.definitionId, version: "1.0", sequence: 1 });
    expect(detail.chaincode).toMatchObject({ name: "ccp", networkId: netA });
    // No peer here to ask: no approvals, and the GET still answers.
    expect(detail.proposal.approvals).toEqual({});
  });

  it("lists by network and answers 404 for an unknown id", async () => {
    const all = (await ok(a, "GET", P)) as Json[];
    expect(all.length).toBe(2);
    expect((await ok(a, "GET", `${P}?network_id=${otherNetA}`)) as Json[]).toEqual([]);
    expect(((await ok(a, "GET", `${P}?network_id=${netA}`)) as Json[]).length).toBe(2);
    for (const [m, path] of [
      ["GET", `${P}/777777`],
      ["POST", `${P}/777777/accept`],
    ] as const) {
      expect((await a.api(m, path)).statusCode).toBe(404);
    }
    expect((await a.api("POST", `${P}/777777/share`, { recipients: [bOnA] })).statusCode).toBe(404);
  });

  it("a viewer reads but can't propose, share or accept", async () => {
    const viewer = await createUser(a.t, "ccp-viewer", "viewer");
    const call = (method: "GET" | "POST", url: string, payload?: unknown) =>
      a.t.app.inject({ method, url: `/api/v1${url}`, headers: viewer, ...(payload ? { payload } : {}) });
    expect((await call("GET", P)).statusCode).toBe(200);
    expect((await call("GET", `${P}/${proposal.id}`)).statusCode).toBe(200);
    const create = await call("POST", P, { name: "x", network_id: netA, version: "1", sequence: 1 });
    expect(create.statusCode).toBe(403);
    expect((await call("POST", `${P}/${proposal.id}/share`, { recipients: [bOnA] })).statusCode).toBe(403);
    expect((await call("POST", `${P}/${proposal.id}/accept`)).statusCode).toBe(403);
  });

  it("share refuses an unknown recipient by index and a definition with no source", async () => {
    const bad = await a.api("POST", `${P}/${proposal.id}/share`, { recipients: [bOnA, 4242] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^body\.recipients\[1\]: no connected console with id 4242/);
    const bare = await ok(a, "POST", P, { name: "ccbare", network_id: netA, version: "1", sequence: 1 }, 201);
    const none = await a.api("POST", `${P}/${bare.id}/share`, { recipients: [bOnA] });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toMatch(/^source: definition \d+ has neither source nor docker image/);
  });

  it("A shares it with B: B has it received, mapped to its network, with the archive, notified and audited", async () => {
    const res = await ok(a, "POST", `${P}/${proposal.id}/share`, { recipients: [bOnA] });
    expect(res).toEqual({ success: true });
    const list = (await ok(b, "GET", P)) as Json[];
    expect(list).toHaveLength(1);
    onB = list[0] as Json;
    expect(onB).toMatchObject({
      chaincodeDefId: proposal.chaincodeDefId,
      name: "ccp",
      networkId: netB,
      channelName: CHANNEL,
      version: "1.0",
      sequence: 1,
      endorsementPolicy: "OR('CcpAMSP.member')",
      status: "received",
      sharedByNodeId: a.id.nodeId,
      sourceType: "node",
      definitionId: null,
      chaincodeId: null,
    });
    expect(onB.connectionId).toBeGreaterThan(0);
    expect(onB.sharedBy).toBe(`admin@${a.id.nodeId}`);
    const row = await b.t.database.db
      .selectFrom("chaincode_proposals")
      .selectAll()
      .where("id", "=", onB.id as number)
      .executeTakeFirstOrThrow();
    const archive = await readFile(row.source_archive as string);
    expect(createHash("sha256").update(archive).digest("hex")).toBe(onB.sourceSha256);
    const sent = await ok(a, "GET", `${P}/${proposal.id}`);
    expect(sent.proposal).toMatchObject({ sharedWith: [bOnA], sourceSha256: onB.sourceSha256 });

    const received = await notificationsOf(b, "chaincode.received");
    expect(received[0]).toMatchObject({
      chaincode_name: "ccp",
      chaincode_id: 0,
      proposal_id: onB.id,
      version: "1.0",
      network_id: netB,
      channel_name: CHANNEL,
      from_user: "admin",
      from_node_id: a.id.nodeId,
    });
    const shared = await notificationsOf(a, "chaincode.shared");
    expect(shared[0]).toMatchObject({
      chaincode_name: "ccp",
      chaincode_id: proposal.chaincodeId,
      proposal_id: proposal.id,
      network_id: netA,
      channel_name: CHANNEL,
      shared_with_nodes: 1,
    });
    await waitFor(
      "B's audit of the delivery",
      async () => ((await audits(b, "governance.chaincode_proposal_received")).length ? true : undefined),
      5000,
    );
    expect(await audits(b, "governance.chaincode_proposal_received")).toContainEqual({
      outcome: "SUCCESS",
      resource: `chaincode_proposal:${proposal.chaincodeDefId}`,
    });
    await waitFor(
      "A's audit of the share",
      async () => ((await audits(a, "governance.chaincode_proposal_share")).length ? true : undefined),
      5000,
    );
    expect(await audits(a, "governance.chaincode_proposal_create")).toContainEqual({
      outcome: "SUCCESS",
      resource: `network:${netA}`,
    });

    // A repeated share is a no-op on both sides.
    expect(await ok(a, "POST", `${P}/${proposal.id}/share`, { recipients: [bOnA] })).toEqual({ success: true });
    expect((await ok(b, "GET", P)) as Json[]).toHaveLength(1);
    expect(await notificationsOf(b, "chaincode.received")).toHaveLength(1);
  });

  it("B refuses a forged sender, a tampered digest and an oversized source; nothing is stored", async () => {
    const path = GOVERNANCE_PATHS.chaincode;
    const src = Buffer.from("not really a tarball");
    const wire = {
      def_id: "forged-1",
      name: "forged",
      channel_name: CHANNEL,
      version: "1",
      sequence: 1,
      endorsement_policy: "",
      docker_image: "",
      init_required: false,
      source_type: "node",
      source_b64: src.toString("base64"),
      source_sha256: createHash("sha256").update(src).digest("hex"),
      shared_by: "mallory",
    };
    const send = (signer = a.id, w: Json = wire) => {
      const body = JSON.stringify(w);
      return b.t.app.inject({
        method: "POST",
        url: `/api/v1${path}`,
        headers: signedHeaders(signer, { to: b.id.nodeId, method: "POST", path, body }),
        payload: body,
      });
    };
    expect((await send(strangerIdentity())).statusCode).toBe(401);
    const tampered = await send(a.id, { ...wire, source_sha256: "0".repeat(64) });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().message).toMatch(/^body\.source_sha256: does not match/);
    const big = Buffer.alloc(32 * 1024 * 1024 + 1, 1);
    const oversized = await send(a.id, {
      ...wire,
      source_b64: big.toString("base64"),
      source_sha256: createHash("sha256").update(big).digest("hex"),
    });
    expect(oversized.statusCode).toBe(400);
    expect(oversized.json().message).toMatch(/^body\.source_b64: the source is over the 32 MiB limit/);
    expect(((await ok(b, "GET", P)) as Json[]).map((p) => p.name)).toEqual(["ccp"]);
  });

  it("B's accept without a running peer fails retryably; of two concurrent claims exactly one wins", async () => {
    const results = await Promise.all([1, 2].map(() => b.api("POST", `${P}/${onB.id}/accept`)));
    expect(results.map((r) => r.statusCode)).toEqual([409, 409]);
    // The second either found it claimed, or ran after the first had failed (failed is retryable).
    for (const r of results) {
      expect(r.json().message).toMatch(/already being accepted|has no running peer on this console/);
    }
    const p = await ok(b, "GET", `${P}/${onB.id}`);
    expect(p.proposal).toMatchObject({ status: "failed" });
    expect(p.proposal.error).toMatch(/has no running peer on this console/);
    // The claim itself (the conditional UPDATE): one winner, on either database.
    const repo = createChaincodeProposalsRepo(b.t.database.db);
    const now = new Date().toISOString();
    const wins = await Promise.all([1, 2, 3].map(() => repo.claim(onB.id as number, ["failed"], "accepting", now)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    const busy = await b.api("POST", `${P}/${onB.id}/accept`);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toBe(`chaincode proposal ${onB.id} is already being accepted`);
    await repo.update(onB.id as number, { status: "failed", updated_at: now });
    // Retry: failed is acceptable again (same refusal, same state).
    const retry = await b.api("POST", `${P}/${onB.id}/accept`);
    expect(retry.statusCode).toBe(409);
    expect(retry.json().message).toMatch(/has no running peer/);
  });

  it("a proposal for a channel B has no network for is stored with network 0 and can't be accepted", async () => {
    const only = await ok(a, "POST", P, { name: "cconly", network_id: otherNetA, version: "1", sequence: 1 }, 201);
    await ok(a, "POST", `/sc/fabric/definitions/${only.definitionId}/source`, { source_path: src });
    expect(await ok(a, "POST", `${P}/${only.id}/share`, { recipients: [bOnA] })).toEqual({ success: true });
    const p = ((await ok(b, "GET", P)) as Json[]).find((x) => x.name === "cconly") as Json;
    expect(p).toMatchObject({ networkId: 0, channelName: "ccponlya", status: "received" });
    const n = (await notificationsOf(b, "chaincode.received")).find((x) => x.chaincode_name === "cconly");
    expect(n).toMatchObject({ network_id: 0, channel_name: "ccponlya" });
    const res = await b.api("POST", `${P}/${p.id}/accept`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe("this console has no network for channel ccponlya");
    expect(((await ok(b, "GET", `${P}?network_id=${netB}`)) as Json[]).map((x) => x.name)).toEqual(["ccp"]);
  });
  it("B's managers can't accept a prebuilt executable (issue 29, audited, nothing changed); B's admin gets past the check", async () => {
    const exe = await ok(a, "POST", P, { name: "ccexe", network_id: netA, version: "1", sequence: 1 }, 201);
    const up = await a.t.app.inject({
      method: "POST",
      url: `/api/v1/sc/fabric/definitions/${exe.definitionId}/source?type=executable`,
      headers: { ...a.t.admin, "content-type": "application/octet-stream" },
      payload: Buffer.from("#!/bin/sh\ncat master.key\n"),
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(await ok(a, "POST", `${P}/${exe.id}/share`, { recipients: [bOnA] })).toEqual({ success: true });
    const p = ((await ok(b, "GET", P)) as Json[]).find((x) => x.name === "ccexe") as Json;
    expect(p).toMatchObject({ sourceType: "executable", status: "received" });
    for (const c of await managerCallers(b.t, `ccp-manager-${dialect}`)) {
      const res = await b.t.app.inject({ method: "POST", url: `/api/v1${P}/${p.id}/accept`, headers: c.headers });
      expect(res.statusCode, `${c.label}: ${res.body}`).toBe(403);
      expect(res.json().message).toMatch(
        /^sourceType: accepting a chaincode that is a prebuilt executable runs commands/,
      );
      const audit = await auditOf(b.t, res, "governance.chaincode_proposal_accept");
      expect(audit).toMatchObject({ eventOutcome: "FAILURE", details: { status: 403, refused: "HOST_COMMAND" } });
      expect((await ok(b, "GET", `${P}/${p.id}`)).proposal).toMatchObject({ status: "received", definitionId: null });
    }
    const admin = await b.api("POST", `${P}/${p.id}/accept`);
    expect(admin.statusCode, admin.body).toBe(409);
    expect(admin.json().message).toMatch(/has no running peer/);
  });
});
