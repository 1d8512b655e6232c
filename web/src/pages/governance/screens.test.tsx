import { describe, expect, it } from "vitest";
import { ORGANIZATION_LIST_LIMIT } from "@/app/constants";
import { federationKeys } from "@/data/federation/keys";
import { governanceKeys } from "@/data/governance/keys";
import { organizationKeys } from "@/data/organizations/keys";
import { peerB } from "@/test-support/federation-fixtures";
import { proposal, received } from "@/test-support/governance-fixtures";
import { PolicyProgress } from "@/pages/governance/PolicyProgress";
import { ProposalDetailPage } from "@/pages/governance/ProposalDetailPage";
import { ProposalSignPage } from "@/pages/governance/ProposalSignPage";
import { ConfigProposalsCard } from "@/pages/governance/ProposalsTab";
import { asRole, failing, screenHtml, screenText, seed, type Seed } from "@/test-support/static-screen";

const DETAIL = "/networks/:networkId/fabric/proposals/:id";
const detail = (p: typeof proposal, ...seeds: Seed[]): string =>
  screenText(
    <ProposalDetailPage />,
    DETAIL,
    `/networks/12/fabric/proposals/${p.id}`,
    seed(governanceKeys.detail(p.id), p),
    ...seeds,
  );
const orgs = (...mspIds: string[]): Seed =>
  seed(organizationKeys.list(ORGANIZATION_LIST_LIMIT, 0), {
    items: mspIds.map((mspId, i) => ({ id: i + 1, mspId })),
    total: mspIds.length,
  });
const events = (id: string): Seed =>
  seed(governanceKeys.events(id), [
    {
      id: "e1",
      proposal_id: id,
      event_type: "proposal_created",
      data: '{"by":"admin"}',
      created_at: "2026-11-25T10:00:00Z",
    },
    {
      id: "e2",
      proposal_id: id,
      event_type: "signature_added",
      data: '{"msp_id":"Org1MSP","by":"admin"}',
      created_at: "2026-11-25T10:01:00Z",
    },
  ]);

describe("PolicyProgress", () => {
  it("draws the count against the policy with the signed and missing orgs", () => {
    const html = screenHtml(<PolicyProgress policy={proposal.policy} />, "/", "/");
    expect(html).toContain('role="progressbar"');
    expect(html).toContain('aria-valuenow="1"');
    expect(html).toContain('aria-valuemax="3"');
    expect(html).toContain("width:33%");
    const text = screenText(<PolicyProgress policy={proposal.policy} />, "/", "/");
    expect(text).toContain("1 of 3 orgs signed");
    expect(text).toContain("1 more signature needed (2 required)");
    expect(text).toContain("MAJORITY Admins");
    expect(text).toMatch(/Signed Org1MSP Missing Org2MSP Org3MSP/);
  });

  it("says when the policy is met", () => {
    const met = {
      ...proposal.policy,
      signed: ["Org1MSP", "Org2MSP"],
      missing: [],
      satisfied: true,
      summary: "2 of 3 orgs signed",
    };
    const text = screenText(<PolicyProgress policy={met} />, "/", "/");
    expect(text).toContain("2 of 3 orgs signed");
    expect(text).toContain("Policy met: ready to submit");
    expect(text).toContain("Missing None");
  });
});

describe("Proposal detail screen", () => {
  it("shows loading and the server's error", () => {
    expect(screenText(<ProposalDetailPage />, DETAIL, "/networks/12/fabric/proposals/x")).toContain("Loading");
    expect(
      screenText(
        <ProposalDetailPage />,
        DETAIL,
        "/networks/12/fabric/proposals/x",
        failing(governanceKeys.detail("x")),
      ),
    ).toContain("database is locked");
  });

  it("shows the diff, the progress, the timeline, and sign, share, withdraw and a disabled submit to a manager", () => {
    const seeds = [
      asRole("manager"),
      orgs("Org1MSP", "Org9MSP"),
      events(proposal.id),
      seed(federationKeys.peers(), [peerB]),
    ];
    const text = detail(proposal, ...seeds);
    expect(text).toContain("Proposal: add_org");
    expect(text).toContain("+ channel_group.groups.Application.groups.Org3MSP (added)");
    expect(text).toContain("~ channel_group.groups.Application.policies.Admins.policy (changed)");
    expect(text).toContain("MAJORITY Admins → ANY Admins");
    expect(text).toContain("1 added, 1 changed");
    expect(text).toContain("1 of 3 orgs signed");
    expect(text).toContain("Sign as Org1MSP");
    expect(text).not.toContain("Org9MSP");
    expect(text).toContain("Share proposal");
    expect(text).toContain("cl-bbbb");
    expect(text).toContain("Withdraw Org1MSP signature");
    expect(text).toContain("Proposal created");
    expect(text).toContain("as Org1MSP by admin");
    const html = screenHtml(
      <ProposalDetailPage />,
      DETAIL,
      "/networks/12/fabric/proposals/prop-1",
      seed(governanceKeys.detail(proposal.id), proposal),
      ...seeds,
    );
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*title="The signatures must meet[^"]*"[^>]*>.*?Submit/);
  });

  it("enables Submit once the policy is met and shows the tx id once submitted", () => {
    const met = { ...proposal, policy: { ...proposal.policy, satisfied: true } };
    const html = screenHtml(
      <ProposalDetailPage />,
      DETAIL,
      "/networks/12/fabric/proposals/prop-1",
      asRole("admin"),
      seed(governanceKeys.detail(met.id), met),
    );
    expect(html).not.toMatch(/<button[^>]*disabled=""[^>]*title="The signatures must meet/);
    const done = detail({ ...proposal, status: "submitted", tx_id: "abc123" }, asRole("admin"));
    expect(done).toContain("Submitted");
    expect(done).toContain("Transaction abc123");
    expect(done).not.toContain("Sign as");
    expect(done).not.toContain("Withdraw");
  });

  it("lets a viewer see but not act", () => {
    const text = detail(proposal, asRole("viewer"), orgs("Org1MSP"), seed(federationKeys.peers(), [peerB]));
    expect(text).toContain("1 of 3 orgs signed");
    expect(text).toContain("+ channel_group.groups.Application.groups.Org3MSP");
    expect(text).not.toContain("Sign as");
    expect(text).not.toContain("Share proposal");
    expect(text).not.toContain("Withdraw");
    expect(text).not.toMatch(/\bSubmit\b/);
  });

  it("offers Recompute on a stale proposal to its proposer only", () => {
    const stale = { ...proposal, stale: true };
    const mine = detail(stale, asRole("admin"), orgs("Org1MSP"));
    expect(mine).toContain("Stale");
    expect(mine).toContain("Recompute");
    expect(mine).toContain("deletes the signatures");
    expect(mine).toContain("the proposer must recompute it");
    const theirs = detail({ ...received, stale: true }, asRole("admin"), orgs("Org2MSP"));
    expect(theirs).toContain("until cl-aaaa recomputes it");
    expect(theirs).not.toContain("Recompute ");
  });
});

describe("Sign proposal screen", () => {
  const SIGN = "/networks/fabric/proposals/:proposalId/sign";
  const sign = (p: typeof proposal, ...seeds: Seed[]): string =>
    screenText(
      <ProposalSignPage />,
      SIGN,
      `/networks/fabric/proposals/${p.id}/sign`,
      seed(governanceKeys.detail(p.id), p),
      ...seeds,
    );

  it("summarises a received proposal and signs as the console's org of the channel", () => {
    const text = sign(
      received,
      asRole("admin"),
      orgs("Org2MSP"),
      seed(federationKeys.peers(), [{ ...peerB, node_id: "cl-aaaa" }]),
    );
    expect(text).toContain("Sign proposal");
    expect(text).toContain("admin on cl-aaaa asks your organization to sign a config update of channel mychannel");
    expect(text).toContain("+ channel_group.groups.Application.groups.Org3MSP");
    expect(text).toContain("0 of 3 orgs signed");
    expect(text).toContain("Sign as Org2MSP");
    expect(text).not.toContain("Share proposal");
  });

  it("offers to send this console's signatures to the proposer's connection", () => {
    const signed = {
      ...received,
      signatures: [
        { id: 9, proposal_id: received.id, msp_id: "Org2MSP", signed_at: "2026-11-25T10:05:00Z", signed_by: "admin" },
      ],
    };
    const withConn = screenHtml(
      <ProposalSignPage />,
      SIGN,
      `/networks/fabric/proposals/${signed.id}/sign`,
      asRole("admin"),
      seed(governanceKeys.detail(signed.id), signed),
      seed(federationKeys.peers(), [{ ...peerB, node_id: "cl-aaaa" }]),
    );
    expect(withConn).toMatch(/<button[^>]*aria-label="Send Org2MSP signature to cl-aaaa"/);
    expect(withConn).not.toMatch(/<button[^>]*disabled=""[^>]*aria-label="Send Org2MSP signature/);
    const noConn = screenHtml(
      <ProposalSignPage />,
      SIGN,
      `/networks/fabric/proposals/${signed.id}/sign`,
      asRole("admin"),
      seed(governanceKeys.detail(signed.id), signed),
      seed(federationKeys.peers(), []),
    );
    expect(noConn).toMatch(/<button[^>]*disabled=""[^>]*title="No connection to cl-aaaa"/);
  });

  it("says why it can't sign: no local network, no org of the channel", () => {
    expect(sign({ ...received, network_id: 0 }, asRole("admin"), orgs("Org2MSP"))).toContain(
      "This console has no network for channel mychannel.",
    );
    expect(sign(received, asRole("admin"), orgs("OtherMSP"))).toContain(
      "This console holds no admin of an organization of channel mychannel.",
    );
  });
});

describe("Config proposals of a network", () => {
  const card = (...seeds: Seed[]): string => screenText(<ConfigProposalsCard networkId={12} />, "/", "/", ...seeds);

  it("shows loading, empty and error states", () => {
    expect(card(asRole("admin"))).toContain("Loading");
    expect(card(asRole("admin"), seed(governanceKeys.list(12), []))).toContain("No config proposals");
    expect(card(asRole("admin"), failing(governanceKeys.list(12)))).toContain("database is locked");
  });

  it("lists status, changes and signatures with a link to each and Create proposal for operators", () => {
    const list = seed(governanceKeys.list(12), [proposal, { ...proposal, id: "prop-2", stale: true }]);
    const text = card(asRole("manager"), list);
    expect(text).toContain("add_org");
    expect(text).toContain("1 added, 1 changed");
    expect(text).toContain("Pending");
    expect(text).toContain("Stale");
    expect(text).toContain("1 of 3 orgs signed");
    expect(text).toContain("Create proposal");
    const html = screenHtml(<ConfigProposalsCard networkId={12} />, "/", "/", asRole("manager"), list);
    expect(html).toContain('href="/networks/12/fabric/proposals/prop-1"');
    expect(html).toContain('href="/networks/12/fabric/proposals/create"');
    expect(card(asRole("viewer"), list)).not.toContain("Create proposal");
  });
});
