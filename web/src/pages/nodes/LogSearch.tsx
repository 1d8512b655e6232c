import { SearchIcon, XIcon } from "lucide-react";
import { useState, type FormEvent, type ReactElement } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { useNodeLogRangeQuery, useNodeLogSearchQuery, type LogEntry } from "@/data/nodes/node-logs";
import { cn } from "@/lib/utils";

/** Lines shown above and below a match picked from the results. */
const CONTEXT = 10;
/** Matches rendered at once; the server finds up to 10,000. */
const SHOWN = 1000;

/**
 * Searches a node's whole log file on the server (RE2, Go's regexp syntax: the same patterns upstream's
 * `logs/filter` takes) and shows a picked match with the lines around it (`logs/range`). The live view
 * only holds the last lines; this reaches everything the file has.
 */
export function LogSearch({ nodeId, onClose }: { nodeId: number; onClose: () => void }): ReactElement {
  const [draft, setDraft] = useState("");
  const [ignoreCase, setIgnoreCase] = useState(true);
  const [search, setSearch] = useState<{ pattern: string; ignoreCase: boolean } | null>(null);
  const [picked, setPicked] = useState<number | null>(null);
  const results = useNodeLogSearchQuery(nodeId, search);
  const range = useNodeLogRangeQuery(
    nodeId,
    picked === null ? null : { start: Math.max(1, picked - CONTEXT), end: picked + CONTEXT },
  );

  function submit(e: FormEvent): void {
    e.preventDefault();
    setPicked(null);
    setSearch({ pattern: draft, ignoreCase });
  }

  const matches = results.data ?? [];
  return (
    <div className="border-b" data-testid="log-search">
      <form onSubmit={submit} className="flex flex-wrap items-center gap-2 px-4 py-2">
        <Input
          aria-label="Search the whole log (regular expression)"
          placeholder="Regular expression, e.g. ERRO|WARN"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          className="h-8 max-w-md font-mono text-xs"
        />
        <label className="flex items-center gap-1 text-xs">
          <input type="checkbox" checked={ignoreCase} onChange={(e) => setIgnoreCase(e.target.checked)} />
          Ignore case
        </label>
        <Button type="submit" size="sm" variant="outline" disabled={results.isFetching}>
          <SearchIcon /> Search
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onClose} aria-label="Close search">
          <XIcon />
        </Button>
        {search && results.isSuccess && (
          <span className="text-xs text-muted-foreground" data-testid="log-search-count">
            {matches.length === 0
              ? "No matching lines"
              : `${matches.length}${matches.length >= 10_000 ? "+" : ""} matching line${matches.length === 1 ? "" : "s"}`}
            {matches.length > SHOWN && ` (first ${SHOWN} shown)`}
          </span>
        )}
      </form>
      {results.error && (
        <p role="alert" className="px-4 pb-2 text-sm text-destructive">
          {results.error.message}
        </p>
      )}
      {matches.length > 0 && (
        <div className="grid gap-0 md:grid-cols-2">
          <ol aria-label="Matching lines" className="max-h-64 overflow-auto border-t font-mono text-xs md:border-r">
            {matches.slice(0, SHOWN).map((m) => (
              <Match key={m.line_number} entry={m} active={picked === m.line_number} onPick={setPicked} />
            ))}
          </ol>
          <div aria-label="Lines around the match" role="region" className="max-h-64 overflow-auto border-t p-2">
            {picked === null ? (
              <p className="text-xs text-muted-foreground">Pick a line to see the lines around it.</p>
            ) : (
              <pre className="font-mono text-xs leading-relaxed">
                {(range.data?.entries ?? []).map((l) => (
                  <div
                    key={l.line_number}
                    data-line={l.line_number}
                    className={cn("break-all whitespace-pre-wrap", l.line_number === picked && "bg-primary/10")}
                  >
                    <span className="mr-2 text-muted-foreground select-none">{l.line_number}</span>
                    {l.content}
                  </div>
                ))}
              </pre>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

function Match({
  entry,
  active,
  onPick,
}: {
  entry: LogEntry;
  active: boolean;
  onPick: (line: number) => void;
}): ReactElement {
  return (
    <li>
      <button
        type="button"
        onClick={() => onPick(entry.line_number)}
        data-line={entry.line_number}
        aria-current={active || undefined}
        className={cn("block w-full truncate px-3 py-0.5 text-left hover:bg-muted", active && "bg-muted")}
      >
        <span className="mr-2 text-muted-foreground">{entry.line_number}</span>
        {entry.content}
      </button>
    </li>
  );
}
