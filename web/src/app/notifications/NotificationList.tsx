import type { UseQueryResult } from "@tanstack/react-query";
import { BellOffIcon, CircleIcon, MailCheckIcon, MailIcon } from "lucide-react";
import type { ReactElement } from "react";
import { useNavigate } from "react-router";
import { mapNotification, type DisplayNotification } from "@/app/notifications/event-mapping";
import { Skeleton } from "@/components/ui/skeleton";
import type { NotificationPage } from "@/data/notifications/notifications-query";
import { cn } from "@/lib/utils";

const DOT: Record<DisplayNotification["type"], string> = {
  success: "text-success",
  error: "text-destructive",
  warning: "text-amber-500",
  info: "text-primary",
};

interface Props {
  query: UseQueryResult<NotificationPage>;
  filter: "all" | "unread" | "read";
  onMark: (id: number, read: boolean) => void;
  onNavigated: () => void;
}

/** The 400 px scrolling list inside the dropdown. Clicking an item marks it read and follows its link. */
export function NotificationList({ query, filter, onMark, onNavigated }: Props): ReactElement {
  const navigate = useNavigate();
  const all = (query.data?.notifications ?? []).map(mapNotification);
  const items = all.filter((n) => (filter === "all" ? true : filter === "unread" ? !n.read : n.read));

  let body: ReactElement;
  if (query.isPending) {
    body = (
      <div className="space-y-3 p-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-14 w-full" />
        ))}
      </div>
    );
  } else if (query.isError) {
    body = <p className="p-6 text-center text-sm text-destructive">Could not load notifications.</p>;
  } else if (items.length === 0) {
    body = (
      <div className="flex h-full flex-col items-center justify-center gap-2 text-sm text-muted-foreground">
        <BellOffIcon className="size-6" />
        {filter === "unread" ? "You're all caught up." : "No notifications yet."}
      </div>
    );
  } else {
    body = (
      <ul className="divide-y">
        {items.map((n) => (
          <li
            key={n.id}
            className={cn("group relative flex gap-3 px-3 py-3 hover:bg-muted/60", !n.read && "bg-primary/5")}
          >
            <button
              type="button"
              className="flex min-w-0 flex-1 gap-3 text-left"
              onClick={() => {
                if (!n.read) onMark(n.id, true);
                if (n.link) {
                  void navigate(n.link);
                  onNavigated();
                }
              }}
            >
              <CircleIcon className={cn("mt-1 size-2.5 shrink-0 fill-current", DOT[n.type])} />
              <span className="min-w-0 flex-1">
                <span className={cn("block text-sm", !n.read && "font-semibold")}>{n.title}</span>
                <span className="block text-xs break-words text-muted-foreground">{n.message}</span>
                <span className="mt-1 block text-[11px] text-muted-foreground">{n.timestamp}</span>
              </span>
            </button>
            <button
              type="button"
              aria-label={n.read ? `Mark "${n.title}" as unread` : `Mark "${n.title}" as read`}
              title={n.read ? "Mark as unread" : "Mark as read"}
              className="self-start rounded p-1 text-muted-foreground hover:bg-accent hover:text-foreground"
              onClick={() => onMark(n.id, !n.read)}
            >
              {n.read ? <MailIcon className="size-4" /> : <MailCheckIcon className="size-4" />}
            </button>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div data-testid="notification-list" className="mt-2 h-[400px] overflow-y-auto">
      {body}
    </div>
  );
}
