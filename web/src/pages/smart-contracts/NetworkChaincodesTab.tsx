import { PlusIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { RoleGate } from "@/app/RoleGate";
import { OPERATORS } from "@/app/roles";
import { EmptyState, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { useChaincodesQuery } from "@/data/chaincodes/chaincode-queries";
import { ChaincodeTable, CreateChaincodeDialog } from "@/pages/smart-contracts/FabricChaincodesPage";

/** The Chaincodes tab of a Fabric network: the chaincodes on this channel. */
export function NetworkChaincodesTab({ networkId }: { networkId: number }): ReactElement {
  const list = useChaincodesQuery();
  const [creating, setCreating] = useState(false);
  return (
    <div className="grid gap-3">
      <div className="flex justify-end">
        <RoleGate allowed={OPERATORS}>
          <Button size="sm" onClick={() => setCreating(true)}>
            <PlusIcon /> Create chaincode
          </Button>
        </RoleGate>
      </div>
      <QueryState
        query={list}
        isEmpty={(d) => !d.some((c) => c.network_id === networkId)}
        empty={<EmptyState title="No chaincodes on this channel" />}
      >
        {(d) => (
          <ChaincodeTable
            chaincodes={d.filter((c) => c.network_id === networkId)}
            hrefOf={(c) => `/networks/fabric/chaincodes/${c.id}`}
          />
        )}
      </QueryState>
      {creating && <CreateChaincodeDialog networkId={networkId} onClose={() => setCreating(false)} />}
    </div>
  );
}
