import { expect } from "vitest";
import { sql } from "kysely";
import { buildGenesisBlock } from "../fabric/configtx/index.js";
import { buildChannelMsp } from "../fabric/msp/index.js";
import type { Identity } from "../modules/federation/federation.identity.js";
import { apiOf, identityOf, listenAndSetEndpoint, type Api } from "./federation.js";
import { createTestApp, type TestApp, type TestDialect } from "./test-app.js";

/** Test-only helpers for sharing between consoles: booted and connected consoles, a Fabric channel block. */

export interface Console {
  t: TestApp;
  api: Api;
  url: string;
  id: Identity;
}

/**
 * A console listening on loopback with its federation endpoint set. The default slow ping keeps the
 * connection status still while the tests look at it; status tests ping faster.
 */
export async function bootConsole(dialect: TestDialect, pingSeconds = "30"): Promise<Console> {
  const t = await createTestApp(dialect, { CHAINLAUNCH_FEDERATION_PING_SECONDS: pingSeconds });
  const url = await listenAndSetEndpoint(t);
  return { t, api: apiOf(t), url, id: await identityOf(t) };
}

/** Connects `from` to `to` (`to` accepts `from`'s invitation); answers the connection id of `to` on `from`. */
export async function connect(from: Console, to: Console): Promise<number> {
  const inv = await from.api("POST", "/node/generate-invitation", { bidirectional: true });
  expect(inv.statusCode, inv.body).toBe(200);
  const res = await to.api("POST", "/node/accept-invitation", { invitation_jwt: inv.json().invitation_jwt });
  expect(res.statusCode, res.body).toBe(200);
  return connectionId(from, to);
}

export async function connectionId(on: Console, of: Console): Promise<number> {
  const peers = (await on.api("GET", "/node/connected-peers")).json().connected_peers as {
    id: number;
    node_id: string;
  }[];
  const p = peers.find((x) => x.node_id === of.id.nodeId);
  if (!p) throw new Error(`${of.id.nodeId} is not connected to ${on.id.nodeId}`);
  return p.id;
}

/**
 * Block 0 of a channel with one organization of `c` as peer and orderer org (built by the
 * configtx library, no binaries); the org's TLS CA certificate stands in for the consenter's.
 */
export async function channelBlock(c: Console, channelId: string, mspId: string): Promise<string> {
  const res = await c.api("POST", "/organizations", { mspId, name: mspId });
  expect(res.statusCode, res.body).toBe(201);
  const org = res.json() as { signCertificate: string; tlsCertificate: string };
  const msp = buildChannelMsp({ mspId, caCertPem: org.signCertificate, tlsCaCertPem: org.tlsCertificate });
  const block = buildGenesisBlock({
    channelId,
    fabricVersion: "3.1.0",
    peerOrgs: [{ msp }],
    ordererOrgs: [{ msp, ordererEndpoints: ["orderer0.example.com:7050"] }],
    consensus: {
      type: "etcdraft",
      consenters: [
        {
          host: "orderer0.example.com",
          port: 7050,
          clientTlsCert: org.tlsCertificate,
          serverTlsCert: org.tlsCertificate,
        },
      ],
    },
  });
  return Buffer.from(block.serializeBinary()).toString("base64");
}

/** Every row of every table of a console's database, as text (to look for what must never be stored). */
export async function dumpDatabase(t: TestApp): Promise<string> {
  const tables = await t.database.db.introspection.getTables();
  const out: string[] = [];
  for (const table of tables) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(t.database.db);
    out.push(`${table.name}: ${JSON.stringify(rows.rows)}`);
  }
  return out.join("\n");
}

/** The notifications of a console's admin of one event type. */
export async function notificationsOf(c: Console, type: string): Promise<Record<string, unknown>[]> {
  const res = await c.api("GET", "/user-notifications?limit=100");
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().notifications as { event_type: string; event_data: Record<string, unknown> }[])
    .filter((n) => n.event_type === type)
    .map((n) => n.event_data);
}
