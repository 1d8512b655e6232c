import { FlaskConicalIcon, PencilIcon, PlusIcon, Trash2Icon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { OPERATORS } from "@/app/roles";
import { DetailField, Mono } from "@/components/DetailField";
import { EmptyState, ErrorState, LoadingRows, PageHeader } from "@/components/states";
import { ConfirmButton } from "@/components/ConfirmDialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useMeQuery } from "@/data/auth/me-query";
import { useDeleteChaincodeMutation } from "@/data/chaincodes/chaincode-mutations";
import { useChaincodeQuery, useDefinitionsQuery } from "@/data/chaincodes/chaincode-queries";
import type { ChaincodeDefinition } from "@/data/chaincodes/types";
import { showMutationError } from "@/data/error-toast";
import { cn } from "@/lib/utils";
import { ChaincodeCallPanel } from "@/pages/smart-contracts/ChaincodeCallPanel";
import { ChaincodeStatusBadge, OutsideBadge } from "@/pages/smart-contracts/ChaincodeStatusBadge";
import { DefinitionLifecycle } from "@/pages/smart-contracts/DefinitionLifecycle";

function DefinitionSummary({ d }: { d: ChaincodeDefinition }): ReactElement {
  return (
    <dl className="grid gap-3 sm:grid-cols-3">
      <DetailField label="Version">{d.version}</DetailField>
      <DetailField label="Sequence">{d.sequence}</DetailField>
      <DetailField label="Endorsement policy">
        <Mono>{d.endorsement_policy || "channel default (/Channel/Application/Endorsement)"}</Mono>
      </DetailField>
      <DetailField label="Source">
        {d.source_type === "docker" && d.docker_image ? (
          <>
            Docker image <Mono>{d.docker_image}</Mono>
          </>
        ) : (
          d.source_type
        )}
      </DetailField>
      <DetailField label="Address">
        <Mono>{d.chaincode_address}</Mono>
      </DetailField>
      <DetailField label="TLS">{d.tls ? "Yes" : "No"}</DetailField>
      <DetailField label="Init required">{d.init_required ? "Yes" : "No"}</DetailField>
      {d.origin === "adopted" && (
        <DetailField label="Origin" className="sm:col-span-2">
          <OutsideBadge />
        </DetailField>
      )}
      {d.collections.length > 0 && (
        <DetailField label="Collections" className="sm:col-span-3">
          {d.collections.map((c) => c.name).join(", ")}
        </DetailField>
      )}
    </dl>
  );
}

/** sc/fabric/chaincodes/{id}: definitions, the lifecycle of one, its timeline and logs, and calls. */
export function ChaincodeDetailPage(): ReactElement {
  const id = Number(useParams().id);
  const cc = useChaincodeQuery(id);
  const defs = useDefinitionsQuery(id);
  const me = useMeQuery();
  const del = useDeleteChaincodeMutation();
  const navigate = useNavigate();
  const [selected, setSelected] = useState<number>();
  if (cc.isPending) return <LoadingRows />;
  if (cc.isError) return <ErrorState error={cc.error} what="Chaincode" />;
  const list = defs.data ?? [];
  const current = list.find((d) => d.id === selected) ?? list.at(-1);
  const canInvoke = me.data?.role === "admin" || me.data?.role === "manager";
  return (
    <div className="grid grid-cols-1 gap-4">
      <PageHeader
        title={cc.data.name}
        description={
          <>
            Chaincode on channel{" "}
            <Link className="underline" to={`/networks/${cc.data.network_id}/fabric`}>
              {cc.data.network_name}
            </Link>
          </>
        }
        actions={
          <>
            <Button asChild variant="outline">
              <Link to={`/smart-contracts/fabric/${id}/playground`}>
                <FlaskConicalIcon /> Playground
              </Link>
            </Button>
            <RoleGate allowed={OPERATORS}>
              <Button asChild>
                <Link to={`/sc/fabric/chaincodes/${id}/add-definition`}>
                  <PlusIcon /> Add definition
                </Link>
              </Button>
              <ConfirmButton
                aria-label="Delete chaincode"
                title={`Delete chaincode ${cc.data.name}?`}
                description="Its definitions go and its chaincode servers stop; what is committed on the channel stays there."
                confirmLabel="Delete"
                pending={del.isPending}
                onConfirm={() =>
                  del.mutate(id, { onSuccess: () => navigate("/smart-contracts/fabric"), onError: showMutationError })
                }
              >
                <Trash2Icon />
              </ConfirmButton>
            </RoleGate>
          </>
        }
      />
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Definitions</CardTitle>
        </CardHeader>
        <CardContent>
          {list.length === 0 ? (
            <EmptyState
              title="No definition yet"
              description="A definition says which version and sequence to run, under which endorsement policy, from which source."
              action={
                <RoleGate allowed={OPERATORS}>
                  <Button asChild>
                    <Link to={`/sc/fabric/chaincodes/${id}/add-definition`}>Add definition</Link>
                  </Button>
                </RoleGate>
              }
            />
          ) : (
            <div className="flex flex-wrap gap-2" role="tablist" aria-label="Definitions">
              {list.map((d) => (
                <button
                  key={d.id}
                  type="button"
                  role="tab"
                  aria-selected={current?.id === d.id}
                  onClick={() => setSelected(d.id)}
                  className={cn(
                    "flex items-center gap-2 rounded-md border px-3 py-1.5 text-sm",
                    current?.id === d.id ? "border-primary bg-primary/5" : "hover:bg-muted/50",
                  )}
                >
                  v{d.version} · seq {d.sequence} <ChaincodeStatusBadge status={d.deploy_status} />
                  {d.origin === "adopted" && <OutsideBadge />}
                </button>
              ))}
            </div>
          )}
        </CardContent>
      </Card>
      {current && (
        <>
          <Card>
            <CardHeader className="flex flex-row items-center justify-between gap-2">
              <CardTitle className="text-base">
                Definition v{current.version} (sequence {current.sequence})
              </CardTitle>
              <RoleGate allowed={OPERATORS}>
                <Button asChild size="sm" variant="outline">
                  <Link to={`/sc/fabric/chaincodes/${id}/definitions/${current.id}/edit`}>
                    <PencilIcon /> Edit
                  </Link>
                </Button>
              </RoleGate>
            </CardHeader>
            <CardContent className="grid gap-4">
              {current.origin === "adopted" && (
                <p className="text-sm text-muted-foreground">
                  Committed on {cc.data.network_name} outside this console (the peer CLI or another console) and
                  recorded here from what its peers report. Its code is not here: upload it to run it on this console,
                  or add a definition with sequence {current.sequence + 1} to upgrade it.
                </p>
              )}
              <DefinitionSummary d={current} />
            </CardContent>
          </Card>
          <DefinitionLifecycle key={current.id} def={current} />
        </>
      )}
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Invoke or query</CardTitle>
        </CardHeader>
        <CardContent>
          <ChaincodeCallPanel chaincodeId={id} canInvoke={canInvoke} />
        </CardContent>
      </Card>
    </div>
  );
}
