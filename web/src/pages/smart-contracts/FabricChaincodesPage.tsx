import { Loader2Icon, PlusIcon, BoxesIcon, CodeIcon } from "lucide-react";
import { useState, type FormEvent, type ReactElement } from "react";
import { Link, useNavigate } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { OPERATORS } from "@/app/roles";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
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
import { useCreateChaincodeMutation } from "@/data/chaincodes/chaincode-mutations";
import { useChaincodesQuery } from "@/data/chaincodes/chaincode-queries";
import type { Chaincode } from "@/data/chaincodes/types";
import { errorMessage } from "@/lib/utils";
import { FabricNetworkSelect } from "@/pages/smart-contracts/FabricNetworkSelect";
import { ChaincodeStatusBadge, OutsideBadge } from "@/pages/smart-contracts/ChaincodeStatusBadge";
import { useProjectsQuery } from "@/data/projects/project-data";
import { CreateProjectDialog, ProjectTable } from "@/pages/smart-contracts/projects/CreateProjectDialog";

/** Name + channel: a chaincode is a name on one Fabric channel. */
export function CreateChaincodeDialog({
  onClose,
  networkId,
}: {
  onClose: () => void;
  networkId?: number;
}): ReactElement {
  const create = useCreateChaincodeMutation();
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [network, setNetwork] = useState(networkId ? String(networkId) : "");
  const [error, setError] = useState<string>();
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    setError(undefined);
    if (!name.trim()) return setError("Name is required");
    if (!network) return setError("Choose a network");
    create.mutate(
      { name: name.trim(), network_id: Number(network) },
      { onSuccess: (cc) => navigate(`/sc/fabric/chaincodes/${cc.id}`), onError: (err) => setError(errorMessage(err)) },
    );
  };
  return (
    <Dialog open onOpenChange={(v) => !v && onClose()}>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Create chaincode</DialogTitle>
            <DialogDescription>
              A chaincode is a name on one Fabric channel; its code comes with each definition.
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="cc-name">Name</Label>
            <Input id="cc-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="asset-transfer" />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="cc-network">Network</Label>
            <FabricNetworkSelect id="cc-network" value={network} onChange={setNetwork} />
          </div>
          <FieldError message={error} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && <Loader2Icon className="animate-spin" />} Create
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Chaincodes as a table: name, channel, latest definition and its server. */
export function ChaincodeTable({
  chaincodes,
  hrefOf,
}: {
  chaincodes: Chaincode[];
  hrefOf?: (c: Chaincode) => string;
}): ReactElement {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Channel</TableHead>
          <TableHead>Latest definition</TableHead>
          <TableHead>Server</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {chaincodes.map((c) => (
          <TableRow key={c.id}>
            <TableCell className="font-medium">
              <Link className="hover:underline" to={hrefOf ? hrefOf(c) : `/sc/fabric/chaincodes/${c.id}`}>
                {c.name}
              </Link>
            </TableCell>
            <TableCell>
              <Link className="hover:underline" to={`/networks/${c.network_id}/fabric`}>
                {c.network_name}
              </Link>
            </TableCell>
            <TableCell>
              {c.latest_definition ? (
                <span className="flex flex-wrap items-center gap-2">
                  v{c.latest_definition.version} · sequence {c.latest_definition.sequence}
                  {c.latest_definition.origin === "adopted" && <OutsideBadge />}
                </span>
              ) : (
                "No definition yet"
              )}
            </TableCell>
            <TableCell>
              <ChaincodeStatusBadge status={c.latest_definition?.deploy_status ?? "none"} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** smart-contracts/fabric: every chaincode with its latest definition and server state. */
export function FabricChaincodesPage(): ReactElement {
  const list = useChaincodesQuery();
  const projects = useProjectsQuery();
  const [creating, setCreating] = useState(false);
  const [creatingProject, setCreatingProject] = useState(false);
  const createButton = (
    <RoleGate allowed={OPERATORS}>
      <Button onClick={() => setCreating(true)}>
        <PlusIcon /> Create chaincode
      </Button>
    </RoleGate>
  );
  const createProjectButton = (
    <RoleGate allowed={OPERATORS}>
      <Button variant="outline" onClick={() => setCreatingProject(true)}>
        <CodeIcon /> Create project
      </Button>
    </RoleGate>
  );
  return (
    <div>
      <PageHeader
        title="Fabric Chaincodes"
        description="Chaincodes on this console's channels: definitions, lifecycle and their servers."
        actions={
          <>
            {createProjectButton}
            {createButton}
          </>
        }
      />
      <Card>
        <QueryState
          query={list}
          isEmpty={(d) => d.length === 0}
          empty={
            <EmptyState
              icon={BoxesIcon}
              title="No chaincodes yet"
              description="Create a chaincode on a channel, add a definition with its code, then install, approve, commit and deploy it."
              action={createButton}
            />
          }
        >
          {(data) => <ChaincodeTable chaincodes={data} />}
        </QueryState>
      </Card>
      <h2 className="mt-8 mb-3 text-lg font-semibold">Projects</h2>
      <Card>
        <QueryState
          query={projects}
          isEmpty={(d) => d.length === 0}
          empty={
            <EmptyState
              icon={CodeIcon}
              title="No projects yet"
              description="A project starts from a TypeScript, JavaScript or Go boilerplate; edit it in the browser and run it on a channel with one click."
              action={createProjectButton}
            />
          }
        >
          {(data) => <ProjectTable projects={data} />}
        </QueryState>
      </Card>
      {creating && <CreateChaincodeDialog onClose={() => setCreating(false)} />}
      {creatingProject && <CreateProjectDialog onClose={() => setCreatingProject(false)} />}
    </div>
  );
}
