import type { NodeInfo } from "@/api/client";

/** A Fabric node offered by "Add a node", and whether it can be added to the channel now. */
export interface NodeChoice {
  id: number;
  name: string;
  role: "peer" | "orderer";
  mspId: string;
  organizationId?: number;
  /** Why it can't be added (its org is not an application org of the channel); absent when it can. */
  blocked?: string;
}

/**
 * The Fabric nodes not yet in the network. A peer whose org is not one of the channel's
 * application orgs is blocked: Fabric would let it "join" and then refuse it every block, and the
 * server refuses it too. `channelPeerMsps` undefined means the channel config is not known (yet):
 * nothing is blocked then, and the server's answer decides.
 */
export function addNodeChoices(
  nodes: readonly Pick<NodeInfo, "id" | "name" | "nodeType" | "fabricPeer" | "fabricOrderer">[],
  memberIds: readonly number[],
  channelPeerMsps: readonly string[] | undefined,
): NodeChoice[] {
  const taken = new Set(memberIds);
  return nodes
    .filter((n) => !taken.has(n.id) && (n.fabricPeer || n.fabricOrderer))
    .map((n) => {
      const role = n.nodeType === "FABRIC_PEER" ? ("peer" as const) : ("orderer" as const);
      const f = n.fabricPeer ?? n.fabricOrderer;
      const mspId = f?.mspId ?? "";
      const out: NodeChoice = { id: n.id, name: n.name, role, mspId };
      if (f?.organizationId !== undefined) out.organizationId = f.organizationId;
      if (role === "peer" && channelPeerMsps && !channelPeerMsps.includes(mspId)) {
        out.blocked = `${mspId} is not a member of the channel`;
      }
      return out;
    });
}

/** The orgs of blocked choices, once each, to offer "add the organization first". */
export function blockedOrgs(choices: readonly NodeChoice[]): { organizationId?: number; mspId: string }[] {
  const seen = new Map<string, { organizationId?: number; mspId: string }>();
  for (const c of choices) {
    if (c.blocked && !seen.has(c.mspId)) {
      seen.set(c.mspId, {
        mspId: c.mspId,
        ...(c.organizationId !== undefined ? { organizationId: c.organizationId } : {}),
      });
    }
  }
  return [...seen.values()];
}

/** This console's orgs that are not application orgs of the channel yet, in MSP ID order. */
export function addableOwnOrgs<T extends { id: number; mspId: string }>(
  held: readonly T[],
  channelPeerMsps: readonly string[],
): T[] {
  const members = new Set(channelPeerMsps);
  return held.filter((o) => !members.has(o.mspId)).sort((a, b) => a.mspId.localeCompare(b.mspId));
}
