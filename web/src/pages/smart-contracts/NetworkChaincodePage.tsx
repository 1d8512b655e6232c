import type { ReactElement } from "react";
import { Link, useParams } from "react-router";
import { DetailField, Mono } from "@/components/DetailField";
import { ErrorState, LoadingRows, PageHeader } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useChaincodeQuery, useDefinitionsQuery, useDefinitionStatusQuery } from "@/data/chaincodes/chaincode-queries";
import { ChaincodeStatusBadge, OutsideBadge } from "@/pages/smart-contracts/ChaincodeStatusBadge";

/** networks/fabric/chaincodes/{id}: the chaincode as its channel sees it (committed definition, peers, approvals). */
export function NetworkChaincodePage(): ReactElement {
  const id = Number(useParams().id);
  const cc = useChaincodeQuery(id);
  const defs = useDefinitionsQuery(id);
  const latest = defs.data?.at(-1);
  const status = useDefinitionStatusQuery(latest?.id);
  if (cc.isPending) return <LoadingRows />;
  if (cc.isError) return <ErrorState error={cc.error} what="Chaincode" />;
  const s = status.data;
  return (
    <div className="grid grid-cols-1 gap-4">
      <PageHeader
        title={cc.data.name}
        description={
          <>
            On channel{" "}
            <Link className="underline" to={`/networks/${cc.data.network_id}/fabric`}>
              {cc.data.network_name}
            </Link>
          </>
        }
        actions={
          <Button asChild variant="outline">
            <Link to={`/sc/fabric/chaincodes/${id}`}>Manage lifecycle</Link>
          </Button>
        }
      />
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Committed on the channel</CardTitle>
        </CardHeader>
        <CardContent>
          {s?.committed ? (
            <dl className="grid gap-3 sm:grid-cols-3">
              <DetailField label="Version">{s.committed.version}</DetailField>
              <DetailField label="Sequence">{s.committed.sequence}</DetailField>
              <DetailField label="Endorsement policy">
                <Mono>{s.committed.endorsement_policy || "channel default"}</Mono>
              </DetailField>
            </dl>
          ) : (
            <p className="text-sm text-muted-foreground">
              {status.isPending && latest ? "Asking the peers…" : "No definition committed on this channel yet."}
            </p>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Definitions</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-2">
          {(defs.data ?? []).map((d) => (
            <div key={d.id} className="flex flex-wrap items-center gap-2 text-sm">
              v{d.version} · sequence {d.sequence} <ChaincodeStatusBadge status={d.deploy_status} />
              {s?.committed?.sequence === d.sequence && <Badge variant="success">Committed</Badge>}
              {d.origin === "adopted" && <OutsideBadge />}
            </div>
          ))}
          {defs.data?.length === 0 && <p className="text-sm text-muted-foreground">No definitions.</p>}
        </CardContent>
      </Card>
      {s && (
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Peers of the channel</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-1 text-sm">
            {s.peers.map((p) => (
              <div key={p.peer_id}>
                {p.peer_name} ({p.msp_id}): {p.installed ? "latest package installed" : "latest package not installed"}
              </div>
            ))}
          </CardContent>
        </Card>
      )}
    </div>
  );
}
