import { common, msp } from "@hyperledger/fabric-protos";
import { mspRoleName } from "../enum-names.js";
import { ConfigtxInputError } from "./errors.js";
import type { PolicyInput, PolicyMap } from "./types.js";

type Node = { principal: string } | { n: number; of: Node[] };

/** Tokens of the policy DSL with their 0-based offsets in the rule. */
function tokenize(rule: string, field: string): { t: string; at: number }[] {
  const tokens: { t: string; at: number }[] = [];
  const re = /'[^']*'|"[^"]*"|[A-Za-z]+|\d+|[(),]|\s+|./gy;
  for (let m = re.exec(rule); m; m = re.exec(rule)) {
    const t = m[0];
    if (/^\s+$/.test(t)) continue;
    if (!/^('[^']*'|"[^"]*"|[A-Za-z]+|\d+|[(),])$/.test(t)) {
      const what = t === "'" || t === '"' ? "an unterminated quote" : `unexpected "${t}"`;
      throw new ConfigtxInputError(field, `invalid policy "${rule}" at position ${m.index + 1}: ${what}`);
    }
    tokens.push({ t, at: m.index });
  }
  return tokens;
}

/** Tokenises and parses the policy DSL of `policydsl.FromString`; errors name the 1-based position. */
function parseDsl(rule: string, field: string): Node {
  const tokens = tokenize(rule, field);
  let i = 0;
  const fail = (why: string, at = tokens[i]?.at ?? rule.length): never => {
    throw new ConfigtxInputError(field, `invalid policy "${rule}" at position ${at + 1}: ${why}`);
  };
  const expect = (t: string): void => {
    const tok = tokens[i];
    if (tok?.t !== t) fail(tok ? `expected "${t}", found "${tok.t}"` : `expected "${t}", found the end`);
    i++;
  };
  const expr = (): Node => {
    const tok = tokens[i];
    if (tok === undefined) return fail("expected a principal or AND/OR/OutOf, found the end");
    i++;
    const t = tok.t;
    if (/^['"]/.test(t)) return { principal: t.slice(1, -1) };
    const fn = t.toLowerCase();
    if (fn !== "and" && fn !== "or" && fn !== "outof") return fail(`unknown function "${t}"`, tok.at);
    expect("(");
    let n = 0;
    if (fn === "outof") {
      const num = tokens[i];
      n = Number(num?.t);
      if (!num || !Number.isInteger(n)) fail("OutOf needs a number first");
      i++;
      expect(",");
    }
    const of: Node[] = [expr()];
    while (tokens[i]?.t === ",") {
      i++;
      of.push(expr());
    }
    expect(")");
    if (fn === "and") n = of.length;
    if (fn === "or") n = 1;
    if (n < 1 || n > of.length) fail(`cannot require ${n} of ${of.length}`, tok.at);
    return { n, of };
  };
  const node = expr();
  if (i !== tokens.length) fail(`unexpected "${tokens[i]?.t}" after the end of the rule`);
  return node;
}

/**
 * Encodes a policy DSL rule as a SignaturePolicyEnvelope, the way Fabric's policydsl does:
 * each principal occurrence becomes its own identity, numbered in order of appearance.
 */
export function signaturePolicyFromDsl(rule: string, field = "rule"): common.SignaturePolicyEnvelope {
  const identities: msp.MSPPrincipal[] = [];
  const encode = (node: Node): common.SignaturePolicy => {
    const sp = new common.SignaturePolicy();
    if ("principal" in node) {
      const m = /^([A-Za-z0-9.-]+)\.(admin|member|client|peer|orderer)$/.exec(node.principal);
      if (!m)
        throw new ConfigtxInputError(field, `"${node.principal}" is not '<MSPID>.<member|admin|client|peer|orderer>'`);
      const role = new msp.MSPRole();
      role.setMspIdentifier(m[1] as string);
      // The DSL's role names are the enum's, in lower case (read here, not at start-up: see fabric/enum-names.ts).
      role.setRole(msp.MSPRole.MSPRoleType[(m[2] as string).toUpperCase() as keyof msp.MSPRole.MSPRoleTypeMap]);
      const p = new msp.MSPPrincipal();
      p.setPrincipalClassification(msp.MSPPrincipal.Classification.ROLE);
      p.setPrincipal(role.serializeBinary());
      sp.setSignedBy(identities.length);
      identities.push(p);
      return sp;
    }
    const nOutOf = new common.SignaturePolicy.NOutOf();
    nOutOf.setN(node.n);
    nOutOf.setRulesList(node.of.map(encode));
    sp.setNOutOf(nOutOf);
    return sp;
  };
  const rootNode = parseDsl(rule, field);
  // A bare principal is "1 out of that one", as policydsl wraps it.
  const root = encode("principal" in rootNode ? { n: 1, of: [rootNode] } : rootNode);
  const env = new common.SignaturePolicyEnvelope();
  env.setVersion(0);
  env.setRule(root);
  env.setIdentitiesList(identities);
  return env;
}

/**
 * The DSL form of a signature policy (the reverse of signaturePolicyFromDsl): `OR`/`AND` when
 * the rule needs one or all of its parts, `OutOf(n, …)` otherwise. Non-role principals show as
 * `<principal N>`.
 */
export function signaturePolicyToDsl(env: common.SignaturePolicyEnvelope): string {
  const principal = (i: number): string => {
    const p = env.getIdentitiesList()[i];
    if (!p || p.getPrincipalClassification() !== msp.MSPPrincipal.Classification.ROLE) return `<principal ${i}>`;
    const role = msp.MSPRole.deserializeBinary(p.getPrincipal_asU8());
    return `'${role.getMspIdentifier()}.${mspRoleName(role.getRole()).toLowerCase()}'`;
  };
  const render = (sp: common.SignaturePolicy): string => {
    if (!sp.hasNOutOf()) return principal(sp.getSignedBy());
    const n = sp.getNOutOf() as common.SignaturePolicy.NOutOf;
    const parts = n.getRulesList().map(render);
    if (n.getN() === 1) return `OR(${parts.join(", ")})`;
    if (n.getN() === parts.length) return `AND(${parts.join(", ")})`;
    return `OutOf(${n.getN()}, ${parts.join(", ")})`;
  };
  const rule = env.getRule();
  return rule ? render(rule) : "";
}

/** Parses `ANY Readers` / `MAJORITY Admins` / `ALL Writers`. */
export function implicitMetaFromString(rule: string, field = "rule"): common.ImplicitMetaPolicy {
  const m = /^\s*(ANY|ALL|MAJORITY)\s+(\S+)\s*$/.exec(rule);
  if (!m)
    throw new ConfigtxInputError(field, `invalid implicit meta rule "${rule}" (expected ANY|ALL|MAJORITY <Policy>)`);
  const p = new common.ImplicitMetaPolicy();
  p.setRule(common.ImplicitMetaPolicy.Rule[m[1] as keyof common.ImplicitMetaPolicy.RuleMap]);
  p.setSubPolicy(m[2] as string);
  return p;
}

/** Encodes a configtx.yaml-style policy as a common.Policy. */
export function encodePolicy(input: PolicyInput, field = "policy"): common.Policy {
  const policy = new common.Policy();
  if (input.type === "ImplicitMeta") {
    policy.setType(common.Policy.PolicyType.IMPLICIT_META);
    policy.setValue(implicitMetaFromString(input.rule, field).serializeBinary());
  } else if (input.type === "Signature") {
    policy.setType(common.Policy.PolicyType.SIGNATURE);
    policy.setValue(signaturePolicyFromDsl(input.rule, field).serializeBinary());
  } else {
    throw new ConfigtxInputError(field, `unknown policy type "${String((input as PolicyInput).type)}"`);
  }
  return policy;
}

/** Adds policies to a group, each with the given mod_policy. */
export function addPolicies(group: common.ConfigGroup, policies: PolicyMap, field: string, modPolicy = "Admins"): void {
  for (const [name, input] of Object.entries(policies)) {
    const cp = new common.ConfigPolicy();
    cp.setModPolicy(modPolicy);
    cp.setPolicy(encodePolicy(input, `${field}.${name}`));
    group.getPoliciesMap().set(name, cp);
  }
}

const implicit = (rule: string): PolicyInput => ({ type: "ImplicitMeta", rule });
const signature = (rule: string): PolicyInput => ({ type: "Signature", rule });

/** Channel-level defaults (Readers/Writers ANY, Admins MAJORITY). */
export const DEFAULT_CHANNEL_POLICIES: PolicyMap = {
  Readers: implicit("ANY Readers"),
  Writers: implicit("ANY Writers"),
  Admins: implicit("MAJORITY Admins"),
};

/** Application defaults, with the Endorsement policies chaincode lifecycle needs. */
export const DEFAULT_APPLICATION_POLICIES: PolicyMap = {
  ...DEFAULT_CHANNEL_POLICIES,
  LifecycleEndorsement: implicit("MAJORITY Endorsement"),
  Endorsement: implicit("MAJORITY Endorsement"),
};

/** Orderer defaults; BlockValidation is ANY Writers for etcdraft (BFT derives it from the consenters). */
export const DEFAULT_ORDERER_POLICIES: PolicyMap = {
  ...DEFAULT_CHANNEL_POLICIES,
  BlockValidation: implicit("ANY Writers"),
};

/**
 * An org's default policies, in application and orderer groups alike (as chainlaunch sets
 * them): Admins are its admins; Readers, Writers and Endorsement its members.
 */
export function defaultOrgPolicies(mspId: string): PolicyMap {
  const member = signature(`OR('${mspId}.member')`);
  return { Readers: member, Writers: member, Admins: signature(`OR('${mspId}.admin')`), Endorsement: member };
}
