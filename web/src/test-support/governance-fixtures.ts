import type { Proposal } from "@/data/governance/types";

/** A proposal on its proposer's console: add Org3MSP to a channel of Org1MSP, Org2MSP (MAJORITY Admins). */
export const proposal: Proposal = {
  id: "prop-1",
  network_id: 12,
  channel_name: "mychannel",
  proposal_type: "add_org",
  status: "pending",
  operations: [
    { type: "add_org", payload: { msp_id: "Org3MSP", root_certs: ["-----BEGIN"], tls_root_certs: ["-----BEGIN"] } },
  ],
  preview_json: '{"channel_id":"mychannel"}',
  diff: [
    "+ channel_group.groups.Application.groups.Org3MSP",
    "~ channel_group.groups.Application.policies.Admins.policy: MAJORITY Admins -> ANY Admins",
  ],
  changes: [
    {
      kind: "added",
      path: "channel_group.groups.Application.groups.Org3MSP",
      after:
        "group: organization Org3MSP, root CA certificate O=Org3MSP, CN=ca.org3 (sha256 AB:CD…); values MSP; policies Admins, Endorsement, Readers, Writers; groups none",
    },
    {
      kind: "changed",
      path: "channel_group.groups.Application.policies.Admins.policy",
      before: "MAJORITY Admins",
      after: "ANY Admins",
    },
  ],
  config_sequence: 4,
  stale: false,
  origin_node_id: "",
  tx_id: "",
  created_at: "2026-11-25T10:00:00Z",
  created_by: "admin",
  signatures: [
    { id: 5, proposal_id: "prop-1", msp_id: "Org1MSP", signed_at: "2026-11-25T10:01:00Z", signed_by: "admin" },
  ],
  policy: {
    rule: "/Channel/Application/Admins: MAJORITY Admins",
    required: 2,
    signed: ["Org1MSP"],
    missing: ["Org2MSP", "Org3MSP"],
    satisfied: false,
    summary: "1 of 3 orgs signed",
  },
};

/** The same proposal as received by the console of Org2MSP from cl-aaaa. */
export const received: Proposal = {
  ...proposal,
  id: "prop-b",
  network_id: 3,
  origin_node_id: "cl-aaaa",
  signatures: [],
  policy: { ...proposal.policy, signed: [], missing: ["Org1MSP", "Org2MSP", "Org3MSP"], summary: "0 of 3 orgs signed" },
};
