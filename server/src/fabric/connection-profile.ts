import { stringify } from "yaml";

/** A peer or orderer as a client reaches it. */
export interface ProfileNode {
  /** The key the node gets under `peers:` or `orderers:` (unique per kind). */
  name: string;
  /** host:port to dial. */
  address: string;
  /** PEM of the TLS CA(s) that issued the node's server certificate. */
  tlsCaPem: string;
}

/** What goes into one org's connection profile for one channel. */
export interface ConnectionProfileInput {
  /** The profile's `name`. */
  name: string;
  channel: string;
  mspId: string;
  /** The org admin's signing certificate (inlined). */
  adminCertPem: string;
  /** Absolute path of the admin's private key file: the profile references it, never holds it. */
  adminKeyPath: string;
  /** The org's peers on the channel. */
  peers: ProfileNode[];
  /** The org's own orderers on the channel (listed under the organization). */
  orgOrderers?: string[];
  /** The channel's orderers. */
  orderers: ProfileNode[];
}

/** The connection profile as a plain object (YAML keys as fabric-sdk-go and the Fabric SDKs read them). */
export type ConnectionProfile = Record<string, unknown>;

const pemText = (pem: string): string => (pem.endsWith("\n") ? pem : `${pem}\n`);

/** The host a client verifies the node's TLS certificate against: the dialled host. */
function hostOf(address: string): string {
  const i = address.lastIndexOf(":");
  return (i < 0 ? address : address.slice(0, i)).replace(/^\[|\]$/g, "");
}

function endpoint(n: ProfileNode): Record<string, unknown> {
  const host = hostOf(n.address);
  return {
    url: `grpcs://${n.address}`,
    // Both spellings: fabric-sdk-go reads ssl-target-name-override, the Node and Java SDKs hostnameOverride.
    grpcOptions: { "ssl-target-name-override": host, hostnameOverride: host, "allow-insecure": false },
    tlsCACerts: { pem: pemText(n.tlsCaPem) },
  };
}

/**
 * Builds a Fabric connection profile ("network config") for one org on one channel: the org with
 * its admin user, its peers and the channel's orderers (grpcs URLs with their TLS CAs), and the
 * channel's roles for each peer. The admin's key is referenced by `key.path`, not inlined, so the
 * profile can be handed around without the key.
 */
export function buildConnectionProfile(p: ConnectionProfileInput): ConnectionProfile {
  const org: Record<string, unknown> = {
    mspid: p.mspId,
    peers: p.peers.map((n) => n.name),
    users: { admin: { cert: { pem: pemText(p.adminCertPem) }, key: { path: p.adminKeyPath } } },
  };
  if (p.orgOrderers?.length) org.orderers = p.orgOrderers;
  const roles = { endorsingPeer: true, chaincodeQuery: true, ledgerQuery: true, eventSource: true, discover: true };
  return {
    name: p.name,
    version: "1.0.0",
    client: { organization: p.mspId },
    organizations: { [p.mspId]: org },
    orderers: Object.fromEntries(p.orderers.map((n) => [n.name, endpoint(n)])),
    peers: Object.fromEntries(p.peers.map((n) => [n.name, endpoint(n)])),
    channels: {
      [p.channel]: {
        orderers: p.orderers.map((n) => n.name),
        peers: Object.fromEntries(p.peers.map((n) => [n.name, { ...roles }])),
      },
    },
  };
}

/** The profile as YAML text (PEMs as literal blocks). */
export function renderConnectionProfile(profile: ConnectionProfile): string {
  return stringify(profile, { lineWidth: 0 });
}
