import { Loader2Icon, PlayIcon, RotateCwIcon, SquareIcon } from "lucide-react";
import type { ReactElement } from "react";
import type { NodeInfo } from "@/api/client";
import { RoleGate } from "@/app/RoleGate";
import { ConfirmButton } from "@/components/ConfirmDialog";
import { Button } from "@/components/ui/button";
import { useNodeActionMutation, type NodeAction } from "@/data/nodes/node-mutations";
import { allowedActions } from "@/data/nodes/node-status";
import { showToast } from "@/lib/toast";

const DONE: Record<NodeAction, string> = { start: "Starting", stop: "Stopping", restart: "Restarting" };

/** What stopping a node does, said before it happens. */
const STOP_EFFECT = {
  fabric:
    "The process stops until someone starts it: it no longer endorses, orders or serves its channels, and chaincode calls through it fail.",
  besu: "The process stops until someone starts it: it no longer serves JSON-RPC or takes part in consensus.",
};

/** Start / stop / restart buttons for one node; hidden for viewers (spec §6). */
export function NodeActions({ node, compact = false }: { node: NodeInfo; compact?: boolean }): ReactElement {
  const m = useNodeActionMutation();
  const can = allowedActions(node.status);
  const busy = m.isPending;
  const run = (action: NodeAction): void =>
    m.mutate({ id: node.id, action }, { onSuccess: () => showToast("success", `${DONE[action]} ${node.name}`) });
  const size = compact ? "icon-sm" : "default";
  const pending = (a: NodeAction): boolean => busy && m.variables?.action === a;
  return (
    <RoleGate denied={["viewer"]}>
      <div className={compact ? "flex justify-end gap-1" : "flex flex-wrap gap-2"} onClick={(e) => e.stopPropagation()}>
        {can.start && (
          <Button
            variant="outline"
            size={size}
            disabled={busy}
            onClick={() => run("start")}
            aria-label={`Start ${node.name}`}
          >
            {pending("start") ? <Loader2Icon className="animate-spin" /> : <PlayIcon />}
            {!compact && "Start"}
          </Button>
        )}
        {can.stop && (
          <ConfirmButton
            size={size}
            disabled={busy}
            aria-label={`Stop ${node.name}`}
            title={`Stop ${node.name}?`}
            description={STOP_EFFECT[node.platform === "BESU" ? "besu" : "fabric"]}
            confirmLabel="Stop"
            onConfirm={() =>
              m.mutateAsync({ id: node.id, action: "stop" }).then(
                () => showToast("success", `${DONE.stop} ${node.name}`),
                () => undefined,
              )
            }
          >
            {pending("stop") ? <Loader2Icon className="animate-spin" /> : <SquareIcon />}
            {!compact && "Stop"}
          </ConfirmButton>
        )}
        {can.restart && (
          <Button
            variant="outline"
            size={size}
            disabled={busy}
            onClick={() => run("restart")}
            aria-label={`Restart ${node.name}`}
          >
            {pending("restart") ? <Loader2Icon className="animate-spin" /> : <RotateCwIcon />}
            {!compact && "Restart"}
          </Button>
        )}
      </div>
    </RoleGate>
  );
}
