import { Loader2Icon, PlayIcon, RotateCwIcon, SquareIcon } from "lucide-react";
import type { ReactElement } from "react";
import type { NodeInfo } from "@/api/client";
import { RoleGate } from "@/app/RoleGate";
import { Button } from "@/components/ui/button";
import { useNodeActionMutation, type NodeAction } from "@/data/nodes/node-mutations";
import { allowedActions } from "@/data/nodes/node-status";
import { showToast } from "@/lib/toast";

const DONE: Record<NodeAction, string> = { start: "Starting", stop: "Stopping", restart: "Restarting" };

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
          <Button
            variant="outline"
            size={size}
            disabled={busy}
            onClick={() => run("stop")}
            aria-label={`Stop ${node.name}`}
          >
            {pending("stop") ? <Loader2Icon className="animate-spin" /> : <SquareIcon />}
            {!compact && "Stop"}
          </Button>
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
