import { CheckCircle2Icon, Loader2Icon, XCircleIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Button } from "@/components/ui/button";
import { useFabricNetworksQuery } from "@/data/fabric-networks/fabric-network-queries";
import { publishOrganizationCrl } from "@/data/fabric-networks/fabric-network-mutations";

/** What publishing does, said plainly: nothing reaches a channel unless it is published there. */
export const CRL_PUBLISH_TEXT =
  "Peers and orderers check certificates against the CRL in each channel's configuration. A revocation reaches a channel only when the organization's CRL is published to it.";

type Outcome = { state: "running" } | { state: "done" } | { state: "failed"; message: string };

/**
 * Lets an operator publish the organization's CRL to chosen Fabric channels, one config update each,
 * and shows each channel's outcome (a channel the organization is not in says so).
 */
export function PublishCrlPanel({
  organizationId,
  onDone,
  doneLabel = "Close",
}: {
  organizationId: number;
  onDone: () => void;
  doneLabel?: string;
}): ReactElement {
  const channels = useFabricNetworksQuery(100);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [outcomes, setOutcomes] = useState<Record<number, Outcome>>({});
  const running = Object.values(outcomes).some((o) => o.state === "running");

  const publish = async (): Promise<void> => {
    for (const id of chosen) {
      setOutcomes((o) => ({ ...o, [id]: { state: "running" } }));
      try {
        await publishOrganizationCrl(id, organizationId);
        setOutcomes((o) => ({ ...o, [id]: { state: "done" } }));
      } catch (e) {
        setOutcomes((o) => ({ ...o, [id]: { state: "failed", message: (e as Error).message } }));
      }
    }
  };

  const list = channels.data?.networks ?? [];
  return (
    <div className="grid gap-3" data-testid="publish-crl">
      <p className="text-sm text-muted-foreground">{CRL_PUBLISH_TEXT}</p>
      {channels.isLoading && <p className="text-sm text-muted-foreground">Loading channels…</p>}
      {!channels.isLoading && list.length === 0 && (
        <p className="text-sm text-muted-foreground">There are no Fabric channels to publish to.</p>
      )}
      <ul className="grid gap-1.5">
        {list.map((n) => {
          const o = outcomes[n.id];
          return (
            <li key={n.id} className="grid gap-0.5 text-sm" data-testid={`crl-channel-${n.name}`} data-state={o?.state}>
              <label className="flex items-center gap-2">
                <input
                  type="checkbox"
                  className="size-4 accent-primary"
                  checked={chosen.has(n.id)}
                  disabled={running}
                  onChange={(e) =>
                    setChosen((s) => {
                      const next = new Set(s);
                      if (e.target.checked) next.add(n.id);
                      else next.delete(n.id);
                      return next;
                    })
                  }
                />
                <span className="font-medium">{n.name}</span>
                {o?.state === "running" && <Loader2Icon className="size-4 animate-spin" aria-label="Publishing" />}
                {o?.state === "done" && <CheckCircle2Icon className="size-4 text-success" aria-label="Published" />}
                {o?.state === "failed" && <XCircleIcon className="size-4 text-destructive" aria-label="Failed" />}
              </label>
              {o?.state === "failed" && <span className="pl-6 text-xs text-destructive">{o.message}</span>}
            </li>
          );
        })}
      </ul>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={onDone} disabled={running}>
          {doneLabel}
        </Button>
        <Button type="button" onClick={() => void publish()} disabled={running || chosen.size === 0}>
          {running && <Loader2Icon className="animate-spin" />} Publish CRL
        </Button>
      </div>
    </div>
  );
}
