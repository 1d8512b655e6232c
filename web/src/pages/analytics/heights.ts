/** A channel member as GET /networks/fabric/{id}/map lists it (the fields the heights card uses). */
export interface MapNode {
  nodeId: number;
  id: string;
  role: string;
  mspId: string;
  mine: boolean;
  healthy: boolean;
  height: number;
  joinStatus: string;
  error?: string | undefined;
}

export interface HeightRow extends MapNode {
  /** Blocks behind the channel's highest member; null when the node gave no height. */
  behind: number | null;
}

export interface ChannelHeights {
  /** The highest height any member reported (0 when none did). */
  max: number;
  rows: HeightRow[];
}

/**
 * Heights of a channel's members against the highest one. A node that did not answer (unhealthy,
 * or 0: not joined or unreachable, as the map reports it) has no "behind", so it isn't counted as
 * lagging by the whole chain. Orderers first, then peers, each by name.
 */
export function channelHeights(nodes: readonly MapNode[]): ChannelHeights {
  const answered = (n: MapNode): boolean => n.healthy && n.height > 0;
  const max = Math.max(0, ...nodes.filter(answered).map((n) => n.height));
  const rows = nodes
    .map((n) => ({ ...n, behind: answered(n) ? max - n.height : null }))
    .sort((a, b) => (a.role === b.role ? a.id.localeCompare(b.id) : a.role === "orderer" ? -1 : 1));
  return { max, rows };
}
