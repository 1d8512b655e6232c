import { ChevronsUpDownIcon, LogOutIcon, UserIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { useNavigate } from "react-router";
import { LogoutDialog } from "@/app/shell/LogoutDialog";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { useMeQuery } from "@/data/auth/me-query";
import { cn, initials } from "@/lib/utils";

function Avatar({ name }: { name: string }): ReactElement {
  return (
    <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary/15 text-xs font-semibold text-primary">
      {initials(name)}
    </span>
  );
}

/** Sidebar footer: initials and username, with Account and Log out. */
export function UserMenu({ collapsed }: { collapsed: boolean }): ReactElement | null {
  const me = useMeQuery();
  const navigate = useNavigate();
  const [confirmOpen, setConfirmOpen] = useState(false);
  const user = me.data;
  if (!user) return null;
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          aria-label="User menu"
          className={cn(
            "flex w-full items-center gap-2 rounded-md p-1.5 text-left outline-none hover:bg-sidebar-accent focus-visible:ring-2 focus-visible:ring-ring",
            collapsed && "justify-center p-0.5",
          )}
        >
          <Avatar name={user.username} />
          {!collapsed && (
            <>
              <span className="grid min-w-0 flex-1 leading-tight">
                <span className="truncate text-sm font-medium">{user.username}</span>
                <span className="truncate text-xs text-muted-foreground capitalize">{user.role}</span>
              </span>
              <ChevronsUpDownIcon className="size-4 text-muted-foreground" />
            </>
          )}
        </DropdownMenuTrigger>
        <DropdownMenuContent side="top" align="start" className="w-56">
          <DropdownMenuLabel className="flex items-center gap-2 font-normal text-foreground">
            <Avatar name={user.username} />
            <span className="grid leading-tight">
              <span className="text-sm font-medium">{user.username}</span>
              <span className="text-xs text-muted-foreground capitalize">{user.role}</span>
            </span>
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => void navigate("/account")}>
            <UserIcon /> Account
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => setConfirmOpen(true)}>
            <LogOutIcon /> Log out
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <LogoutDialog open={confirmOpen} onOpenChange={setConfirmOpen} />
    </>
  );
}
