import { describe, expect, it } from "vitest";
import { externalNodeKeys } from "@/data/external-nodes/keys";
import type { ExternalBesuNode } from "@/data/external-nodes/types";
import { federationKeys } from "@/data/federation/keys";
import { ExternalBootnodePicker, shortEnode } from "@/pages/nodes/ExternalBootnodePicker";
import { peerB } from "@/test-support/federation-fixtures";
import { failing, screenHtml, screenText, seed, type Seed } from "@/test-support/static-screen";

const enode = `enode://${"ab".repeat(64)}@10.0.0.3:30303`;
const besu: ExternalBesuNode = {
  id: 5,
  externalNodeId: 7,
  name: "besu-org2",
  enodeUrl: enode,
  rpcUrl: "http://10.0.0.3:8545",
  p2pHost: "10.0.0.3",
  p2pPort: 30303,
  metricsEnabled: true,
  metricsPort: 9545,
  version: "24.1.0",
};

describe("external boot nodes", () => {
  it("shortens an enode URL for the list", () => {
    expect(shortEnode(enode)).toBe("enode://abababab…@10.0.0.3:30303");
    expect(shortEnode("not an enode")).toBe("not an enode");
  });
});

describe("external boot node picker", () => {
  const picker = (value: number[], ...seeds: Seed[]): string =>
    screenText(<ExternalBootnodePicker value={value} onChange={() => {}} />, "/", "/", ...seeds);

  it("lists external Besu nodes with their source as checkboxes", () => {
    const seeds = [seed(externalNodeKeys.list("besu-nodes"), [besu]), seed(federationKeys.peers(), [peerB])];
    const text = picker([], ...seeds);
    expect(text).toContain("Use besu-org2 as a boot node");
    expect(text).toContain("from cl-bbbb");
    const html = screenHtml(<ExternalBootnodePicker value={[5]} onChange={() => {}} />, "/", "/", ...seeds);
    expect(html).toContain('checked=""');
  });

  it("says how to get some when there are none, and shows a failure", () => {
    expect(picker([], seed(externalNodeKeys.list("besu-nodes"), []))).toContain("None yet. Sync a connected console");
    expect(picker([], failing(externalNodeKeys.list("besu-nodes")))).toContain("database is locked");
    expect(picker([])).toContain("Loading external Besu nodes");
  });
});
