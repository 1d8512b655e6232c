import { useState, type ReactElement } from "react";
import { CopyButton } from "@/components/CopyButton";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { diffLines, diffSummary, type DiffKind } from "@/pages/governance/proposal-view";

const KIND_CLASS: Record<DiffKind, string> = {
  added: "bg-success/10 text-success",
  changed: "bg-warning/15 text-amber-800 dark:text-warning",
  removed: "bg-destructive/10 text-destructive",
  other: "",
};
const KIND_LABEL: Record<DiffKind, string> = { added: "added", changed: "changed", removed: "removed", other: "" };

/**
 * The config elements the update touches (the server's + / ~ / - lines), and on request the
 * read/write-set delta as JSON, which is what the orgs sign.
 */
export function ProposalDiff({ lines, previewJson }: { lines: readonly string[]; previewJson?: string }): ReactElement {
  const parsed = diffLines(lines);
  const [showJson, setShowJson] = useState(false);
  const pretty = previewJson ? prettyJson(previewJson) : "";
  return (
    <div className="grid gap-2">
      <p className="text-xs text-muted-foreground">{diffSummary(parsed)}</p>
      {parsed.length > 0 && (
        <ul data-testid="proposal-diff" aria-label="Config changes" className="grid gap-1 font-mono text-xs">
          {parsed.map((l, i) => (
            <li
              key={`${i}-${l.text}`}
              data-kind={l.kind}
              className={cn("rounded px-2 py-1 [overflow-wrap:anywhere]", KIND_CLASS[l.kind])}
            >
              {l.text}
              {KIND_LABEL[l.kind] && <span className="sr-only"> ({KIND_LABEL[l.kind]})</span>}
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

function prettyJson(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}
