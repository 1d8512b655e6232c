import { useState, type ReactElement } from "react";
import { CopyButton } from "@/components/CopyButton";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { diffSummary, type ConfigChange } from "@/pages/governance/proposal-view";

const KIND_CLASS: Record<ConfigChange["kind"], string> = {
  added: "bg-success/10 text-success",
  changed: "bg-warning/15 text-amber-800 dark:text-warning",
  removed: "bg-destructive/10 text-destructive",
};
const KIND_MARK: Record<ConfigChange["kind"], string> = { added: "+", changed: "~", removed: "-" };

/**
 * The config elements the update adds, removes or changes, at their paths in the decoded config
 * (`channel_group.groups.Application.groups.Org2MSP`), changed ones as before → after; on request
 * the read/write-set delta as JSON, which is what the orgs sign.
 */
export function ProposalDiff({
  changes,
  previewJson,
}: {
  changes: readonly ConfigChange[];
  previewJson?: string;
}): ReactElement {
  const [showJson, setShowJson] = useState(false);
  const pretty = previewJson ? prettyJson(previewJson) : "";
  return (
    <div className="grid gap-2">
      <p className="text-xs text-muted-foreground" data-testid="proposal-diff-summary">
        {diffSummary(changes)}
      </p>
      {changes.length > 0 && (
        <ul data-testid="proposal-diff" aria-label="Config changes" className="grid gap-1 font-mono text-xs">
          {changes.map((c, i) => (
            <li
              key={`${i}-${c.path}`}
              data-kind={c.kind}
              className={cn("grid gap-0.5 rounded px-2 py-1 [overflow-wrap:anywhere]", KIND_CLASS[c.kind])}
            >
              <span>
                {KIND_MARK[c.kind]} <span data-testid="change-path">{c.path}</span>
                <span className="sr-only"> ({c.kind})</span>
              </span>
              <ChangeValue c={c} />
            </li>
          ))}
        </ul>
      )}
      {pretty && (
        <div className="grid gap-2">
          <div className="flex items-center gap-2">
            <Button variant="ghost" size="sm" onClick={() => setShowJson((v) => !v)} aria-expanded={showJson}>
              {showJson ? "Hide" : "Show"} config update JSON
            </Button>
            {showJson && <CopyButton value={pretty} />}
          </div>
          {showJson && <pre className="max-h-96 overflow-auto rounded-md border p-3 font-mono text-xs">{pretty}</pre>}
        </div>
      )}
    </div>
  );
}

/** The element's old and new values: "before → after" for a change, the element itself when added or removed. */
function ChangeValue({ c }: { c: ConfigChange }): ReactElement | null {
  if (c.kind === "changed") {
    return (
      <span className="pl-3 text-foreground/80" data-testid="change-values">
        {c.before !== undefined && <span data-testid="change-before">{c.before}</span>}
        {c.before !== undefined && " → "}
        {c.before === undefined && "→ "}
        <span data-testid="change-after">{c.after}</span>
      </span>
    );
  }
  const v = c.kind === "added" ? c.after : c.before;
  return v ? (
    <span className="pl-3 text-foreground/80" data-testid="change-values">
      {v}
    </span>
  ) : null;
}

function prettyJson(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}
