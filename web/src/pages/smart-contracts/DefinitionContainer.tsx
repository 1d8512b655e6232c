import type { ReactElement } from "react";
import { CopyButton } from "@/components/CopyButton";
import { Mono } from "@/components/DetailField";
import { Badge } from "@/components/ui/badge";
import { useDefinitionDockerInfoQuery } from "@/data/chaincodes/chaincode-queries";
import { errorMessage } from "@/lib/utils";

/** Docker's short form of a container id (the first 12 hex digits), as `docker ps` prints it. */
export function shortContainerId(id: string): string {
  return /^[0-9a-f]{64}$/.test(id) ? id.slice(0, 12) : id;
}

/**
 * The container a definition deployed from an image runs in: short id, image and state, from the
 * engine (docker-info). Shown only while the definition is deployed; nothing runs otherwise.
 */
export function DefinitionContainer({
  definitionId,
  deployed,
}: {
  definitionId: number;
  deployed: boolean;
}): ReactElement | null {
  const info = useDefinitionDockerInfoQuery(definitionId, deployed);
  if (!deployed) return null;
  if (info.isPending) return <p className="text-muted-foreground">Looking up the container…</p>;
  if (info.isError) return <p className="text-muted-foreground">Container unknown: {errorMessage(info.error)}</p>;
  const c = info.data;
  return (
    <dl className="flex flex-wrap gap-x-6 gap-y-1" data-testid="definition-container">
      <div className="flex items-center gap-1">
        <dt className="text-muted-foreground">Container</dt>
        <dd className="inline-flex items-center gap-1" title={c.id}>
          <Mono>{shortContainerId(c.id)}</Mono>
          <CopyButton value={c.id} label="Copy id" />
        </dd>
      </div>
      <div className="flex items-center gap-1">
        <dt className="text-muted-foreground">Image</dt>
        <dd>
          <Mono>{c.image}</Mono>
        </dd>
      </div>
      <div className="flex items-center gap-1">
        <dt className="text-muted-foreground">State</dt>
        <dd className="inline-flex items-center gap-1">
          <Badge variant={c.state === "running" ? "success" : "secondary"}>{c.state}</Badge>
          {/* The status says more than the state only after restarts ("running (2 restarts)"). */}
          {c.status && c.status !== c.state && <span className="text-muted-foreground">{c.status}</span>}
        </dd>
      </div>
    </dl>
  );
}
