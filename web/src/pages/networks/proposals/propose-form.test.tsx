import { beforeEach, describe, expect, it, vi } from "vitest";
import { createChaincodeProposal } from "@/data/chaincode-proposals/chaincode-proposal-create-mutation";
import { chaincodeKeys } from "@/data/chaincodes/keys";
import type { Chaincode, ChaincodeDefinition } from "@/data/chaincodes/types";
import { fabricNetworkKeys } from "@/data/fabric-networks/keys";
import { ChaincodeProposePage } from "@/pages/networks/proposals/ChaincodeProposePage";
import {
  defaultSequence,
  fromDefinition,
  initialProposeForm,
  proposalsTabHref,
  proposeBody,
  validateProposeForm,
  type ProposeFormState,
} from "@/pages/networks/proposals/propose-form";
import { asRole, screenHtml, screenText, seed, type Seed } from "@/test-support/static-screen";

// The typed client takes fetch when it is created, so the stand-in goes in before any import runs.
const http = await vi.hoisted(async () => (await import("@/test-support/fetch-mock")).installFetchMock());

const filled: ProposeFormState = { ...initialProposeForm, name: "basic", version: "1.0", sequence: "1", hasFile: true };
const network = { id: 3, name: "mychannel" };

beforeEach(() => http.reset());

describe("propose form validation", () => {
  it("accepts a filled form", () => {
    expect(validateProposeForm(filled)).toEqual({});
  });

  it("names the field of each problem", () => {
    expect(validateProposeForm({ ...filled, name: " " })).toEqual({ name: "name: required" });
    expect(validateProposeForm({ ...filled, name: "my cc" }).name).toBe("name: only letters, digits, _ and -");
    expect(validateProposeForm({ ...filled, name: "x".repeat(129) }).name).toMatch(/^name: /);
    expect(validateProposeForm({ ...filled, version: "" })).toEqual({ version: "version: required" });
    for (const sequence of ["0", "1.5", "", "-2", "abc"])
      expect(validateProposeForm({ ...filled, sequence }).sequence).toBe("sequence: a whole number of 1 or more");
    expect(validateProposeForm({ ...filled, policy: "x".repeat(2001) }).endorsement_policy).toMatch(
      /^endorsement_policy: /,
    );
  });

  it("needs the chosen source: a file, a definition or an image", () => {
    expect(validateProposeForm({ ...filled, hasFile: false }).source).toMatch(/^source: choose an archive/);
    expect(validateProposeForm({ ...filled, source: "definition" })).toEqual({
      definition_id: "definition_id: choose a definition",
    });
    expect(validateProposeForm({ ...filled, source: "docker", hasFile: false })).toEqual({
      docker_image: "docker_image: required for an image",
    });
    expect(validateProposeForm({ ...filled, source: "docker", dockerImage: "ghcr.io/x/cc:1" })).toEqual({});
  });
});

describe("propose request", () => {
  it("sends only the fields that are set", () => {
    expect(proposeBody(filled, network)).toEqual({
      name: "basic",
      network_id: 3,
      channel_name: "mychannel",
      version: "1.0",
      sequence: 1,
      init_required: false,
    });
    expect(
      proposeBody(
        {
          ...filled,
          name: " basic ",
          sequence: "4",
          policy: "OR('Org1MSP.peer','Org2MSP.peer')",
          initRequired: true,
          source: "definition",
          definitionId: "40",
          address: "10.0.0.5:9999",
          dockerImage: "ignored",
        },
        network,
      ),
    ).toEqual({
      name: "basic",
      network_id: 3,
      channel_name: "mychannel",
      version: "1.0",
      sequence: 4,
      endorsement_policy: "OR('Org1MSP.peer','Org2MSP.peer')",
      init_required: true,
      chaincode_address: "10.0.0.5:9999",
      definition_id: 40,
    });
    expect(proposeBody({ ...filled, source: "docker", dockerImage: "ghcr.io/x/cc:1" }, network)).toMatchObject({
      docker_image: "ghcr.io/x/cc:1",
    });
  });

  it("posts the body to /pro/chaincodes/proposals", async () => {
    const body = proposeBody({ ...filled, policy: "AND('Org1MSP.peer')" }, network);
    http.respond("POST", "/pro/chaincodes/proposals", 201, { id: 9, name: "basic", status: "proposed" });
    await expect(createChaincodeProposal(body)).resolves.toMatchObject({ id: 9 });
    expect(http.calls).toEqual([{ method: "POST", path: "/pro/chaincodes/proposals", query: "", body }]);
  });

  it("surfaces the server's field message", async () => {
    http.respond("POST", "/pro/chaincodes/proposals", 400, {
      error: "INVALID_INPUT",
      message: "sequence: the channel has committed sequence 3; use 4",
      requestId: "r",
    });
    await expect(createChaincodeProposal(proposeBody(filled, network))).rejects.toMatchObject({
      status: 400,
      message: "sequence: the channel has committed sequence 3; use 4",
    });
  });

  it("defaults the sequence to the committed one + 1", () => {
    const cc = { latest_definition: { id: 1, version: "1.0", sequence: 2, deploy_status: "running" } } as Pick<
      Chaincode,
      "latest_definition"
    >;
    expect(defaultSequence(undefined, undefined)).toBe(1);
    expect(defaultSequence(cc, undefined)).toBe(3);
    expect(defaultSequence(cc, 5)).toBe(5);
  });

  it("takes a picked definition's version, sequence, policy and init flag", () => {
    const d = { id: 40, version: "2.0", sequence: 3, endorsement_policy: "P", init_required: true };
    expect(fromDefinition(filled, d as ChaincodeDefinition)).toMatchObject({
      definitionId: "40",
      version: "2.0",
      sequence: "3",
      policy: "P",
      initRequired: true,
    });
    expect(proposalsTabHref(3)).toBe("/networks/3/fabric?tab=proposals");
  });
});

describe("Propose chaincode screen", () => {
  const route = "/networks/:networkId/fabric/chaincodes/propose";
  const path = "/networks/3/fabric/chaincodes/propose";
  const chaincodes = [
    { id: 12, name: "assets", network_id: 3, latest_definition: { id: 40, version: "1.0", sequence: 2 } },
    { id: 13, name: "elsewhere", network_id: 4, latest_definition: null },
  ];
  const ready: Seed[] = [
    seed(fabricNetworkKeys.detail(3), { id: 3, name: "mychannel" }),
    seed(chaincodeKeys.list(), chaincodes),
    seed(fabricNetworkKeys.nodes(3), []),
  ];

  it("is for operators", () => {
    expect(screenText(<ChaincodeProposePage />, route, path, asRole("viewer"), ...ready)).toContain(
      "Only admins and managers can propose chaincodes.",
    );
  });

  it("offers the channel's chaincodes and every field", () => {
    const t = screenText(<ChaincodeProposePage />, route, path, asRole("manager"), ...ready);
    expect(t).toContain("Propose a chaincode definition to the consortium on channel mychannel.");
    expect(t).toContain("assets (sequence 2)");
    expect(t).not.toContain("elsewhere");
    for (const label of ["Name", "Version", "Sequence", "Endorsement policy", "Init required", "Source archive"])
      expect(t).toContain(label);
    const html = screenHtml(<ChaincodeProposePage />, route, path, asRole("manager"), ...ready);
    expect(html).toContain('href="/networks/3/fabric?tab=proposals"');
  });
});
