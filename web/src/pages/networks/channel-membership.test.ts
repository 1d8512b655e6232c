import { describe, expect, it } from "vitest";
import { addableOwnOrgs, addNodeChoices, blockedOrgs } from "@/pages/networks/channel-membership";

const peer = (id: number, name: string, mspId: string, organizationId: number) => ({
  id,
  name,
  nodeType: "FABRIC_PEER" as const,
  fabricPeer: { mspId, organizationId },
});
const orderer = {
  id: 3,
  name: "o0",
  nodeType: "FABRIC_ORDERER" as const,
  fabricOrderer: { mspId: "Org9MSP", organizationId: 9 },
};

describe("channel membership", () => {
  const nodes = [peer(1, "p1", "Org1MSP", 1), peer(2, "p2", "Org2MSP", 2), peer(4, "p4", "Org2MSP", 2), orderer];

  it("blocks peers of orgs outside the channel and keeps members out", () => {
    const c = addNodeChoices(nodes as never, [1], ["Org1MSP"]);
    expect(c.map((x) => [x.name, x.blocked ?? ""])).toEqual([
      ["p2", "Org2MSP is not a member of the channel"],
      ["p4", "Org2MSP is not a member of the channel"],
      ["o0", ""],
    ]);
    expect(blockedOrgs(c)).toEqual([{ mspId: "Org2MSP", organizationId: 2 }]);
  });

  it("blocks nothing while the channel config is unknown", () => {
    expect(addNodeChoices(nodes as never, [], undefined).filter((x) => x.blocked)).toEqual([]);
  });

  it("offers this console's orgs that are not members", () => {
    const held = [
      { id: 2, mspId: "Org2MSP" },
      { id: 1, mspId: "Org1MSP" },
      { id: 0, mspId: "AOrgMSP" },
    ];
    expect(addableOwnOrgs(held, ["Org1MSP"]).map((o) => o.mspId)).toEqual(["AOrgMSP", "Org2MSP"]);
  });
});
