import { createPublicKey } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bootConsole,
  channelBlock,
  connect,
  connectionId,
  notificationsOf,
  type Console,
} from "../../test-support/sharing.js";
import { createUser, dialects, insertNodeRow } from "../../test-support/test-app.js";
import { apiOf } from "../../test-support/federation.js";
import { waitFor } from "../../test-support/wait.js";

/**
 * Sharing networks between two real consoles over HTTP: A sends, B lists, accepts (an import
 * through the ordinary Fabric and Besu import) or rejects; C is disconnected and never receives.
 */
describe.each(dialects())("sharing networks between consoles (%s)", (dialect) => {
  let a: Console;
  let b: Console;
  let c: Console;
  let bOnA: number;
  let cOnA: number;
  let fabricId: number;
  let genesis: string;

  const shares = async (x: Console, direction?: string) => {
    const res = await x.api("GET", `/pro/shared-networks${direction ? `?direction=${direction}` : ""}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().networks as {
      id: string;
      status: string;
      networkName: string;
      platform: string;
      direction: string;
      dataJson: Record<string, unknown>;
      localNetworkId: number | null;
      error: string | null;
      sharedByNodeId: string;
      recipients: number[];
    }[];
  };
  const shareCount = async (x: Console) =>
    Number(
      (
        await x.t.database.db
          .selectFrom("federation_shares")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    [a, b, c] = await Promise.all([bootConsole(dialect), bootConsole(dialect), bootConsole(dialect)]);
    bOnA = await connect(a, b);
    cOnA = await connect(a, c);
    genesis = await channelBlock(a, "sharedchannel", "ShareOrgMSP");
    const imported = await a.api("POST", "/networks/fabric/import", { genesisFile: genesis });
    expect(imported.statusCode, imported.body).toBe(200);
    fabricId = imported.json().networkId;
  });
  afterAll(async () => {
    await Promise.all([a?.t.close(), b?.t.close(), c?.t.close()]);
  });

  it("shares a Fabric network: B lists it pending and is notified, A is notified of the share", async () => {
    const res = await a.api("POST", "/pro/sharing/network", {
      networkId: fabricId,
      recipients: [bOnA],
      metadata: { purpose: "test" },
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      networkId: fabricId,
      recipients: [bOnA],
      status: "sent",
      metadata: { purpose: "test" },
      genesisBlock: genesis,
      results: [{ recipient: bOnA, nodeId: b.id.nodeId, status: "sent", error: null }],
    });
    const [received] = await shares(b, "received");
    expect(received).toMatchObject({
      status: "pending",
      networkName: "sharedchannel",
      platform: "fabric",
      direction: "received",
      sharedByNodeId: a.id.nodeId,
      localNetworkId: null,
    });
    expect(received?.dataJson).toMatchObject({
      genesisBlock: genesis,
      orderers: [{ mspId: "ShareOrgMSP", endpoints: ["orderer0.example.com:7050"] }],
      metadata: { purpose: "test" },
    });
    expect(await shares(b, "sent")).toEqual([]);
    const note = await waitFor(
      "network.received on B",
      async () => (await notificationsOf(b, "network.received"))[0],
      5000,
    );
    expect(note).toEqual({
      from_node_id: a.id.nodeId,
      from_user: "admin",
      platform: "fabric",
      network_name: "sharedchannel",
      share_id: received?.id,
    });
    const sent = await waitFor(
      "network.shared on A",
      async () => (await notificationsOf(a, "network.shared"))[0],
      5000,
    );
    expect(sent).toEqual({
      network_id: fabricId,
      network_name: "sharedchannel",
      platform: "fabric",
      shared_with_nodes: 1,
    });
    const [mine] = await shares(a, "sent");
    expect(mine).toMatchObject({ id: body.shareId, status: "sent", direction: "sent", recipients: [bOnA] });
    expect((await a.api("GET", `/pro/shared-networks/${body.shareId}`)).json().network.id).toBe(body.shareId);
  });

  it("accepts on B: the network is imported with block 0 as its genesis; a second accept is a 409", async () => {
    const [share] = await shares(b, "received");
    const res = await b.api("POST", `/pro/shared-networks/${share!.id}/accept`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ networkId: expect.any(Number), status: "accepted" });
    const net = await b.api("GET", `/networks/fabric/${res.json().networkId}`);
    expect(net.json()).toMatchObject({ name: "sharedchannel", genesisBlock: genesis });
    const again = await b.api("POST", `/pro/shared-networks/${share!.id}/accept`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/is accepted, not pending/);
    expect((await shares(b, "received"))[0]).toMatchObject({
      status: "accepted",
      localNetworkId: res.json().networkId,
    });
    // A was told: its sent record shows the answer.
    const [sentOnA] = await shares(a, "sent");
    expect(sentOnA).toMatchObject({ status: "accepted" });
    expect(sentOnA?.dataJson.recipients).toEqual([expect.objectContaining({ recipient: bOnA, status: "accepted" })]);
    // Deleting the accepted record keeps the imported network.
    expect((await b.api("DELETE", `/pro/shared-networks/${share!.id}`)).statusCode).toBe(204);
    expect((await b.api("GET", `/pro/shared-networks/${share!.id}`)).statusCode).toBe(404);
    expect((await b.api("GET", `/networks/fabric/${res.json().networkId}`)).statusCode).toBe(200);
  });

  it("rejects another share; a rejected share can't be accepted; a failed import stays pending and retryable", async () => {
    expect((await a.api("POST", "/pro/sharing/network", { networkId: fabricId, recipients: [bOnA] })).statusCode).toBe(
      201,
    );
    const [share] = await shares(b, "received");
    expect(share?.status).toBe("pending");
    // The channel exists on B already (accepted above): the import fails, the share stays pending with the reason.
    const failed = await b.api("POST", `/pro/shared-networks/${share!.id}/accept`);
    expect(failed.statusCode).toBe(409);
    expect((await shares(b, "received"))[0]).toMatchObject({
      status: "pending",
      error: expect.stringMatching(/sharedchannel/),
    });
    const rejected = await b.api("POST", `/pro/shared-networks/${share!.id}/reject`);
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toEqual({ status: "rejected" });
    expect((await shares(a, "sent"))[0]).toMatchObject({ status: "rejected" });
    expect((await b.api("POST", `/pro/shared-networks/${share!.id}/reject`)).statusCode).toBe(409);
    const accept = await b.api("POST", `/pro/shared-networks/${share!.id}/accept`);
    expect(accept.statusCode).toBe(409);
    expect(accept.json().message).toMatch(/is rejected/);
    expect((await b.api("POST", "/pro/shared-networks/00000000-0000-0000-0000-000000000000/accept")).statusCode).toBe(
      404,
    );
  });

  it("fails a recipient whose connection is revoked, changing nothing there; all failed is a 502 stored as failed", async () => {
    expect((await a.api("DELETE", `/node/connected-peers/${c.id.nodeId}`)).statusCode).toBe(200);
    const before = await shareCount(c);
    const res = await a.api("POST", "/pro/sharing/network", { networkId: fabricId, recipients: [bOnA, cOnA] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().results).toEqual([
      expect.objectContaining({ recipient: bOnA, status: "sent" }),
      expect.objectContaining({ recipient: cOnA, status: "failed", error: expect.stringMatching(/revoked/) }),
    ]);
    const only = await a.api("POST", "/pro/sharing/network", { networkId: fabricId, recipients: [cOnA] });
    expect(only.statusCode).toBe(502);
    expect(only.json().message).toMatch(/no recipient received network 'sharedchannel'.*revoked/);
    expect((await shares(a, "sent"))[0]).toMatchObject({ status: "failed", error: expect.stringMatching(/revoked/) });
    expect(await shareCount(c)).toBe(before);
    const unknown = await a.api("POST", "/pro/sharing/network", { networkId: fabricId, recipients: [bOnA, 9999] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/^body\.recipients\[1\]: no connected console with id 9999/);
    const missing = await a.api("POST", "/pro/sharing/network", { networkId: 9999, recipients: [bOnA] });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toMatch(/^body\.networkId: /);
  });

  it("shares a Besu network with its bootnodes; B accepts it as a Besu network with the same genesis", async () => {
    const key = await a.api("POST", "/keys", { name: `val-${dialect}`, algorithm: "EC", curve: "secp256k1" });
    expect(key.statusCode, key.body).toBe(201);
    const net = await a.api("POST", "/networks/besu", {
      name: "shared-besu",
      config: { chainId: 31337, initialValidatorsKeyIds: [key.json().id] },
    });
    expect(net.statusCode, net.body).toBe(200);
    // The enode id is the node key's public point (the receiver checks it lies on secp256k1).
    const point = createPublicKey(key.json().publicKey as string)
      .export({ format: "der", type: "spki" })
      .subarray(-64)
      .toString("hex");
    const enode = `enode://${point}@10.0.0.5:30303`;
    await insertNodeRow(a.t, {
      name: "besu-boot",
      nodeType: "BESU_FULLNODE",
      networkId: net.json().id,
      keyId: key.json().id,
      deployment: { kind: "besu", enodeUrl: enode, props: {} },
    });
    const res = await a.api("POST", "/pro/sharing/besu-network", { networkId: net.json().id, recipients: [bOnA] });
    expect(res.statusCode, res.body).toBe(201);
    const share = (await shares(b, "received")).find((s) => s.platform === "besu");
    expect(share).toMatchObject({ networkName: "shared-besu", status: "pending" });
    expect(share?.dataJson).toMatchObject({ chainId: 31337, bootnodes: [enode] });
    // Two accepts at once: one imports, the other is refused.
    const both = await Promise.all([1, 2].map(() => b.api("POST", `/pro/shared-networks/${share!.id}/accept`)));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const accepted = both.find((r) => r.statusCode === 200)!;
    const onB = (await b.api("GET", `/networks/besu/${accepted.json().networkId}`)).json();
    expect(onB).toMatchObject({ name: "shared-besu", chainId: 31337 });
    expect(JSON.parse(onB.genesisConfig)).toEqual(JSON.parse(net.json().genesisConfig));
    const note = (await notificationsOf(b, "network.received")).find((n) => n.platform === "besu");
    expect(note).toMatchObject({ network_name: "shared-besu", from_node_id: a.id.nodeId });
  });

  it("lets viewers list and only admins and managers share, accept, reject and delete", async () => {
    const viewer = apiOf(b.t, await createUser(b.t, "shareviewer", "viewer"));
    expect((await viewer("GET", "/pro/shared-networks")).statusCode).toBe(200);
    expect((await viewer("GET", "/pro/keys/shared-with-me")).statusCode).toBe(200);
    const [share] = await shares(b, "received");
    expect((await viewer("POST", `/pro/shared-networks/${share!.id}/reject`)).statusCode).toBe(403);
    expect((await viewer("DELETE", `/pro/shared-networks/${share!.id}`)).statusCode).toBe(403);
    expect((await viewer("POST", "/pro/sharing/network", { networkId: 1, recipients: [1] })).statusCode).toBe(403);
    const audit = await a.t.database.db
      .selectFrom("audit_logs")
      .select(["event_outcome as outcome"])
      .where("event_type", "=", "federation.share_network")
      .execute();
    expect(audit.map((x) => x.outcome)).toContain("FAILURE");
    expect(audit.map((x) => x.outcome)).toContain("SUCCESS");
    expect(await connectionId(b, a)).toBeGreaterThan(0);
  });
});
