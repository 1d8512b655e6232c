import { BoxesIcon, type LucideIcon, LayersIcon, ServerIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link } from "react-router";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { PageHeader } from "@/components/states";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

const CHOICES: { title: string; text: string; href: string; icon: LucideIcon }[] = [
  {
    title: "Fabric peer",
    text: "Endorses transactions, runs chaincode and keeps a copy of the ledger.",
    href: "/nodes/fabric/create?type=peer",
    icon: ServerIcon,
  },
  {
    title: "Fabric orderer",
    text: "Orders transactions into blocks with Raft or BFT consensus.",
    href: "/nodes/fabric/create?type=orderer",
    icon: LayersIcon,
  },
  {
    title: "Besu node",
    text: "A QBFT validator or full node of one of your Besu networks.",
    href: "/nodes/besu/create",
    icon: BoxesIcon,
  },
];

/** Step one of creating a node: pick what to run. */
export function NodeCreatePage(): ReactElement {
  return (
    <OperatorsOnly what="create nodes">
      <PageHeader title="Create Node" description="Choose the kind of node to run on this machine." />
      <div className="grid gap-4 md:grid-cols-3">
        {CHOICES.map((c) => (
          <Link key={c.href} to={c.href} className="group" aria-label={c.title}>
            <Card className="h-full transition-colors group-hover:border-primary/50">
              <CardHeader>
                <span className="mb-2 flex size-9 items-center justify-center rounded-lg bg-primary/10 text-primary">
                  <c.icon className="size-5" />
                </span>
                <CardTitle className="text-base">{c.title}</CardTitle>
                <CardDescription>{c.text}</CardDescription>
              </CardHeader>
            </Card>
          </Link>
        ))}
      </div>
      <p className="mt-4 text-sm text-muted-foreground">
        Need several at once?{" "}
        <Link to="/nodes/fabric/bulk" className="font-medium text-foreground hover:underline">
          Bulk create Fabric nodes
        </Link>
        .
      </p>
    </OperatorsOnly>
  );
}
