import { ArrowRightIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link } from "react-router";
import { PageHeader } from "@/components/states";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useChaincodesQuery } from "@/data/chaincodes/chaincode-queries";

/** smart-contracts: Fabric chaincodes and Besu contracts. */
export function SmartContractsPage(): ReactElement {
  const chaincodes = useChaincodesQuery();
  const running = (chaincodes.data ?? []).filter((c) => c.latest_definition?.deploy_status === "running").length;
  return (
    <div>
      <PageHeader title="Smart Contracts" description="Chaincode on Fabric channels and contracts on Besu networks." />
      <div className="grid gap-4 md:grid-cols-2">
        <Link to="/smart-contracts/fabric" className="block">
          <Card className="h-full transition-colors hover:bg-muted/40">
            <CardHeader>
              <CardTitle className="flex items-center justify-between">
                Fabric chaincodes <ArrowRightIcon className="size-4" />
              </CardTitle>
              <CardDescription>
                {chaincodes.data
                  ? `${chaincodes.data.length} chaincode${chaincodes.data.length === 1 ? "" : "s"}, ${running} running`
                  : "Install, approve, commit and run chaincode on your peers."}
              </CardDescription>
            </CardHeader>
          </Card>
        </Link>
        <Link to="/smart-contracts/besu" className="block">
          <Card className="h-full transition-colors hover:bg-muted/40">
            <CardHeader>
              <CardTitle className="flex items-center justify-between">
                Besu contracts <ArrowRightIcon className="size-4" />
              </CardTitle>
              <CardDescription>Deploy and call Solidity contracts on your Besu nodes.</CardDescription>
            </CardHeader>
          </Card>
        </Link>
      </div>
    </div>
  );
}
