import { ChevronLeftIcon, ChevronRightIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Button } from "@/components/ui/button";

/** The footer of a paged list: "12 keys · page 1 of 2" with Previous/Next. Pages count from 1. */
export function Pager({
  total,
  page,
  pageSize,
  noun,
  busy,
  onPage,
}: {
  total: number;
  page: number;
  pageSize: number;
  /** Singular and plural, e.g. ["key", "keys"]. */
  noun: readonly [string, string];
  busy?: boolean;
  onPage: (page: number) => void;
}): ReactElement {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <div className="flex items-center justify-between gap-2 border-t px-4 py-3 text-sm">
      <span className="text-muted-foreground">
        {total} {total === 1 ? noun[0] : noun[1]} · page {page} of {pages}
      </span>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" disabled={page <= 1 || busy} onClick={() => onPage(page - 1)}>
          <ChevronLeftIcon /> Previous
        </Button>
        <Button variant="outline" size="sm" disabled={page >= pages || busy} onClick={() => onPage(page + 1)}>
          Next <ChevronRightIcon />
        </Button>
      </div>
    </div>
  );
}
