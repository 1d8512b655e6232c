import { describe, expect, it } from "vitest";
import {
  allDone,
  buildPlan,
  channelBody,
  channelErrors,
  countError,
  EMPTY_WIZARD,
  initialContext,
  nextAction,
  nodeBody,
  nodeErrors,
  nodeSpecsFrom,
  orgError,
  progressSummary,
  wizardReducer,
  type ProgressAction,
  type WizardForm,
  type WizardState,
} from "@/pages/fabric-wizard/wizard-plan";

const DEFAULTS = {
  peers: [
    {
      listenAddress: "0.0.0.0:7051",
      chaincodeAddress: "0.0.0.0:7052",
      operationsListenAddress: "0.0.0.0:9443",
      externalEndpoint: "localhost:7051",
    },
    {
      listenAddress: "0.0.0.0:7061",
      chaincodeAddress: "0.0.0.0:7062",
      operationsListenAddress: "0.0.0.0:9444",
      externalEndpoint: "localhost:7061",
    },
  ],
  orderers: [
    {
      listenAddress: "0.0.0.0:7050",
      adminAddress: "0.0.0.0:7053",
      operationsListenAddress: "0.0.0.0:9445",
      externalEndpoint: "localhost:7050",
    },
  ],
};

function form(org: WizardForm["org"] = { mode: "new", mspId: "Org1MSP", name: "Org 1", description: "" }): WizardForm {
  return { org, nodes: nodeSpecsFrom(DEFAULTS, org.mspId), channel: { name: "mychannel", batchTimeout: "2s" } };
}

function run(s: WizardState, ...actions: ProgressAction[]): WizardState {
  return actions.reduce(wizardReducer, s);
}

describe("node specs", () => {
  it("names orderers then peers after the org and keeps the proposed addresses", () => {
    const specs = nodeSpecsFrom(DEFAULTS, "Org1MSP");
    expect(specs.map((n) => [n.key, n.name])).toEqual([
      ["orderer-0", "orderer0-org1"],
      ["peer-0", "peer0-org1"],
      ["peer-1", "peer1-org1"],
    ]);
    expect(specs[1]!.chaincodeAddress).toBe("0.0.0.0:7052");
    expect(specs[0]!.adminAddress).toBe("0.0.0.0:7053");
  });

  it("skips names already taken by the org's nodes", () => {
    const specs = nodeSpecsFrom(DEFAULTS, "Org1MSP", ["peer0-org1", "orderer0-org1"]);
    expect(specs.map((n) => n.name)).toEqual(["orderer1-org1", "peer1-org1", "peer2-org1"]);
  });
});

describe("validation", () => {
  it("checks the organization", () => {
    expect(orgError({ mode: "new", mspId: "", name: "", description: "" }, [])).toMatch(/required/);
    expect(orgError({ mode: "new", mspId: "Org 1", name: "", description: "" }, [])).toMatch(/letters/);
    expect(orgError({ mode: "new", mspId: "Org1MSP", name: "", description: "" }, ["Org1MSP"])).toMatch(/exists/);
    expect(orgError({ mode: "new", mspId: "Org1MSP", name: "", description: "" }, [])).toBeUndefined();
    expect(orgError({ mode: "existing", orgId: 0, mspId: "" }, [])).toMatch(/Choose/);
    expect(orgError({ mode: "existing", orgId: 3, mspId: "X" }, [])).toBeUndefined();
  });

  it("needs at least one orderer and one peer", () => {
    expect(countError("0", "orderer")).toMatch(/At least 1/);
    expect(countError("x", "peer")).toMatch(/whole/);
    expect(countError("11", "peer")).toMatch(/At most/);
    expect(countError("3", "orderer")).toBeUndefined();
  });

  it("flags bad addresses, duplicate ports and duplicate names", () => {
    const specs = nodeSpecsFrom(DEFAULTS, "Org1MSP");
    expect(nodeErrors(specs)).toEqual({});
    specs[1] = { ...specs[1]!, listenAddress: "nope", name: "peer1-org1" };
    specs[2] = { ...specs[2]!, chaincodeAddress: "0.0.0.0:7053" };
    const e = nodeErrors(specs);
    expect(e["peer-0.listenAddress"]).toBe("host:port");
    expect(e["peer-0.name"]).toMatch(/differ/);
    expect(e["peer-1.chaincodeAddress"]).toMatch(/twice/);
    expect(e["orderer-0.adminAddress"]).toMatch(/twice/);
  });

  it("applies Fabric's channel name rule", () => {
    expect(channelErrors({ name: "Bad_Name", batchTimeout: "2s" }).name).toMatch(/starting with a letter/);
    expect(channelErrors({ name: "9ch", batchTimeout: "2s" }).name).toBeDefined();
    expect(channelErrors({ name: "a".repeat(250), batchTimeout: "2s" }).name).toBeDefined();
    expect(channelErrors({ name: "my-ch.1", batchTimeout: "2 secs" })).toEqual({ batchTimeout: expect.any(String) });
    expect(channelErrors({ name: "mychannel", batchTimeout: "500ms" })).toEqual({});
  });
});

describe("buildPlan", () => {
  it("orders org → nodes one by one → waits → channel → orderer joins → peer joins", () => {
    expect(buildPlan(form()).map((a) => a.key)).toEqual([
      "org",
      "create:orderer-0",
      "create:peer-0",
      "create:peer-1",
      "wait:orderer-0",
      "wait:peer-0",
      "wait:peer-1",
      "channel",
      "join:orderer-0",
      "join:peer-0",
      "join:peer-1",
    ]);
  });

  it("skips creating an existing organization", () => {
    const plan = buildPlan(form({ mode: "existing", orgId: 4, mspId: "Org1MSP" }));
    expect(plan[0]!.key).toBe("create:orderer-0");
    expect(plan.some((a) => a.kind === "create-org")).toBe(false);
    expect(initialContext(form({ mode: "existing", orgId: 4, mspId: "Org1MSP" })).orgId).toBe(4);
  });

  it("labels each row", () => {
    const labels = buildPlan(form()).map((a) => a.label);
    expect(labels[0]).toBe("Create organization Org1MSP");
    expect(labels).toContain("Create orderer orderer0-org1");
    expect(labels).toContain("Wait for peer0-org1 to run");
    expect(labels).toContain("Create channel mychannel");
    expect(labels.at(-1)).toBe("Join peer peer1-org1");
  });

  it("builds node and channel bodies from what earlier actions produced", () => {
    const f = form();
    const peer = nodeBody(f.nodes[1]!, 7, "Org1MSP");
    expect(peer.fabricPeer).toMatchObject({ organizationId: 7, mspId: "Org1MSP", chaincodeAddress: "0.0.0.0:7052" });
    const orderer = nodeBody(f.nodes[0]!, 7, "Org1MSP");
    expect(orderer.fabricOrderer).toMatchObject({ organizationId: 7, adminAddress: "0.0.0.0:7053" });
    const body = channelBody(f, {
      mspId: "Org1MSP",
      orgId: 7,
      nodeIds: { "orderer-0": 10, "peer-0": 11, "peer-1": 12 },
    });
    expect(body).toMatchObject({
      name: "mychannel",
      joinNodes: false,
      config: {
        consensusType: "etcdraft",
        batchTimeout: "2s",
        peerOrganizations: [{ id: 7, nodeIds: [11, 12] }],
        ordererOrganizations: [{ id: 7, nodeIds: [10] }],
      },
    });
  });
});

describe("wizardReducer", () => {
  const f = form();
  const planned = run(EMPTY_WIZARD, { type: "plan", actions: buildPlan(f), ctx: initialContext(f) });

  it("starts every row pending and runs the first", () => {
    expect(progressSummary(planned.rows)).toEqual({ pending: 11, running: 0, done: 0, failed: 0 });
    expect(nextAction(planned)?.key).toBe("org");
  });

  it("collects the org, node and network ids", () => {
    const s = run(
      planned,
      { type: "start", key: "org" },
      { type: "done", key: "org", patch: { orgId: 5 } },
      { type: "start", key: "create:orderer-0" },
      { type: "done", key: "create:orderer-0", patch: { nodeId: ["orderer-0", 21] } },
    );
    expect(s.ctx).toMatchObject({ orgId: 5, mspId: "Org1MSP", nodeIds: { "orderer-0": 21 } });
    expect(nextAction(s)?.key).toBe("create:peer-0");
  });

  it("stops at a failure and retries only that row, then continues", () => {
    let s = run(
      planned,
      { type: "done", key: "org", patch: { orgId: 5 } },
      { type: "start", key: "create:orderer-0" },
      { type: "failed", key: "create:orderer-0", error: "port 7050 in use" },
    );
    expect(s.rows[1]).toMatchObject({ state: "failed", message: "port 7050 in use" });
    expect(nextAction(s)).toBeUndefined();
    expect(nextAction(s, "org")).toBeUndefined();
    expect(nextAction(s, "create:orderer-0")?.key).toBe("create:orderer-0");
    s = run(s, { type: "start", key: "create:orderer-0" });
    expect(s.rows[1]).toMatchObject({ state: "running", message: undefined });
    s = run(s, { type: "done", key: "create:orderer-0", patch: { nodeId: ["orderer-0", 30] } });
    expect(nextAction(s)?.key).toBe("create:peer-0");
    expect(s.rows[0]!.state).toBe("done");
  });

  it("never redoes or changes a done row", () => {
    const s = run(planned, { type: "done", key: "org", patch: { orgId: 5 } });
    const again = run(
      s,
      { type: "start", key: "org" },
      { type: "failed", key: "org", error: "x" },
      { type: "done", key: "org", patch: { orgId: 99 } },
    );
    expect(again.rows[0]!.state).toBe("done");
    expect(again.ctx.orgId).toBe(5);
  });

  it("shows notes only while running", () => {
    let s = run(planned, { type: "note", key: "org", message: "STARTING" });
    expect(s.rows[0]!.message).toBeUndefined();
    s = run(s, { type: "start", key: "org" }, { type: "note", key: "org", message: "STARTING" });
    expect(s.rows[0]!.message).toBe("STARTING");
  });

  it("is done when every row is", () => {
    expect(allDone(planned)).toBe(false);
    expect(allDone(EMPTY_WIZARD)).toBe(false);
    const s = planned.rows.reduce((acc, r) => wizardReducer(acc, { type: "done", key: r.key }), planned);
    expect(allDone(s)).toBe(true);
    expect(nextAction(s)).toBeUndefined();
  });
});
