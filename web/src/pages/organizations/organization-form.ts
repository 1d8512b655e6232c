import type { OrganizationCreateVars } from "@/data/organizations/organization-create-mutation";
import type { IdentityIssueVars } from "@/data/organizations/identity-issue-mutation";
import { splitList } from "@/pages/keys/key-form";

/** Fabric's MSP id rule, as the server enforces it: 1–249 letters, digits, dots or hyphens. */
export const MSP_ID_PATTERN = /^[A-Za-z0-9.-]{1,249}$/;
export const MSP_ID_RULE = "1–249 letters, digits, dots or hyphens (no spaces), e.g. Org1MSP";

export interface OrganizationFormValues {
  mspId: string;
  name: string;
  description: string;
  providerId: string;
}

export function toOrganizationCreateVars(v: OrganizationFormValues): OrganizationCreateVars {
  const mspId = v.mspId.trim();
  return {
    mspId,
    name: v.name.trim() || mspId,
    ...(v.description.trim() ? { description: v.description.trim() } : {}),
    ...(v.providerId ? { providerId: Number(v.providerId) } : {}),
  };
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const IPV6 = /^[0-9a-fA-F:]+:[0-9a-fA-F:.]*$/;

/** Splits free-text SANs into DNS names and IP addresses (IPv4 or IPv6). */
export function splitSans(text: string): { dnsNames: string[]; ipAddresses: string[] } {
  const dnsNames: string[] = [];
  const ipAddresses: string[] = [];
  for (const s of splitList(text)) (IPV4.test(s) || IPV6.test(s) ? ipAddresses : dnsNames).push(s);
  return { dnsNames, ipAddresses };
}

export const IDENTITY_ROLES = ["admin", "client", "peer", "orderer"] as const;

export interface IdentityFormValues {
  name: string;
  description: string;
  role: (typeof IDENTITY_ROLES)[number];
  sans: string;
}

export function toIdentityIssueVars(organizationId: number, v: IdentityFormValues): IdentityIssueVars {
  const { dnsNames, ipAddresses } = splitSans(v.sans);
  return {
    organizationId,
    name: v.name.trim(),
    role: v.role,
    ...(v.description.trim() ? { description: v.description.trim() } : {}),
    ...(dnsNames.length ? { dnsNames } : {}),
    ...(ipAddresses.length ? { ipAddresses } : {}),
  };
}

/** RFC 5280 revocation reasons the server accepts. */
export const REVOCATION_REASONS: readonly { code: number; label: string }[] = [
  { code: 0, label: "Unspecified" },
  { code: 1, label: "Key compromise" },
  { code: 4, label: "Superseded" },
  { code: 5, label: "Cessation of operation" },
];

export function revocationReasonLabel(code: number): string {
  const known: Record<number, string> = {
    2: "CA compromise",
    3: "Affiliation changed",
    6: "Certificate hold",
    8: "Remove from CRL",
    9: "Privilege withdrawn",
    10: "AA compromise",
  };
  return REVOCATION_REASONS.find((r) => r.code === code)?.label ?? known[code] ?? `Reason ${code}`;
}

/** Normalizes a typed serial: strips "0x", colons and spaces; lower case. */
export function normalizeSerial(text: string): string {
  return text.trim().replace(/^0x/i, "").replace(/[\s:]/g, "").toLowerCase();
}
