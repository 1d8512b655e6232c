import { BellIcon, CheckCheckIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { badgeText } from "@/app/notifications/event-mapping";
import { NotificationList } from "@/app/notifications/NotificationList";
import { useLiveStatus } from "@/app/notifications/NotificationsProvider";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useNotificationMarkMutation } from "@/data/notifications/notification-mark-mutation";
import { useNotificationsQuery, useUnreadCountQuery } from "@/data/notifications/notifications-query";

/** The bell with its unread badge, and the notifications dropdown (tabs All/Unread/Read). */
export function NotificationsBell(): ReactElement {
  const [open, setOpen] = useState(false);
  const status = useLiveStatus();
  const unread = useUnreadCountQuery();
  const list = useNotificationsQuery(50);
  const mark = useNotificationMarkMutation();
  const items = list.data?.notifications ?? [];
  const total = list.data?.total ?? items.length;
  const unreadCount = unread.data ?? items.filter((n) => !n.is_read).length;
  const readCount = Math.max(0, total - unreadCount);
  const badge = badgeText(unreadCount);

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative"
          data-live={status}
          aria-label={badge ? `Notifications (${unreadCount} unread)` : "Notifications"}
        >
          <BellIcon />
          {badge && (
            <span
              data-testid="notification-badge"
              className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[10px] leading-none font-semibold text-white"
            >
              {badge}
            </span>
          )}
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-[380px] max-w-[calc(100vw-1rem)] p-0" aria-label="Notifications">
        <div className="flex items-center justify-between gap-2 border-b px-4 py-3">
          <div className="flex items-center gap-2">
            <h2 className="text-sm font-semibold">Notifications</h2>
            {status === "closed" && <Badge variant="destructive">Disconnected</Badge>}
          </div>
          <Button
            variant="ghost"
            size="sm"
            disabled={unreadCount === 0 || mark.isPending}
            onClick={() => mark.mutate({ all: true })}
          >
            <CheckCheckIcon /> Mark all read
          </Button>
        </div>
        <Tabs defaultValue="all" className="px-2 pt-2">
          <TabsList className="w-full">
            <TabsTrigger value="all">All ({total})</TabsTrigger>
            <TabsTrigger value="unread">Unread ({unreadCount})</TabsTrigger>
            <TabsTrigger value="read">Read ({readCount})</TabsTrigger>
          </TabsList>
          {(["all", "unread", "read"] as const).map((tab) => (
            <TabsContent key={tab} value={tab}>
              <NotificationList
                query={list}
                filter={tab}
                onMark={(id, read) => mark.mutate({ id, read })}
                onNavigated={() => setOpen(false)}
              />
            </TabsContent>
          ))}
        </Tabs>
      </PopoverContent>
    </Popover>
  );
}
