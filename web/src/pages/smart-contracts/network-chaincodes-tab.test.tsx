import { QueryClient } from "@tanstack/react-query";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { chaincodeKeys } from "@/data/chaincodes/keys";
import type { Chaincode, CommittedChaincode, CommittedChaincodes } from "@/data/chaincodes/types";
import { asRole, failing, screenHtml, screenText, seed } from "@/test-support/static-screen";

// The typed client takes fetch when it is created, so the stand-in goes in before any import runs.
const http = await vi.hoisted(async () => (await import("@/test-support/fetch-mock")).installFetchMock());
const { fetchCommittedChaincodes } = await import("@/data/chaincodes/chaincode-queries");
const { NetworkChaincodesTab } = await import("@/pages/smart-contracts/NetworkChaincodesTab");

beforeEach(() => http.reset());

const NET = 7;
const record = (id: number, name: string, latest: Chaincode["latest_definition"]): Chaincode => ({
  id,
  name,
  network_id: NET,
  network_name: "mychannel",
  network_platform: "FABRIC",
  created_at: "2026-01-01T00:00:00.000Z",
  definitions_count: latest ? 1 : 0,
  latest_definition: latest,
});
const onChannel = (c: Partial<CommittedChaincode> & { name: string }): CommittedChaincode => ({
  version: "1.0",
  sequence: 1,
  endorsement_plugin: "escc",
  validation_plugin: "vscc",
  endorsement_policy: "/Channel/Application/Endorsement",
  init_required: false,
  collections: [],
  chaincode_id: null,
  definition_id: null,
  origin: null,
  adopted_now: false,
  ...c,
});
const chaincodes: Chaincode[] = [
  record(1, "basic", { id: 11, version: "1.0", sequence: 1, deploy_status: "none", origin: "adopted" }),
  record(2, "mine", { id: 12, version: "0.1", sequence: 1, deploy_status: "running", origin: "console" }),
  record(3, "elsewhere", null),
  { ...record(4, "other-channel", null), network_id: 99 },
];
const committed: CommittedChaincodes = {
  network_id: NET,
  channel: "mychannel",
  peer: { id: 5, name: "peer0-org1", msp_id: "Org1MSP" },
  chaincodes: [
    onChannel({ name: "basic", chaincode_id: 1, definition_id: 11, origin: "adopted" }),
    onChannel({ name: "broken", error: "database is locked" }),
    onChannel({ name: "mine", version: "0.1", chaincode_id: 2, definition_id: 12, origin: "console" }),
  ],
};
const tab = <NetworkChaincodesTab networkId={NET} />;

describe("a network's Chaincodes tab", () => {
  it("shows chaincodes committed outside this console with their version and sequence", () => {
    const seeds = [
      asRole("viewer"),
      seed(chaincodeKeys.list(), chaincodes),
      seed(chaincodeKeys.committed(NET), committed),
    ];
    const text = screenText(tab, "/", "/", ...seeds);
    expect(text).toContain("Committed chaincodes read from peer peer0-org1 (Org1MSP)");
    expect(text).toMatch(/basic v1\.0 · sequence 1 Committed outside this console v1\.0 · sequence 1 Not deployed/);
    // The console's own commit carries no such mark; a name registered here but not committed says so.
    expect(text).toMatch(/mine v0\.1 · sequence 1 v0\.1 · sequence 1 Running/);
    expect(text).toMatch(/elsewhere Not committed No definition yet/);
    expect(text).toMatch(/broken v1\.0 · sequence 1 Not recorded: database is locked/);
    expect(text).not.toContain("other-channel");
    const html = screenHtml(tab, "/", "/", ...seeds);
    expect(html).toContain('href="/networks/fabric/chaincodes/1"');
  });

  it("keeps the console's chaincodes when the channel can't be read, and says why", () => {
    const text = screenText(
      tab,
      "/",
      "/",
      asRole("viewer"),
      seed(chaincodeKeys.list(), chaincodes),
      failing(chaincodeKeys.committed(NET)),
    );
    expect(text).toContain("Could not read what the channel has committed: database is locked");
    expect(text).toMatch(/basic — v1\.0 · sequence 1/);
  });

  it("shows the empty state when neither the console nor the channel has a chaincode", () => {
    const empty = { ...committed, chaincodes: [] };
    const text = screenText(tab, "/", "/", seed(chaincodeKeys.list(), []), seed(chaincodeKeys.committed(NET), empty));
    expect(text).toContain("No chaincodes on this channel");
  });
});

describe("reading what a channel has committed", () => {
  it("refreshes the chaincode list when the read adopted a chaincode, and only then", async () => {
    const qc = new QueryClient();
    qc.setQueryData(chaincodeKeys.list(), chaincodes);
    const adopted = { ...committed, chaincodes: [onChannel({ name: "basic", chaincode_id: 1, adopted_now: true })] };
    http.respond("GET", `/networks/fabric/${NET}/chaincodes/committed`, 200, committed);
    await fetchCommittedChaincodes(qc, NET);
    expect(qc.getQueryState(chaincodeKeys.list())?.isInvalidated).toBe(false);
    http.respond("GET", `/networks/fabric/${NET}/chaincodes/committed`, 200, adopted);
    expect((await fetchCommittedChaincodes(qc, NET)).chaincodes[0]?.adopted_now).toBe(true);
    expect(qc.getQueryState(chaincodeKeys.list())?.isInvalidated).toBe(true);
    expect(http.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      `GET /networks/fabric/${NET}/chaincodes/committed`,
      `GET /networks/fabric/${NET}/chaincodes/committed`,
    ]);
  });

  it("fails with the server's message when no peer can be asked", async () => {
    http.respond("GET", `/networks/fabric/${NET}/chaincodes/committed`, 409, {
      error: "CONFLICT",
      message: "channel 'mychannel' has no running joined peer on this console to read its committed chaincodes from",
      requestId: "r",
    });
    const err = await fetchCommittedChaincodes(new QueryClient(), NET).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/no running joined peer/);
  });
});
