import { describe, expect, it } from "vitest";
import { federationKeys } from "@/data/federation/keys";
import { peerB, peerC } from "@/test-support/federation-fixtures";
import { RecipientChecklist } from "@/pages/shared-networks/RecipientChecklist";
import { ShareNetworkButton } from "@/pages/shared-networks/ShareNetworkButton";
import { screenHtml, screenText, seed } from "@/test-support/static-screen";

const button = <ShareNetworkButton platform="fabric" networkId={3} networkName="mychannel" />;

describe("Share action of a network page", () => {
  it("is disabled while the connections load", () => {
    expect(screenHtml(button, "/", "/")).toMatch(/<button[^>]*disabled=""[^>]*>.*Share/);
  });

  it("is disabled with a link to Connect when every connection is revoked or there is none", () => {
    for (const peers of [[], [{ ...peerB, status: "revoked" }]]) {
      const html = screenHtml(button, "/", "/", seed(federationKeys.peers(), peers));
      expect(html).toMatch(/<button[^>]*disabled=""/);
      expect(html).toContain('href="/connect"');
      expect(screenText(button, "/", "/", seed(federationKeys.peers(), peers))).toContain(
        "No connected consoles to share with.",
      );
    }
  });

  it("is enabled when a console is connected", () => {
    const html = screenHtml(button, "/", "/", seed(federationKeys.peers(), [peerB]));
    expect(html).not.toContain(`disabled=""`);
    expect(html).not.toContain('href="/connect"');
  });

  it("lists the consoles as checkboxes with their status", () => {
    const text = screenText(
      <RecipientChecklist
        peers={[peerB, { ...peerC, status: "unreachable" }]}
        selected={new Set([8])}
        onToggle={() => {}}
      />,
      "/",
      "/",
    );
    expect(text).toContain("Share with cl-bbbb");
    expect(text).toContain("Share with cl-cccc");
    expect(text).toContain("Unreachable");
    const html = screenHtml(
      <RecipientChecklist peers={[peerB, peerC]} selected={new Set([8])} onToggle={() => {}} />,
      "/",
      "/",
    );
    expect(html.match(/checked=""/g)).toHaveLength(1);
  });
});
