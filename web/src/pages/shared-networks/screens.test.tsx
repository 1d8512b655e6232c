import { describe, expect, it } from "vitest";
import { federationKeys } from "@/data/federation/keys";
import { sharingKeys } from "@/data/sharing/keys";
import { peerB, received, sent } from "@/test-support/federation-fixtures";
import { SentSharesTable } from "@/pages/shared-networks/SentSharesTable";
import { SharedNetworksPage } from "@/pages/shared-networks/SharedNetworksPage";
import { asRole, failing, screenHtml, screenText, seed, type Seed } from "@/test-support/static-screen";

const page = (...seeds: Seed[]): string =>
  screenText(<SharedNetworksPage />, "/networks/fabric/shared", "/networks/fabric/shared", ...seeds);
const receivedList = (list: unknown): Seed => seed(sharingKeys.networkList("received"), list);

describe("Shared Networks screen, received", () => {
  it("shows loading, empty and the server's error", () => {
    expect(page(asRole("admin"))).toContain("Loading");
    expect(page(asRole("admin"), receivedList([]))).toContain("No networks shared with this console");
    expect(page(asRole("admin"), failing(sharingKeys.networkList("received")))).toContain("database is locked");
  });

  it("lists a pending share with its sender, and Accept and Reject for operators", () => {
    const text = page(asRole("manager"), receivedList([received]));
    expect(text).toContain("mychannel");
    expect(text).toContain("Fabric");
    expect(text).toContain("cl-bbbb");
    expect(text).toContain("Pending");
    expect(text).toContain("Received (1 pending)");
    expect(text).toContain("Accept mychannel");
    expect(text).toContain("Reject mychannel");
    const html = screenHtml(<SharedNetworksPage />, "/s", "/s", asRole("manager"), receivedList([received]));
    expect(html).toContain('href="/connect/cl-bbbb"');
  });

  it("hides the decisions from viewers", () => {
    const text = page(asRole("viewer"), receivedList([received]));
    expect(text).toContain("mychannel");
    expect(text).not.toContain("Accept mychannel");
  });

  it("links an accepted share to the imported network with the join hint, and shows errors", () => {
    const accepted = { ...received, status: "accepted", localNetworkId: 12 };
    const failed = { ...received, id: "share-3", status: "failed", error: "genesis block is not valid" };
    const html = screenHtml(<SharedNetworksPage />, "/s", "/s", asRole("admin"), receivedList([accepted, failed]));
    expect(html).toContain('href="/networks/12/fabric"');
    const text = page(asRole("admin"), receivedList([accepted, failed]));
    expect(text).toContain("Your peers can join the channel from that page.");
    expect(text).toContain("genesis block is not valid");
    expect(text).not.toContain("Accept mychannel");
  });
});

describe("Shared Networks screen, sent", () => {
  const table = (...seeds: Seed[]): string => screenText(<SentSharesTable canManage />, "/s", "/s", ...seeds);

  it("shows loading, empty and error", () => {
    expect(table()).toContain("Loading");
    expect(table(seed(sharingKeys.networkList("sent"), []))).toContain("No networks shared yet");
    expect(table(failing(sharingKeys.networkList("sent")))).toContain("database is locked");
  });

  it("shows each recipient's own outcome from the share's record", () => {
    const text = table(
      seed(sharingKeys.networkList("sent"), [
        {
          ...sent,
          dataJson: {
            recipients: [
              { recipient: 7, nodeId: "cl-bbbb", status: "accepted", error: null },
              { recipient: 8, nodeId: "cl-cccc", status: "failed", error: "timeout" },
            ],
          },
        },
      ]),
    );
    expect(text).toContain("cl-bbbb Accepted");
    expect(text).toContain("cl-cccc Failed timeout");
  });

  it("names the recipients by node id, with status, error and delete", () => {
    const text = table(
      seed(sharingKeys.networkList("sent"), [{ ...sent, status: "failed", error: "cl-cccc: connection refused" }]),
      seed(federationKeys.peers(), [peerB]),
    );
    expect(text).toContain("besu-net");
    expect(text).toContain("Besu");
    expect(text).toContain("cl-bbbb");
    expect(text).toContain("connection #8");
    expect(text).toContain("Failed");
    expect(text).toContain("cl-cccc: connection refused");
    expect(text).toContain("Delete share of besu-net");
    const viewer = screenText(
      <SentSharesTable canManage={false} />,
      "/s",
      "/s",
      seed(sharingKeys.networkList("sent"), [sent]),
    );
    expect(viewer).not.toContain("Delete share");
  });
});
