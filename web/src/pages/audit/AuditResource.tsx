import { useQuery } from "@tanstack/react-query";
import type { ReactElement } from "react";
import { Link } from "react-router";
import { API_BASE } from "@/api/client";

/** How to name and link one kind of audited resource: where to read it, and where its screen is. */
interface ResourceKind {
  /** API paths to try in turn (a network id is a Fabric or a Besu network). */
  read: string[];
  /** The screen of each read, in the same order. */
  screen: string[];
  name: (body: Record<string, unknown>) => unknown;
}

const named = (b: Record<string, unknown>): unknown => b.name;

const KINDS: Record<string, ResourceKind> = {
  network: {
    read: ["/networks/fabric/{id}", "/networks/besu/{id}"],
    screen: ["/networks/{id}/fabric", "/networks/{id}/besu"],
    name: named,
  },
  node: { read: ["/nodes/{id}"], screen: ["/nodes/{id}"], name: named },
  organization: { read: ["/organizations/{id}"], screen: ["/organizations/{id}"], name: (b) => b.mspId },
  key: { read: ["/keys/{id}"], screen: ["/settings/keys/{id}"], name: named },
  key_provider: { read: ["/key-providers/{id}"], screen: ["/settings/providers/{id}"], name: named },
  template: { read: ["/templates/{id}"], screen: ["/templates/{id}"], name: named },
  chaincode_project: {
    read: ["/chaincode-projects/{id}"],
    screen: ["/sc/fabric/projects/chaincodes/{id}"],
    name: named,
  },
  chaincode: {
    read: ["/sc/fabric/chaincodes/{id}"],
    screen: ["/sc/fabric/chaincodes/{id}"],
    name: (b) => (b.chaincode as Record<string, unknown> | undefined)?.name ?? b.name,
  },
};

/** `kind:id` split, when the id is a database id of a kind the console can name. */
export function parseResource(resource: string): { kind: string; id: number } | undefined {
  const m = /^([a-z_]+):(\d+)$/.exec(resource);
  if (!m || !KINDS[m[1]!]) return undefined;
  return { kind: m[1]!, id: Number(m[2]) };
}

async function lookUp(kind: ResourceKind, id: number): Promise<{ name: string; href: string } | null> {
  for (const [i, path] of kind.read.entries()) {
    const res = await fetch(`${API_BASE}${path.replace("{id}", String(id))}`, { credentials: "same-origin" });
    if (!res.ok) continue;
    const name = kind.name((await res.json()) as Record<string, unknown>);
    if (typeof name === "string" && name !== "") return { name, href: kind.screen[i]!.replace("{id}", String(id)) };
  }
  return null;
}

/**
 * An audit entry's resource by its name, linked to its screen (`network:2` reads "mychannel", with
 * the stored text beside it); the stored text alone when the thing is gone or is not nameable.
 */
export function AuditResource({ resource }: { resource: string | null | undefined }): ReactElement {
  const parsed = resource ? parseResource(resource) : undefined;
  const q = useQuery({
    queryKey: ["audit-resource", resource],
    queryFn: () => lookUp(KINDS[parsed!.kind]!, parsed!.id),
    enabled: parsed !== undefined,
    staleTime: 60_000,
  });
  if (!resource) return <>—</>;
  if (!q.data) return <>{resource}</>;
  return (
    <span>
      <Link to={q.data.href} className="hover:underline" data-testid="audit-resource-name">
        {q.data.name}
      </Link>{" "}
      <span className="text-xs text-muted-foreground">({resource})</span>
    </span>
  );
}
