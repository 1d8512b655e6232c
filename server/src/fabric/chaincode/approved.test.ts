import { describe, expect, it } from "vitest";
import {
  approveDecision,
  commitDecision,
  definitionDifferences,
  type ApprovedDefinition,
  type StoredDefinition,
} from "./approved.js";
import { applicationPolicyBytes, collectionConfigPackage, type DefinitionInput } from "./definition.js";

const wanted: DefinitionInput = {
  name: "asset",
  version: "1.0",
  sequence: 2,
  endorsementPolicy: "OR('Org1MSP.peer','Org2MSP.peer')",
  initRequired: false,
  collections: [],
};
const PKG = "asset_1.0:" + "a".repeat(64);

/** What a peer stores for `d`: the bytes `_lifecycle` keeps (the default policy filled in). */
function stored(d: DefinitionInput, packageId = PKG): ApprovedDefinition {
  return {
    sequence: d.sequence,
    version: d.version,
    validationParameter: applicationPolicyBytes(d.endorsementPolicy || "/Channel/Application/Endorsement"),
    initRequired: d.initRequired,
    collections: collectionConfigPackage(d.collections)?.serializeBinary() ?? new Uint8Array(),
    packageId,
  };
}

describe("definition differences", () => {
  it("finds none for the same definition, including an empty policy stored as the channel default", () => {
    expect(definitionDifferences(wanted, stored(wanted), PKG)).toEqual([]);
    const dflt = { ...wanted, endorsementPolicy: "" };
    expect(definitionDifferences(dflt, stored(dflt), PKG)).toEqual([]);
  });

  it("names each field that differs, with the stored and the wanted value", () => {
    const other = stored({
      ...wanted,
      version: "0.9",
      endorsementPolicy: "AND('Org1MSP.peer','Org2MSP.peer')",
      initRequired: true,
      collections: [{ name: "private", policy: "OR('Org1MSP.member')" }],
    });
    expect(definitionDifferences(wanted, { ...other, packageId: "asset_0.9:" + "b".repeat(64) }, PKG)).toEqual([
      "version (0.9 → 1.0)",
      "endorsement_policy (AND('Org1MSP.peer', 'Org2MSP.peer') → OR('Org1MSP.peer','Org2MSP.peer'))",
      "init_required (true → false)",
      "collections",
      `package_id (asset_0.9:${"b".repeat(64)} → ${PKG})`,
    ]);
  });

  it("leaves the package out when none is given (a committed definition has none)", () => {
    expect(definitionDifferences(wanted, { ...stored(wanted), packageId: "" })).toEqual([]);
  });
});

describe("approve decisions", () => {
  it("approves when the org approved nothing at this sequence", () => {
    expect(approveDecision(wanted, PKG, undefined, 1)).toEqual({ kind: "approve" });
  });

  it("answers already for the same definition and package, committed or not", () => {
    expect(approveDecision(wanted, PKG, stored(wanted), 1)).toEqual({ kind: "already" });
    expect(approveDecision(wanted, PKG, stored(wanted), 2)).toEqual({ kind: "already" });
  });

  it("replaces an uncommitted approval with other parameters, naming them", () => {
    const before = stored({ ...wanted, version: "0.9" });
    expect(approveDecision(wanted, PKG, before, 1)).toEqual({ kind: "replace", differences: ["version (0.9 → 1.0)"] });
  });

  it("refuses other parameters at a committed sequence, but lets the org change its package there", () => {
    const before = stored({ ...wanted, initRequired: true });
    expect(approveDecision(wanted, PKG, before, 2)).toEqual({
      kind: "conflict",
      differences: ["init_required (true → false)"],
    });
    const otherPkg = stored(wanted, "");
    expect(approveDecision(wanted, PKG, otherPkg, 2)).toEqual({
      kind: "replace",
      differences: [`package_id (none → ${PKG})`],
    });
  });
});

describe("commit decisions", () => {
  const committed = (d: DefinitionInput): StoredDefinition => stored(d);

  it("commits when nothing or an earlier sequence is committed", () => {
    expect(commitDecision(wanted, undefined)).toEqual({ kind: "commit" });
    expect(commitDecision(wanted, committed({ ...wanted, sequence: 1, version: "0.1" }))).toEqual({ kind: "commit" });
  });

  it("answers already for the same definition at its sequence", () => {
    expect(commitDecision(wanted, committed(wanted))).toEqual({ kind: "already" });
  });

  it("refuses the same sequence with other parameters, and a definition behind the channel", () => {
    expect(commitDecision(wanted, committed({ ...wanted, version: "2.0" }))).toEqual({
      kind: "conflict",
      differences: ["version (2.0 → 1.0)"],
    });
    expect(commitDecision(wanted, committed({ ...wanted, sequence: 3 }))).toEqual({
      kind: "superseded",
      committedSequence: 3,
    });
  });
});
