import { DeleteResourceButton } from "@/components/ConfirmDialog";
import { DownloadIcon, KeyRoundIcon } from "lucide-react";
import { useMemo, type ReactElement } from "react";
import { Link, useParams } from "react-router";
import type { BesuNetwork } from "@/api/client";
import { RoleGate } from "@/app/RoleGate";
import { CopyButton } from "@/components/CopyButton";
import { DetailField, Mono } from "@/components/DetailField";
import { downloadText } from "@/components/PemBlock";
import { PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useBesuNetworkDeleteMutation } from "@/data/besu-networks/besu-network-delete-mutation";
import { useBesuNetworkQuery } from "@/data/besu-networks/besu-network-query";
import { useKeysQuery } from "@/data/keys/keys-query";
import { formatDateTime } from "@/lib/utils";
import { decodeNetworkConfig, formatWei, prettyJson } from "@/pages/networks/besu-form";
import { NetworkNodes, ValidatorVoting } from "@/pages/nodes/ValidatorVoting";
import { ShareNetworkButton } from "@/pages/shared-networks/ShareNetworkButton";

function param(
  config: Record<string, unknown> | undefined,
  qbft: Record<string, unknown>,
  a: string,
  b: string,
): string {
  const v = config?.[a] ?? qbft[b];
  return v === undefined || v === null ? "—" : String(v);
}

function Overview({ n }: { n: BesuNetwork }): ReactElement {
  const config = decodeNetworkConfig(n.config);
  const genesis = useMemo(() => {
    try {
      return JSON.parse(n.genesisConfig) as { config?: { qbft?: Record<string, unknown> }; gasLimit?: string };
    } catch {
      return {};
    }
  }, [n.genesisConfig]);
  const qbft = genesis.config?.qbft ?? {};
  const f = Math.floor((n.validators.length - 1) / 3);
  const alloc = Object.entries((genesis as { alloc?: Record<string, { balance?: string }> }).alloc ?? {});
  return (
    <div className="space-y-6">
      <Card>
        <CardContent>
          <dl className="grid grid-cols-2 gap-5 md:grid-cols-4">
            <DetailField label="Chain ID">
              <span className="font-mono">{n.chainId}</span>
            </DetailField>
            <DetailField label="Consensus">QBFT</DetailField>
            <DetailField label="Status">
              <Badge variant={n.status === "imported" ? "secondary" : "success"} className="capitalize">
                {n.status}
              </Badge>
            </DetailField>
            <DetailField label="Validators">
              {n.validators.length}
              <span className="ml-1 text-xs font-normal text-muted-foreground">(tolerates {f} faulty)</span>
            </DetailField>
            <DetailField label="Block period">{param(config, qbft, "blockPeriod", "blockperiodseconds")} s</DetailField>
            <DetailField label="Epoch length">{param(config, qbft, "epochLength", "epochlength")} blocks</DetailField>
            <DetailField label="Request timeout">
              {param(config, qbft, "requestTimeout", "requesttimeoutseconds")} s
            </DetailField>
            <DetailField label="Gas limit">
              <Mono>{String(config?.gasLimit ?? genesis.gasLimit ?? "—")}</Mono>
            </DetailField>
            <DetailField label="Created">{formatDateTime(n.createdAt)}</DetailField>
            <DetailField label="Updated">{formatDateTime(n.updatedAt)}</DetailField>
          </dl>
        </CardContent>
      </Card>
      <Card className="gap-0 pb-0">
        <CardHeader className="pb-4">
          <CardTitle className="text-base">Pre-funded accounts</CardTitle>
          <CardDescription>Balances the genesis allocates, in wei.</CardDescription>
        </CardHeader>
        <div className="border-t">
          {alloc.length === 0 ? (
            <p className="px-5 py-4 text-sm text-muted-foreground">This genesis funds no accounts.</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Address</TableHead>
                  <TableHead>Balance (wei)</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {alloc.map(([address, a]) => (
                  <TableRow key={address}>
                    <TableCell>
                      <Mono className="block max-w-36 truncate sm:max-w-none">
                        {address.startsWith("0x") ? address : `0x${address}`}
                      </Mono>
                    </TableCell>
                    <TableCell>
                      <Mono>{formatWei(a.balance)}</Mono>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </div>
      </Card>
    </div>
  );
}

function Validators({ n }: { n: BesuNetwork }): ReactElement {
  const keys = useKeysQuery({ page: 1, pageSize: 1000, algorithm: "EC", curve: "secp256k1" });
  const local = new Map((keys.data?.items ?? []).map((k) => [k.ethereumAddress?.toLowerCase(), k]));
  return (
    <Card className="gap-0 pb-0">
      <CardHeader className="pb-4">
        <CardTitle className="text-base">Validators</CardTitle>
        <CardDescription>The genesis extraData lists these addresses as the initial QBFT validators.</CardDescription>
      </CardHeader>
      <div className="border-t">
        <Table data-testid="validator-list">
          <TableHeader>
            <TableRow>
              <TableHead className="w-12">#</TableHead>
              <TableHead>Address</TableHead>
              <TableHead>Key</TableHead>
              <TableHead className="hidden w-24 sm:table-cell">
                <span className="sr-only">Copy</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {n.validators.map((a, i) => {
              const k = local.get(a.toLowerCase());
              return (
                <TableRow key={a}>
                  <TableCell className="text-muted-foreground tabular-nums">{i + 1}</TableCell>
                  <TableCell>
                    <Mono className="block max-w-36 truncate sm:max-w-none">{a}</Mono>
                  </TableCell>
                  <TableCell>
                    {k ? (
                      <Link to={`/settings/keys/${k.id}`} className="inline-flex items-center gap-1.5 hover:underline">
                        <KeyRoundIcon className="size-3.5 text-muted-foreground" />
                        {k.name}
                        <Badge variant="success">Local</Badge>
                      </Link>
                    ) : keys.isPending ? (
                      <span className="text-muted-foreground">…</span>
                    ) : (
                      <Badge variant="outline">External</Badge>
                    )}
                  </TableCell>
                  <TableCell className="hidden sm:table-cell">
                    <CopyButton value={a} />
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </div>
    </Card>
  );
}

function Genesis({ n }: { n: BesuNetwork }): ReactElement {
  const pretty = prettyJson(n.genesisConfig);
  const slug = n.name.replace(/[^\w.-]+/g, "-");
  return (
    <Card className="gap-0 py-0">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b px-5 py-3">
        <div>
          <p className="text-sm font-medium">genesis.json</p>
          <p className="text-xs text-muted-foreground">Give this file to every node of the network.</p>
        </div>
        <div className="flex gap-2">
          <CopyButton value={pretty} />
          <Button
            variant="outline"
            size="sm"
            onClick={() => downloadText(`${slug}-genesis.json`, pretty, "application/json")}
          >
            <DownloadIcon /> Download
          </Button>
        </div>
      </div>
      <pre data-testid="genesis-json" className="max-h-[32rem] overflow-auto p-5 font-mono text-xs leading-relaxed">
        {pretty}
      </pre>
    </Card>
  );
}

function DeleteNetwork({ n }: { n: BesuNetwork }): ReactElement {
  return (
    <DeleteResourceButton
      mutation={useBesuNetworkDeleteMutation()}
      id={n.id}
      name={n.name}
      description="The network and its genesis are removed from ChainLaunch. Validator keys are kept."
      confirmLabel="Delete network"
      deletedTitle="Network deleted"
      redirectTo="/network/besu"
    />
  );
}

/** One Besu network: overview, validators (local keys marked) and the genesis file. */
export function BesuNetworkDetailPage(): ReactElement {
  const id = Number(useParams().id);
  const network = useBesuNetworkQuery(id);
  return (
    <QueryState query={network}>
      {(n) => (
        <div className="space-y-6">
          <PageHeader
            title={n.name}
            description={n.description || `QBFT network, chain ${n.chainId}`}
            actions={
              <RoleGate denied={["viewer"]}>
                <ShareNetworkButton platform="besu" networkId={n.id} networkName={n.name} />
                <DeleteNetwork n={n} />
              </RoleGate>
            }
          />
          <Tabs defaultValue="overview">
            <TabsList>
              <TabsTrigger value="overview">Overview</TabsTrigger>
              <TabsTrigger value="validators">Validators</TabsTrigger>
              <TabsTrigger value="nodes">Nodes</TabsTrigger>
              <TabsTrigger value="genesis">Genesis</TabsTrigger>
            </TabsList>
            <TabsContent value="overview" className="mt-4">
              <Overview n={n} />
            </TabsContent>
            <TabsContent value="validators" className="mt-4 space-y-6">
              <Validators n={n} />
              <ValidatorVoting networkId={n.id} />
            </TabsContent>
            <TabsContent value="nodes" className="mt-4">
              <NetworkNodes networkId={n.id} />
            </TabsContent>
            <TabsContent value="genesis" className="mt-4">
              <Genesis n={n} />
            </TabsContent>
          </Tabs>
        </div>
      )}
    </QueryState>
  );
}
