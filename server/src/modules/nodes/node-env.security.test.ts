import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditOf, managerCallers, type Caller } from "../../test-support/callers.js";
import { createTestApp, dialects, type TestApp } from "../../test-support/test-app.js";
import { refusedEnvReason } from "./node-env-policy.js";

/**
 * A node process runs unsandboxed as the console's OS user, so a variable that makes it load code
 * or read another place on the host is a host command: only an admin may set one. Tried as a
 * manager's session and as a manager's API key; each refusal is a 403 naming the field, audited,
 * and creates nothing.
 */
describe("node env variables a manager may not set", () => {
  it.each([
    ["LD_PRELOAD", "/tmp/x.so"],
    ["LD_LIBRARY_PATH", "lib"],
    ["JAVA_TOOL_OPTIONS", "-javaagent:x.jar"],
    ["CORE_CHAINCODE_EXTERNALBUILDERS", "[{name: x, path: y}]"],
    ["CORE_PEER_MSPCONFIGPATH", "/root/.chainlaunch/orgs/1/msp"],
    ["ORDERER_FILELEDGER_LOCATION", "../../etc"],
    ["PATH", "bin"],
  ])("refuses %s=%s", (name, value) => {
    expect(refusedEnvReason(name, value)).toBeDefined();
  });
  it.each([
    ["FABRIC_LOGGING_SPEC", "info:gossip=warn"],
    ["CORE_PEER_GOSSIP_USELEADERELECTION", "true"],
    ["BESU_RPC_HTTP_API", "ETH,NET,QBFT"],
    ["ORDERER_GENERAL_KEEPALIVE_SERVERINTERVAL", "7200s"],
  ])("allows %s=%s", (name, value) => {
    expect(refusedEnvReason(name, value)).toBeUndefined();
  });
});

describe.each(dialects())("node env as a manager on %s", (dialect) => {
  let t: TestApp;
  let org: { id: number; mspId: string };
  let callers: Caller[] = [];
  const admin = (method: "GET" | "POST", url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: t.admin, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    callers = await managerCallers(t);
    const created = await admin("POST", "/organizations", { mspId: "EnvOrgMSP", name: "EnvOrg" });
    expect(created.statusCode).toBe(201);
    org = { id: created.json().id as number, mspId: "EnvOrgMSP" };
  });
  afterAll(async () => t?.close());

  const peer = (name: string, env: Record<string, string>) => ({
    name,
    blockchainPlatform: "FABRIC",
    fabricPeer: { organizationId: org.id, mspId: org.mspId, env },
  });

  it.each([0, 1])("refuses LD_PRELOAD and host paths on create, audited, nothing created (caller %i)", async (i) => {
    const caller = callers[i]!;
    const before = (await admin("GET", "/nodes")).json().total as number;
    for (const [name, value] of [
      ["LD_PRELOAD", "/root/.chainlaunch/chaincodes/1/evil.so"],
      ["CORE_PEER_MSPCONFIGPATH", "/root/.chainlaunch/organizations/2/msp"],
    ] as const) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/nodes?start=false",
        headers: caller.headers,
        payload: peer(`env-${i}-${name.toLowerCase()}`, { [name]: value }),
      });
      expect(res.statusCode, `${caller.label}: ${res.body}`).toBe(403);
      expect(res.json().message).toContain(`fabricPeer.env.${name}`);
      // The audit entry is written once the response is sent: wait for this request's own.
      const entry = await auditOf(t, res, "node.create");
      expect(entry.eventOutcome).toBe("FAILURE");
      expect(entry.details.status).toBe(403);
    }
    expect((await admin("GET", "/nodes")).json().total).toBe(before);
  });

  it("lets an admin set them, and a manager send them back unchanged on an update", async () => {
    const res = await admin("POST", "/nodes?start=false", peer("env-admin", { LD_LIBRARY_PATH: "/opt/hsm/lib" }));
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as number;
    const update = (env: Record<string, string>) =>
      t.app.inject({
        method: "PUT",
        url: `/api/v1/nodes/${id}`,
        headers: callers[1]!.headers,
        payload: { fabricPeer: { env } },
      });
    // Echoing the admin's value is not a change; adding a library path is.
    const same = await update({ LD_LIBRARY_PATH: "/opt/hsm/lib", FABRIC_LOGGING_SPEC: "debug" });
    expect(same.statusCode, same.body).not.toBe(403);
    const changed = await update({ LD_LIBRARY_PATH: "/tmp" });
    expect(changed.statusCode).toBe(403);
    expect(changed.json().message).toContain("fabricPeer.env.LD_LIBRARY_PATH");
  });
});
