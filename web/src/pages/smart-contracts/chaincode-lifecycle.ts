import type { DefinitionStatus } from "@/data/chaincodes/types";

export type StepState = "done" | "partial" | "todo";
export interface LifecycleSteps {
  install: StepState;
  approve: StepState;
  commit: StepState;
  deploy: StepState;
}

/**
 * Where each lifecycle step of a definition stands, from what the peers report: install on every
 * channel peer, approval by every channel org, committed at this sequence, server running.
 */
export function lifecycleSteps(s: DefinitionStatus, sequence: number): LifecycleSteps {
  const installed = s.peers.filter((p) => p.installed).length;
  const approved = s.orgs.filter((o) => o.approved).length;
  const committed = s.committed !== null && s.committed.sequence >= sequence;
  return {
    install: installed === 0 ? "todo" : installed === s.peers.length ? "done" : "partial",
    approve:
      committed || (s.orgs.length > 0 && approved === s.orgs.length) ? "done" : approved > 0 ? "partial" : "todo",
    commit: committed ? "done" : "todo",
    deploy: s.deploy.status === "running" ? "done" : s.deploy.status === "building" ? "partial" : "todo",
  };
}

/** Peers grouped by org, with one peer to act for each (a running one when there is). */
export function peersByOrg(s: DefinitionStatus): { mspId: string; peers: DefinitionStatus["peers"]; actor?: number }[] {
  const orgs = new Map<string, DefinitionStatus["peers"]>();
  for (const p of s.peers) orgs.set(p.msp_id, [...(orgs.get(p.msp_id) ?? []), p]);
  return [...orgs.entries()].map(([mspId, peers]) => ({
    mspId,
    peers,
    actor: (peers.find((p) => p.status === "RUNNING") ?? peers[0])?.peer_id,
  }));
}
