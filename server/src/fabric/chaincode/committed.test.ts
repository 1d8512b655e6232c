import { peer } from "@hyperledger/fabric-protos";
import { describe, expect, it } from "vitest";
import { collectionsFromPackage } from "./committed.js";
import { collectionConfigPackage, type CollectionInput } from "./definition.js";

const bytes = (c: CollectionInput[]): Uint8Array => collectionConfigPackage(c)?.serializeBinary() ?? new Uint8Array();
/** The collections a peer reports for `c`: encoded, sent as bytes, decoded. */
const reported = (c: CollectionInput[]): CollectionInput[] =>
  collectionsFromPackage(peer.CollectionConfigPackage.deserializeBinary(bytes(c)));

describe("collections read back from a committed definition", () => {
  it("give the same bytes again, so an adopted definition compares equal with what is committed", () => {
    const collections: CollectionInput[] = [
      { name: "private", policy: "OR('Org1MSP.member','Org2MSP.member')", maxPeerCount: 2, requiredPeerCount: 1 },
      {
        name: "org1only",
        policy: "OR('Org1MSP.member')",
        blockToLive: 100,
        memberOnlyRead: false,
        memberOnlyWrite: false,
        endorsementPolicy: { signaturePolicy: "AND('Org1MSP.peer','Org2MSP.peer')" },
      },
      {
        name: "bychannel",
        policy: "OR('Org1MSP.member')",
        endorsementPolicy: { channelConfigPolicy: "/Channel/Application/Endorsement" },
      },
    ];
    const back = reported(collections);
    expect(back.map((c) => c.name)).toEqual(["private", "org1only", "bychannel"]);
    expect(back[0]).toEqual({
      name: "private",
      policy: "OR('Org1MSP.member', 'Org2MSP.member')",
      requiredPeerCount: 1,
      maxPeerCount: 2,
      blockToLive: 0,
      memberOnlyRead: true,
      memberOnlyWrite: true,
    });
    expect(back[1]?.endorsementPolicy).toEqual({ signaturePolicy: "AND('Org1MSP.peer', 'Org2MSP.peer')" });
    expect(back[2]?.endorsementPolicy).toEqual({ channelConfigPolicy: "/Channel/Application/Endorsement" });
    expect(Buffer.from(bytes(back)).equals(Buffer.from(bytes(collections)))).toBe(true);
  });

  it("are none when the definition has none", () => {
    expect(collectionsFromPackage(undefined)).toEqual([]);
    expect(collectionsFromPackage(new peer.CollectionConfigPackage())).toEqual([]);
  });
});
