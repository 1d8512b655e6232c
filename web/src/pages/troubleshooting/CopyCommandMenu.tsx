import { TerminalIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import type { ConnectionTestRequest } from "@/data/troubleshooting/troubleshooting-api";
import { consoleCurl, copyText, directCommand } from "@/pages/troubleshooting/curl";
import { showToast } from "@/lib/toast";

function copy(text: string): void {
  copyText(text).then(
    () => showToast("success", "Command copied"),
    (e: unknown) => showToast("error", "Could not copy", { description: e instanceof Error ? e.message : String(e) }),
  );
}

/** "Copy as curl": the console API call (always), and the direct command where a standard tool does the test. */
export function CopyCommandMenu({
  request,
  label,
  compact = false,
}: {
  request: ConnectionTestRequest;
  label: string;
  /** An icon button (table rows); the accessible name and tooltip still say what it does. */
  compact?: boolean;
}): ReactElement {
  const direct = directCommand(request);
  const protocol = request.protocol ?? "tcp";
  const directName = protocol === "tls" ? "openssl s_client" : protocol === "tcp" ? "nc" : "curl (direct)";
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          type="button"
          variant="outline"
          size={compact ? "icon-sm" : "sm"}
          aria-label={label}
          title="Copy as curl"
        >
          <TerminalIcon />
          {!compact && "Copy as curl"}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => copy(consoleCurl(window.location.origin, request))}>
          curl via this console's API
        </DropdownMenuItem>
        {direct && <DropdownMenuItem onSelect={() => copy(direct)}>{directName}</DropdownMenuItem>}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
