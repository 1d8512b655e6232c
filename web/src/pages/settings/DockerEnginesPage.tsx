import { ContainerIcon, RefreshCwIcon, Trash2Icon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { RoleGate } from "@/app/RoleGate";
import { DeleteResourceDialog } from "@/components/ConfirmDialog";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useDockerEngineDeleteMutation } from "@/data/docker-engines/docker-engine-delete-mutation";
import { useDockerEnginesQuery } from "@/data/docker-engines/docker-engines-query";
import type { DockerEngine } from "@/data/docker-engines/types";
import { EngineRegisterDialog } from "@/pages/settings/docker-engines/EngineRegisterDialog";
import { SettingsNav } from "@/pages/settings/SettingsNav";

/** Up with the engine's version, or down with why it did not answer. */
function EngineStatus({ engine }: { engine: DockerEngine }): ReactElement {
  if (engine.status === "up") {
    return (
      <span className="flex items-center gap-2">
        <Badge variant="success">Up</Badge>
        {engine.version && <span className="text-xs text-muted-foreground">Docker {engine.version}</span>}
      </span>
    );
  }
  return (
    <span className="flex flex-col gap-1">
      <Badge variant="destructive">Down</Badge>
      {engine.error && <span className="text-xs break-all text-muted-foreground">{engine.error}</span>}
    </span>
  );
}

function EngineDeleteDialog({ engine, onClose }: { engine: DockerEngine; onClose: () => void }): ReactElement {
  return (
    <DeleteResourceDialog
      open
      onOpenChange={(v) => !v && onClose()}
      onDeleted={onClose}
      mutation={useDockerEngineDeleteMutation()}
      id={engine.id}
      name={engine.name}
      title={`Remove engine ${engine.name}?`}
      description="The console forgets the engine and its TLS material. The engine itself and its containers are not touched. An engine that runs a node can't be removed."
      confirmLabel="Remove engine"
      deletedTitle="Engine removed"
      errorInDialog="The engine could not be removed."
    />
  );
}

/** The engines table; the delete column is for admins, and the local engine can't be removed. */
export function EnginesTable({
  engines,
  onDelete,
}: {
  engines: readonly DockerEngine[];
  onDelete: (e: DockerEngine) => void;
}): ReactElement {
  return (
    <Table aria-label="Docker engines">
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Host</TableHead>
          <TableHead>TLS</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="w-12">
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {engines.map((e) => (
          <TableRow key={e.id}>
            <TableCell>
              <span className="flex items-center gap-2">
                <span className="font-medium">{e.name}</span>
                {e.local && <Badge variant="outline">This console</Badge>}
              </span>
            </TableCell>
            <TableCell className="font-mono text-xs">{e.host}</TableCell>
            <TableCell>{e.tls ? "Yes" : "No"}</TableCell>
            <TableCell>
              <EngineStatus engine={e} />
            </TableCell>
            <TableCell>
              {!e.local && (
                <RoleGate allowed={["admin"]}>
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    className="text-destructive"
                    aria-label={`Remove ${e.name}`}
                    onClick={() => onDelete(e)}
                  >
                    <Trash2Icon />
                  </Button>
                </RoleGate>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Settings → Docker engines: every engine container nodes can go on, pinged on each load; admins add and remove. */
export function DockerEnginesPage(): ReactElement {
  const engines = useDockerEnginesQuery();
  const [deleting, setDeleting] = useState<DockerEngine | null>(null);
  return (
    <div>
      <PageHeader title="Settings" description="Configure your ChainLaunch installation." />
      <SettingsNav />
      <Card className="pb-0">
        <CardHeader className="flex flex-row items-start justify-between gap-4">
          <div className="grid gap-1.5">
            <CardTitle>Docker engines</CardTitle>
            <CardDescription>
              Where Fabric nodes with the Docker container runtime run. Each engine is asked for its status when this
              page loads.
            </CardDescription>
          </div>
          <div className="flex shrink-0 gap-2">
            <Button
              variant="outline"
              size="icon"
              aria-label="Check the engines again"
              disabled={engines.isFetching}
              onClick={() => void engines.refetch()}
            >
              <RefreshCwIcon className={engines.isFetching ? "animate-spin" : undefined} />
            </Button>
            <RoleGate allowed={["admin"]}>
              <EngineRegisterDialog />
            </RoleGate>
          </div>
        </CardHeader>
        <CardContent className="px-0">
          <QueryState
            query={engines}
            isEmpty={(d) => d.length === 0}
            empty={
              <EmptyState
                icon={ContainerIcon}
                title="No Docker engines"
                description="This console has no local engine and none is registered. An admin can register one."
              />
            }
          >
            {(list) => <EnginesTable engines={list} onDelete={setDeleting} />}
          </QueryState>
        </CardContent>
      </Card>
      {deleting && <EngineDeleteDialog engine={deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}
