import { describe, expect, it } from "vitest";
import { externalNodeKeys } from "@/data/external-nodes/keys";
import type { ExternalFabricOrderer } from "@/data/external-nodes/types";
import { federationKeys } from "@/data/federation/keys";
import { ExternalOrdererSelect } from "@/pages/networks/ExternalOrdererSelect";
import { OrdererImportForm } from "@/pages/networks/FabricImportForms";
import { peerB } from "@/test-support/federation-fixtures";
import { screenText, seed } from "@/test-support/static-screen";

const orderer: ExternalFabricOrderer = {
  id: 11,
  externalNodeId: 7,
  name: "orderer0-org2",
  mspId: "Org2MSP",
  externalEndpoint: "orderer0.org2.example:7050",
  signCertificate: "",
  tlsCertificate: "",
  tlsCaCertificate: "",
  version: "3.0.0",
};
const orderers = seed(externalNodeKeys.list("fabric-orderers"), [orderer]);

describe("external orderer choice of a join", () => {
  it("offers typing the orderer in or each external orderer with its source", () => {
    const text = screenText(
      <ExternalOrdererSelect id="o" value="" onChange={() => {}} />,
      "/",
      "/",
      orderers,
      seed(federationKeys.peers(), [peerB]),
    );
    expect(text).toContain("Enter its URL and TLS CA certificate");
    expect(text).toContain("orderer0-org2 (Org2MSP) orderer0.org2.example:7050 from cl-bbbb");
  });

  it("is not shown without external orderers", () => {
    const none = seed(externalNodeKeys.list("fabric-orderers"), []);
    expect(screenText(<ExternalOrdererSelect id="o" value="" onChange={() => {}} />, "/", "/", none).trim()).toBe("");
  });

  it("sits in the orderer form above the URL and TLS fields", () => {
    const text = screenText(
      <OrdererImportForm orgs={[]} submitLabel="Connect" onImported={() => {}} />,
      "/",
      "/",
      orderers,
    );
    expect(text).toContain("orderer0-org2");
    expect(text).toContain("Orderer URL");
    expect(text.indexOf("orderer0-org2")).toBeLessThan(text.indexOf("Orderer URL"));
  });
});
