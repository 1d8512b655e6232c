import { Loader2Icon } from "lucide-react";
import { useState, type FormEvent, type ReactElement } from "react";
import { Link, useNavigate } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useBoilerplatesQuery, useCreateProjectMutation } from "@/data/projects/project-data";
import type { Project } from "@/data/projects/types";
import { errorMessage } from "@/lib/utils";
import { FabricNetworkSelect } from "@/pages/smart-contracts/FabricNetworkSelect";

const STATUS: Record<Project["status"], "success" | "warning" | "destructive" | "secondary"> = {
  running: "success",
  building: "warning",
  error: "destructive",
  stopped: "secondary",
};

/** A project's state; while it builds, the start's current phase (build, install, run, verify, approve, commit). */
export function ProjectStatusBadge({ status, phase }: { status: Project["status"]; phase?: string }): ReactElement {
  const label = status[0]!.toUpperCase() + status.slice(1);
  return (
    <Badge variant={STATUS[status]} data-testid="project-status">
      {status === "building" && phase ? `${label} · ${phase}` : label}
    </Badge>
  );
}

/** A new project: name, channel, boilerplate (TypeScript, JavaScript or Go) and endorsement policy. */
export function CreateProjectDialog({ onClose }: { onClose: () => void }): ReactElement {
  const create = useCreateProjectMutation();
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [network, setNetwork] = useState("");
  const [boilerplate, setBoilerplate] = useState("chaincode-typescript");
  const [policy, setPolicy] = useState("");
  const [error, setError] = useState<string>();
  const boilerplates = useBoilerplatesQuery(network ? Number(network) : undefined);
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    setError(undefined);
    if (!name.trim()) return setError("Name is required");
    if (!network) return setError("Choose a network");
    create.mutate(
      { name: name.trim(), networkId: Number(network), boilerplate, endorsementPolicy: policy.trim() },
      {
        onSuccess: (p) => navigate(`/sc/fabric/projects/chaincodes/${p.id}/editor`),
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };
  return (
    <Dialog open onOpenChange={(v) => !v && onClose()}>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Create chaincode project</DialogTitle>
            <DialogDescription>
              Start from a boilerplate, edit it in the browser and run it on a channel with one click.
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="project-name">Name</Label>
            <Input
              id="project-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="asset-transfer"
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="project-network">Network</Label>
            <FabricNetworkSelect id="project-network" value={network} onChange={setNetwork} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="project-boilerplate">Boilerplate</Label>
            <select
              id="project-boilerplate"
              className="h-9 rounded-md border bg-background px-3 text-sm"
              value={boilerplate}
              onChange={(e) => setBoilerplate(e.target.value)}
            >
              {boilerplates.data === undefined && <option value={boilerplate}>Loading boilerplates…</option>}
              {/* Before a network is chosen, every Fabric boilerplate (projects run on Fabric channels). */}
              {boilerplates.data
                ?.filter((b) => network !== "" || b.platform === "FABRIC")
                .map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.name}
                  </option>
                ))}
            </select>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="project-policy">Endorsement policy (optional)</Label>
            <Input
              id="project-policy"
              value={policy}
              onChange={(e) => setPolicy(e.target.value)}
              placeholder="OR('Org1MSP.member') — empty for the channel default"
            />
          </div>
          <FieldError message={error} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && <Loader2Icon className="animate-spin" />} Create project
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Projects as a table: name, channel, boilerplate, status. */
export function ProjectTable({ projects }: { projects: Project[] }): ReactElement {
  return (
    <Table aria-label="Chaincode projects">
      <TableHeader>
        <TableRow>
          <TableHead>Project</TableHead>
          <TableHead>Channel</TableHead>
          <TableHead>Boilerplate</TableHead>
          <TableHead>Status</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {projects.map((p) => (
          <TableRow key={p.id}>
            <TableCell className="font-medium">
              <Link className="hover:underline" to={`/sc/fabric/projects/chaincodes/${p.id}`}>
                {p.name}
              </Link>
            </TableCell>
            <TableCell>{p.networkName}</TableCell>
            <TableCell>{p.boilerplate}</TableCell>
            <TableCell>
              <ProjectStatusBadge status={p.status} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
