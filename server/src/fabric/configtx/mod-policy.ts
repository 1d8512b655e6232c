import { common, msp } from "@hyperledger/fabric-protos";

/** Whether one policy of the current config is met by admin signatures of a set of orgs. */
export interface PolicyEvaluation {
  /** Absolute path of the policy, e.g. /Channel/Application/Admins. */
  path: string;
  /** Human-readable rule: `MAJORITY Admins` or the signature-policy's `n of [orgs]`. */
  rule: string;
  /** How many orgs (ImplicitMeta: sub-groups; Signature: principals) must sign. */
  required: number;
  /** MSP ids among the candidates that have signed. */
  signed: string[];
  /** MSP ids that could still sign (haven't yet). */
  missing: string[];
  satisfied: boolean;
}

/** Every policy an update must satisfy, and the whole verdict. */
export interface ModPolicyVerdict {
  policies: PolicyEvaluation[];
  satisfied: boolean;
  required: number;
  signed: string[];
  missing: string[];
  /** "2 of 3 orgs signed". */
  summary: string;
}

function groupAt(config: common.Config, path: string[]): common.ConfigGroup | undefined {
  let g = config.getChannelGroup();
  for (const p of path.slice(1)) g = g?.getGroupsMap().get(p);
  return g;
}

/**
 * A Signature policy: n-of over principals. A signature is an org admin's, so it satisfies an
 * `<msp>.admin` or `<msp>.member` role principal of its org. Each signer counts once per branch
 * (as Fabric consumes an identity once it has matched a principal).
 */
function evalSignature(env: common.SignaturePolicyEnvelope, signers: Set<string>) {
  const ids = env.getIdentitiesList().map((p) => {
    if (p.getPrincipalClassification() !== msp.MSPPrincipal.Classification.ROLE) return undefined;
    const r = msp.MSPRole.deserializeBinary(p.getPrincipal_asU8());
    return r.getRole() === msp.MSPRole.MSPRoleType.ADMIN || r.getRole() === msp.MSPRole.MSPRoleType.MEMBER
      ? r.getMspIdentifier()
      : undefined;
  });
  const used = new Set<string>();
  const walk = (sp: common.SignaturePolicy): boolean => {
    if (!sp.hasNOutOf()) {
      const m = ids[sp.getSignedBy()];
      if (m === undefined || !signers.has(m) || used.has(m)) return false;
      used.add(m);
      return true;
    }
    const n = sp.getNOutOf() as common.SignaturePolicy.NOutOf;
    let ok = 0;
    for (const r of n.getRulesList()) if (walk(r)) ok++;
    return ok >= n.getN();
  };
  const rule = env.getRule();
  const satisfied = rule ? walk(rule) : false;
  const candidates = [...new Set(ids.filter((x): x is string => x !== undefined))];
  const top = rule?.hasNOutOf() ? (rule.getNOutOf()?.getN() ?? 1) : 1;
  return { satisfied, candidates, required: top, ruleText: `${top} of [${candidates.join(", ")}]` };
}

/** Evaluates the policy at `path` (absolute, e.g. /Channel/Application/Admins) for admin signatures of `signers`. */
export function evaluatePolicy(config: common.Config, path: string, signers: Set<string>): PolicyEvaluation {
  const parts = path.split("/").filter(Boolean);
  const name = parts.pop() as string;
  const group = groupAt(config, parts);
  const policy = group?.getPoliciesMap().get(name)?.getPolicy();
  if (!group || !policy) {
    return { path, rule: "missing policy", required: 1, signed: [], missing: [], satisfied: false };
  }
  if (policy.getType() === common.Policy.PolicyType.SIGNATURE) {
    const e = evalSignature(common.SignaturePolicyEnvelope.deserializeBinary(policy.getValue_asU8()), signers);
    return {
      path,
      rule: e.ruleText,
      required: e.required,
      signed: e.candidates.filter((m) => signers.has(m)),
      missing: e.candidates.filter((m) => !signers.has(m)),
      satisfied: e.satisfied,
    };
  }
  if (policy.getType() === common.Policy.PolicyType.IMPLICIT_META) {
    const im = common.ImplicitMetaPolicy.deserializeBinary(policy.getValue_asU8());
    const subs: PolicyEvaluation[] = [];
    group.getGroupsMap().forEach((_g: common.ConfigGroup, key: string) => {
      subs.push(evaluatePolicy(config, `/${[...parts, key, im.getSubPolicy()].join("/")}`, signers));
    });
    const names = [...group.getGroupsMap().keys()] as string[];
    const n = subs.length;
    const R = common.ImplicitMetaPolicy.Rule;
    // Fabric's thresholds: ANY 1, ALL every one, MAJORITY more than half.
    const required = im.getRule() === R.ANY ? 1 : im.getRule() === R.ALL ? n : Math.floor(n / 2) + 1;
    const ok = subs.filter((s) => s.satisfied).length;
    const ruleName = im.getRule() === R.ANY ? "ANY" : im.getRule() === R.ALL ? "ALL" : "MAJORITY";
    return {
      path,
      rule: `${ruleName} ${im.getSubPolicy()}`,
      required,
      signed: names.filter((_k, i) => subs[i]?.satisfied),
      missing: names.filter((_k, i) => !subs[i]?.satisfied),
      satisfied: ok >= required,
    };
  }
  return { path, rule: "unsupported policy type", required: 1, signed: [], missing: [], satisfied: false };
}

/** Absolute path of a mod_policy name as Fabric resolves it: relative names live in the element's group. */
function resolve(groupPath: string[], modPolicy: string): string {
  return modPolicy.startsWith("/") ? modPolicy : `/${[...groupPath, modPolicy].join("/")}`;
}

/**
 * The mod_policies a config update must satisfy, from the CURRENT config: every element of the
 * write set whose version differs from the read set (or that the read set lacks and the current
 * config has) is checked against its own mod_policy; a new element is covered by its parent group's.
 */
export function requiredModPolicies(config: common.Config, update: common.ConfigUpdate): string[] {
  const out = new Set<string>();
  const walk = (path: string[], ws: common.ConfigGroup, rs: common.ConfigGroup | undefined) => {
    const cur = groupAt(config, path);
    if (!cur) return;
    if (!rs || rs.getVersion() !== ws.getVersion()) out.add(resolve(path, cur.getModPolicy()));
    ws.getValuesMap().forEach((v: common.ConfigValue, k: string) => {
      const c = cur.getValuesMap().get(k);
      const r = rs?.getValuesMap().get(k);
      if (c && (!r || r.getVersion() !== v.getVersion())) out.add(resolve(path, c.getModPolicy()));
    });
    ws.getPoliciesMap().forEach((p: common.ConfigPolicy, k: string) => {
      const c = cur.getPoliciesMap().get(k);
      const r = rs?.getPoliciesMap().get(k);
      if (c && (!r || r.getVersion() !== p.getVersion())) out.add(resolve(path, c.getModPolicy()));
    });
    ws.getGroupsMap().forEach((g: common.ConfigGroup, k: string) => walk([...path, k], g, rs?.getGroupsMap().get(k)));
  };
  const ws = update.getWriteSet();
  if (ws) walk(["Channel"], ws, update.getReadSet());
  return [...out];
}

/** Whether admin signatures of `signers` meet every mod_policy the update needs, with a summary. */
export function evaluateUpdatePolicies(
  config: common.Config,
  update: common.ConfigUpdate,
  signers: Iterable<string>,
): ModPolicyVerdict {
  const set = new Set(signers);
  const policies = requiredModPolicies(config, update).map((p) => evaluatePolicy(config, p, set));
  // The verdict shows the strictest policy: the one with the most signatures still missing.
  const main = [...policies].sort(
    (a, b) => Number(a.satisfied) - Number(b.satisfied) || b.missing.length - a.missing.length,
  )[0];
  const signed = main?.signed ?? [];
  const candidates = main ? main.signed.length + main.missing.length : 0;
  const satisfied = policies.length > 0 && policies.every((p) => p.satisfied);
  return {
    policies,
    satisfied,
    required: main?.required ?? 0,
    signed,
    missing: [...new Set(policies.filter((p) => !p.satisfied).flatMap((p) => p.missing))],
    summary: `${signed.length} of ${candidates} orgs signed`,
  };
}
