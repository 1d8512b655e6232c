import { Loader2Icon } from "lucide-react";
import { useReducer, useState, type ReactElement } from "react";
import { Link } from "react-router";
import { api, unwrap } from "@/api/client";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { FailedRetry, StepIcon } from "@/components/progress";
import { ORGANIZATION_LIST_LIMIT } from "@/app/constants";
import { Mono } from "@/components/DetailField";
import { PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useNodeCreateMutation } from "@/data/nodes/node-mutations";
import { useOrganizationsQuery } from "@/data/organizations/organizations-query";
import { bulkReducer, bulkSummary, pendingRows, type BulkRow } from "@/pages/nodes/bulk-progress";
import { FABRIC_FORM_EMPTY, suggestName, toCreateFabricBody, withDefaults } from "@/pages/nodes/fabric-form";
import { errorMessage } from "@/lib/utils";

function countOk(v: string): boolean {
  return /^\d+$/.test(v) && Number(v) >= 0 && Number(v) <= 20;
}

function BulkContent(): ReactElement {
  const orgs = useOrganizationsQuery(ORGANIZATION_LIST_LIMIT);
  const [orgId, setOrgId] = useState("");
  const [peers, setPeers] = useState("2");
  const [orderers, setOrderers] = useState("1");
  const [planError, setPlanError] = useState<string>();
  const [planning, setPlanning] = useState(false);
  const [rows, dispatch] = useReducer(bulkReducer, []);
  const [running, setRunning] = useState(false);
  const create = useNodeCreateMutation(true);
  const list = orgs.data?.items ?? [];
  const org = list.find((o) => String(o.id) === orgId) ?? list[0];

  const plan = async (): Promise<void> => {
    if (!org) return setPlanError("Create an organization first");
    if (!countOk(peers) || !countOk(orderers)) return setPlanError("Use 0–20 peers and 0–20 orderers");
    if (Number(peers) + Number(orderers) === 0) return setPlanError("Choose at least one node");
    setPlanError(undefined);
    setPlanning(true);
    try {
      const d = await unwrap(
        api.GET("/nodes/defaults/fabric", {
          params: { query: { peerCount: Number(peers), ordererCount: Number(orderers) } },
        }),
      );
      const planned: Omit<BulkRow, "state">[] = [];
      const add = (kind: "peer" | "orderer", i: number, defaults: (typeof d.peers)[number]): void => {
        const name = suggestName(kind, org.mspId, i);
        const values = withDefaults({ ...FABRIC_FORM_EMPTY, kind, name, organizationId: String(org.id) }, defaults);
        planned.push({ key: `${kind}-${i}`, kind, name, body: toCreateFabricBody(values, org.mspId) });
      };
      d.peers.forEach((p, i) => add("peer", i, p));
      d.orderers.forEach((o, i) => add("orderer", i, o));
      dispatch({ type: "plan", rows: planned });
    } catch (e) {
      setPlanError(errorMessage(e));
    } finally {
      setPlanning(false);
    }
  };

  const createOne = async (r: BulkRow): Promise<void> => {
    dispatch({ type: "creating", key: r.key });
    try {
      const n = await create.mutateAsync({ body: r.body });
      dispatch({ type: "done", key: r.key, nodeId: n.id });
    } catch (e) {
      dispatch({ type: "failed", key: r.key, error: errorMessage(e) });
    }
  };

  /** One after another: ports were proposed together, and the server checks them as each node lands. */
  const runAll = async (): Promise<void> => {
    setRunning(true);
    for (const r of pendingRows(rows)) await createOne(r);
    setRunning(false);
  };

  const sum = bulkSummary(rows);
  return (
    <div className="max-w-4xl space-y-6">
      <PageHeader
        title="Bulk Create Fabric Nodes"
        description="Create several peers and orderers for one organization, with free ports proposed for each."
      />
      <QueryState query={orgs}>
        {() => (
          <Card>
            <CardHeader>
              <CardTitle className="text-base">What to create</CardTitle>
              <CardDescription>Names follow peerN-org / ordererN-org; each node starts once created.</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4 sm:grid-cols-3">
              <div className="grid content-start gap-2">
                <Label htmlFor="bulk-org">Organization</Label>
                <Select value={org ? String(org.id) : ""} onValueChange={setOrgId} disabled={rows.length > 0}>
                  <SelectTrigger id="bulk-org" aria-label="Organization">
                    <SelectValue placeholder="No organizations yet" />
                  </SelectTrigger>
                  <SelectContent>
                    {list.map((o) => (
                      <SelectItem key={o.id} value={String(o.id)}>
                        {o.mspId}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </div>
              <div className="grid content-start gap-2">
                <Label htmlFor="bulk-peers">Peers</Label>
                <Input
                  id="bulk-peers"
                  inputMode="numeric"
                  value={peers}
                  disabled={rows.length > 0}
                  onChange={(e) => setPeers(e.target.value)}
                />
              </div>
              <div className="grid content-start gap-2">
                <Label htmlFor="bulk-orderers">Orderers</Label>
                <Input
                  id="bulk-orderers"
                  inputMode="numeric"
                  value={orderers}
                  disabled={rows.length > 0}
                  onChange={(e) => setOrderers(e.target.value)}
                />
              </div>
              <div className="sm:col-span-3">
                <FieldError message={planError} />
              </div>
            </CardContent>
            <CardFooter className="justify-end gap-2">
              {rows.length > 0 ? (
                <Button variant="outline" disabled={running} onClick={() => dispatch({ type: "reset" })}>
                  Start over
                </Button>
              ) : (
                <Button onClick={() => void plan()} disabled={planning}>
                  {planning && <Loader2Icon className="animate-spin" />}
                  Propose nodes
                </Button>
              )}
            </CardFooter>
          </Card>
        )}
      </QueryState>
      {rows.length > 0 && (
        <Card className="gap-0 pb-0">
          <CardHeader className="flex flex-row items-center justify-between gap-2 pb-4">
            <div>
              <CardTitle className="text-base">Nodes</CardTitle>
              <CardDescription>
                {sum.done} done · {sum.failed} failed · {sum.pending + sum.creating} to go
              </CardDescription>
            </div>
            <Button onClick={() => void runAll()} disabled={running || sum.pending === 0}>
              {running && <Loader2Icon className="animate-spin" />}
              {sum.done + sum.failed === 0 ? `Create ${rows.length} nodes` : "Create remaining"}
            </Button>
          </CardHeader>
          <div className="border-t">
            <Table data-testid="bulk-rows">
              <TableHeader>
                <TableRow>
                  <TableHead className="w-8">
                    <span className="sr-only">State</span>
                  </TableHead>
                  <TableHead>Name</TableHead>
                  <TableHead className="hidden sm:table-cell">Type</TableHead>
                  <TableHead className="hidden md:table-cell">Endpoint</TableHead>
                  <TableHead>Result</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((r) => {
                  const f = r.body.fabricPeer ?? r.body.fabricOrderer;
                  return (
                    <TableRow key={r.key} data-testid={`bulk-row-${r.name}`} data-state={r.state}>
                      <TableCell>
                        <StepIcon state={r.state === "creating" ? "running" : r.state} />
                      </TableCell>
                      <TableCell className="font-medium">{r.name}</TableCell>
                      <TableCell className="hidden capitalize sm:table-cell">{r.kind}</TableCell>
                      <TableCell className="hidden md:table-cell">
                        <Mono>{f?.externalEndpoint}</Mono>
                      </TableCell>
                      <TableCell>
                        {r.state === "done" && r.nodeId !== undefined && (
                          <Link to={`/nodes/${r.nodeId}`} className="text-sm hover:underline">
                            Open node
                          </Link>
                        )}
                        {r.state === "pending" && <Badge variant="secondary">Pending</Badge>}
                        {r.state === "creating" && <Badge variant="warning">Creating…</Badge>}
                        {r.state === "failed" && (
                          <FailedRetry
                            name={r.name}
                            message={r.error}
                            disabled={running}
                            onRetry={() => void createOne(r)}
                            badge={false}
                          />
                        )}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </div>
        </Card>
      )}
    </div>
  );
}

export function FabricBulkCreatePage(): ReactElement {
  return (
    <OperatorsOnly what="create nodes">
      <BulkContent />
    </OperatorsOnly>
  );
}
