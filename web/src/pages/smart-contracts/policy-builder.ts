/** Roles a signature policy principal can name. */
export const POLICY_ROLES = ["peer", "member", "admin", "client"] as const;
export type PolicyRole = (typeof POLICY_ROLES)[number];
export type PolicyRule = "AND" | "OR" | "OUTOF";

/**
 * Writes the signature-policy DSL the peer CLI and `_lifecycle` read: AND/OR of the chosen orgs'
 * role principals, or OutOf(n, …). One org is just OR('<msp>.<role>').
 */
export function buildPolicy(p: { orgs: string[]; role: PolicyRole; rule: PolicyRule; n?: number }): string {
  const principals = p.orgs.map((o) => `'${o}.${p.role}'`);
  if (principals.length === 0) return "";
  if (p.rule === "OUTOF") {
    const n = Math.min(Math.max(1, p.n ?? 1), principals.length);
    return `OutOf(${n}, ${principals.join(", ")})`;
  }
  return `${p.rule}(${principals.join(", ")})`;
}

/** MSP ids a policy names, in order of first appearance. */
export function policyOrgs(policy: string): string[] {
  const out: string[] = [];
  for (const m of policy.matchAll(/['"]([A-Za-z0-9.-]+)\.(?:member|peer|admin|client|orderer)['"]/g)) {
    if (m[1] && !out.includes(m[1])) out.push(m[1]);
  }
  return out;
}
