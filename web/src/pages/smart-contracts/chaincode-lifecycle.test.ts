import { describe, expect, it } from "vitest";
import type { DefinitionStatus } from "@/data/chaincodes/types";
import { lifecycleSteps, peersByOrg } from "@/pages/smart-contracts/chaincode-lifecycle";

const base: DefinitionStatus = {
  definition_id: 1,
  channel: "ch",
  package_id: "cc_1:ab",
  peers: [
    { peer_id: 1, peer_name: "p1", msp_id: "Org1MSP", status: "RUNNING", installed: true, package_ids: ["cc_1:ab"] },
    { peer_id: 2, peer_name: "p2", msp_id: "Org2MSP", status: "STOPPED", installed: false, package_ids: [] },
  ],
  orgs: [
    { msp_id: "Org1MSP", approved: true },
    { msp_id: "Org2MSP", approved: false },
  ],
  committed: null,
  next_sequence: 1,
  deploy: { status: "none", pid: null, restarts: 0, error: null },
};

describe("lifecycle steps", () => {
  it("reads partial progress from the peers", () => {
    expect(lifecycleSteps(base, 1)).toEqual({ install: "partial", approve: "partial", commit: "todo", deploy: "todo" });
  });
  it("is done once committed and running", () => {
    const s = {
      ...base,
      peers: base.peers.map((p) => ({ ...p, installed: true })),
      committed: { sequence: 1, version: "1", endorsement_policy: "" },
      deploy: { ...base.deploy, status: "running" as const },
    };
    expect(lifecycleSteps(s, 1)).toEqual({ install: "done", approve: "done", commit: "done", deploy: "done" });
  });
  it("groups peers by org with a running one to act", () => {
    expect(peersByOrg(base).map((o) => [o.mspId, o.actor])).toEqual([
      ["Org1MSP", 1],
      ["Org2MSP", 2],
    ]);
  });
});
