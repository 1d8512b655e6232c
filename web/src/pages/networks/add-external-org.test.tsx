import { describe, expect, it } from "vitest";
import { externalNodeKeys } from "@/data/external-nodes/keys";
import type { ExternalOrganization } from "@/data/external-nodes/types";
import { fabricNetworkKeys } from "@/data/fabric-networks/keys";
import { federationKeys } from "@/data/federation/keys";
import { AddExternalOrgCard, addableExternalOrgs } from "@/pages/networks/AddExternalOrgCard";
import { peerB } from "@/test-support/federation-fixtures";
import { failing, screenText, seed, type Seed } from "@/test-support/static-screen";

const org = (id: number, mspId: string): ExternalOrganization => ({
  id,
  externalNodeId: 7,
  mspId,
  name: mspId.replace("MSP", ""),
  signCertificate: "",
  tlsCertificate: "",
});
/** A channel config whose application orgs are Org1MSP. */
const config = {
  config: { channel_group: { groups: { Application: { groups: { Org1MSP: {} } }, Orderer: { groups: {} } } } },
};

describe("adding an external organization to a channel", () => {
  it("offers only organizations not in the channel yet", () => {
    const list = [org(2, "Org3MSP"), org(1, "Org1MSP"), org(3, "Org2MSP")];
    expect(addableExternalOrgs(list, ["Org1MSP"]).map((o) => o.mspId)).toEqual(["Org2MSP", "Org3MSP"]);
    expect(addableExternalOrgs([], ["Org1MSP"])).toEqual([]);
  });

  const card = (...seeds: Seed[]): string => screenText(<AddExternalOrgCard networkId={3} />, "/", "/", ...seeds);

  it("lists the candidates with their source console", () => {
    const text = card(
      seed(externalNodeKeys.list("fabric-organizations"), [org(1, "Org1MSP"), org(2, "Org2MSP")]),
      seed(fabricNetworkKeys.config(3, "current"), config),
      seed(federationKeys.peers(), [peerB]),
    );
    expect(text).toContain("Add organization from a connected console");
    expect(text).toContain("Org2MSP (Org2) from cl-bbbb");
    expect(text).not.toContain("Org1MSP (Org1)");
  });

  it("says where external organizations come from when there are none, or all are members", () => {
    expect(card(seed(externalNodeKeys.list("fabric-organizations"), []))).toContain(
      "No external organizations yet. Sync a connected console on Connect",
    );
    expect(
      card(
        seed(externalNodeKeys.list("fabric-organizations"), [org(1, "Org1MSP")]),
        seed(fabricNetworkKeys.config(3, "current"), config),
      ),
    ).toContain("Every external organization is already a member.");
    expect(card(failing(externalNodeKeys.list("fabric-organizations")))).toContain("database is locked");
  });
});
