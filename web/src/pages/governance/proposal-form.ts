import type { ProposalOperationInput } from "@/data/governance/types";
import type { ConfigChange } from "@/pages/governance/proposal-view";
import { batchOperations, DURATION, hostPort, type BatchSettings } from "@/pages/networks/fabric-network";

/** The operation editors of the create screen: the same changes the channel config tab makes. */
export type OperationKind = "add_org" | "remove_org" | "anchor_peers" | "batch" | "policy";

export const OPERATION_LABEL: Record<OperationKind, string> = {
  add_org: "Add organization from a connected console",
  remove_org: "Remove organization",
  anchor_peers: "Set anchor peers",
  batch: "Batch settings",
  policy: "Update policy",
};

export type PolicyScope = "application" | "orderer" | "channel";

/** One operation being edited; text fields stay strings until they become the request. */
export type OperationDraft =
  | { kind: "add_org"; externalOrgId: string }
  | { kind: "remove_org"; mspId: string }
  | { kind: "anchor_peers"; mspId: string; peers: string }
  | {
      kind: "batch";
      batchTimeout: string;
      maxMessageCount: string;
      absoluteMaxBytes: string;
      preferredMaxBytes: string;
    }
  | { kind: "policy"; scope: PolicyScope; policyName: string; policyType: "Signature" | "ImplicitMeta"; rule: string };

/** A fresh editor of `kind`; batch settings start from the channel's current values. */
export function newDraft(kind: OperationKind, current: BatchSettings = {}): OperationDraft {
  switch (kind) {
    case "add_org":
      return { kind, externalOrgId: "" };
    case "remove_org":
      return { kind, mspId: "" };
    case "anchor_peers":
      return { kind, mspId: "", peers: "" };
    case "batch":
      return {
        kind,
        batchTimeout: current.batchTimeout ?? "",
        maxMessageCount: current.maxMessageCount?.toString() ?? "",
        absoluteMaxBytes: current.absoluteMaxBytes?.toString() ?? "",
        preferredMaxBytes: current.preferredMaxBytes?.toString() ?? "",
      };
    case "policy":
      return { kind, scope: "application", policyName: "", policyType: "ImplicitMeta", rule: "" };
  }
}

/** What the editors check against: the channel's orgs and its current batch settings. */
export interface DraftContext {
  channelOrgs: readonly string[];
  current: BatchSettings;
  /** External organizations by id (for names in the preview). */
  externalOrgs?: readonly { id: number; mspId: string }[];
}

/** "host:port" entries separated by commas, spaces or lines. */
export function parsePeers(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

const POLICY_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** Field errors of one editor (field → message); empty when it can be sent. */
export function validateDraft(d: OperationDraft, ctx: DraftContext): Record<string, string> {
  const e: Record<string, string> = {};
  const whole = (f: string, v: string): void => {
    if (v.trim() && !/^[1-9]\d*$/.test(v.trim())) e[f] = "A positive whole number";
  };
  switch (d.kind) {
    case "add_org":
      if (!d.externalOrgId) e.externalOrgId = "Choose an organization";
      break;
    case "remove_org":
      if (!d.mspId) e.mspId = "Choose an organization";
      else if (!ctx.channelOrgs.includes(d.mspId)) e.mspId = `${d.mspId} is not an organization of the channel`;
      break;
    case "anchor_peers": {
      if (!d.mspId) e.mspId = "Choose an organization";
      const bad = parsePeers(d.peers).find((p) => {
        const hp = hostPort(p);
        return !hp || hp.port < 1 || hp.port > 65535;
      });
      if (bad) e.peers = `${bad} is not host:port`;
      break;
    }
    case "batch":
      if (d.batchTimeout.trim() && !DURATION.test(d.batchTimeout.trim()))
        e.batchTimeout = "A duration such as 2s or 500ms";
      whole("maxMessageCount", d.maxMessageCount);
      whole("absoluteMaxBytes", d.absoluteMaxBytes);
      whole("preferredMaxBytes", d.preferredMaxBytes);
      if (Object.keys(e).length === 0 && batchOperations(ctx.current, d).length === 0)
        e.batchTimeout = "Nothing changed from the current settings";
      break;
    case "policy":
      if (!d.policyName.trim()) e.policyName = "Policy name is required";
      else if (!POLICY_NAME.test(d.policyName.trim())) e.policyName = "Letters, digits, '_' and '-'";
      if (!d.rule.trim()) e.rule = "Rule is required";
      else if (d.policyType === "ImplicitMeta" && !/^(ANY|ALL|MAJORITY)\s+\S+$/.test(d.rule.trim()))
        e.rule = "ANY, ALL or MAJORITY followed by a sub-policy, e.g. MAJORITY Admins";
      break;
  }
  return e;
}

/** Every editor's field errors, keyed by its index; empty when the whole form can be sent. */
export function validateDrafts(
  drafts: readonly OperationDraft[],
  ctx: DraftContext,
): Record<number, Record<string, string>> {
  const out: Record<number, Record<string, string>> = {};
  drafts.forEach((d, i) => {
    const e = validateDraft(d, ctx);
    if (Object.keys(e).length > 0) out[i] = e;
  });
  return out;
}

/** The editors as the request's operations, in order (batch settings may give two). */
export function toOperations(drafts: readonly OperationDraft[], ctx: DraftContext): ProposalOperationInput[] {
  return drafts.flatMap((d): ProposalOperationInput[] => {
    switch (d.kind) {
      case "add_org":
        return [{ type: "add_org", payload: { external_organization_id: Number(d.externalOrgId) } }];
      case "remove_org":
        return [{ type: "remove_org", payload: { msp_id: d.mspId } }];
      case "anchor_peers":
        return [
          {
            type: "set_anchor_peers",
            payload: { msp_id: d.mspId, anchor_peers: parsePeers(d.peers).flatMap((p) => hostPort(p) ?? []) },
          },
        ];
      case "batch":
        return batchOperations(ctx.current, d);
      case "policy":
        return [
          {
            type: `update_${d.scope}_policy`,
            payload: { policy_name: d.policyName.trim(), policy: { type: d.policyType, rule: d.rule.trim() } },
          },
        ];
    }
  });
}

/** The proposal_type the server stores: the single kind, or "multiple". */
export function proposalTypeOf(drafts: readonly OperationDraft[]): string {
  const kinds = [...new Set(drafts.map((d) => d.kind))];
  return kinds.length === 1 ? kinds[0]! : "multiple";
}

const SCOPE_GROUP: Record<PolicyScope, string> = {
  application: "channel_group.groups.Application",
  orderer: "channel_group.groups.Orderer",
  channel: "channel_group",
};
const APP_ORGS = "channel_group.groups.Application.groups";
const ORDERER_VALUES = "channel_group.groups.Orderer.values";

/**
 * What the editors will change, at the element paths the server's diff uses, before the server
 * computes the exact update against the channel's newest config.
 */
export function previewChanges(drafts: readonly OperationDraft[], ctx: DraftContext): ConfigChange[] {
  return drafts.flatMap((d): ConfigChange[] => {
    switch (d.kind) {
      case "add_org": {
        const o = ctx.externalOrgs?.find((x) => String(x.id) === d.externalOrgId);
        return [
          { kind: "added", path: `${APP_ORGS}.${o?.mspId ?? `external organization #${d.externalOrgId || "?"}`}` },
        ];
      }
      case "remove_org":
        return [{ kind: "removed", path: `${APP_ORGS}.${d.mspId || "?"}` }];
      case "anchor_peers": {
        const peers = parsePeers(d.peers);
        return [
          {
            kind: "changed",
            path: `${APP_ORGS}.${d.mspId || "?"}.values.AnchorPeers`,
            after: peers.length ? peers.join(", ") : "none",
          },
        ];
      }
      case "batch": {
        const out: ConfigChange[] = [];
        const c = ctx.current;
        const field = (path: string, before: unknown, after: string): void => {
          const a = after.trim();
          if (a && a !== String(before ?? "")) {
            out.push({ kind: "changed", path: `${ORDERER_VALUES}.${path}`, before: String(before ?? "—"), after: a });
          }
        };
        field("BatchSize.value.absolute_max_bytes", c.absoluteMaxBytes, d.absoluteMaxBytes);
        field("BatchSize.value.max_message_count", c.maxMessageCount, d.maxMessageCount);
        field("BatchSize.value.preferred_max_bytes", c.preferredMaxBytes, d.preferredMaxBytes);
        field("BatchTimeout.value.timeout", c.batchTimeout, d.batchTimeout);
        return out;
      }
      case "policy":
        return [
          {
            kind: "changed",
            path: `${SCOPE_GROUP[d.scope]}.policies.${d.policyName.trim() || "?"}.policy`,
            after: d.rule.trim(),
          },
        ];
    }
  });
}
