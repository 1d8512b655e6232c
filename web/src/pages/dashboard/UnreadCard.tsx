import { BellIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link } from "react-router";
import { mapNotification } from "@/app/notifications/event-mapping";
import { EmptyState, QueryState } from "@/components/states";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useNotificationsQuery } from "@/data/notifications/notifications-query";

export function UnreadCard(): ReactElement {
  const list = useNotificationsQuery(50);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Unread notifications</CardTitle>
      </CardHeader>
      <CardContent className="px-0">
        <QueryState
          query={list}
          isEmpty={(d) => !d.notifications.some((n) => !n.is_read)}
          empty={
            <EmptyState icon={BellIcon} title="You're all caught up" description="New events will show up here." />
          }
        >
          {(d) => (
            <ul className="divide-y">
              {d.notifications
                .filter((n) => !n.is_read)
                .slice(0, 6)
                .map(mapNotification)
                .map((n) => (
                  <li key={n.id} className="px-5 py-2.5">
                    {n.link ? (
                      <Link to={n.link} className="text-sm font-medium hover:underline">
                        {n.title}
                      </Link>
                    ) : (
                      <span className="text-sm font-medium">{n.title}</span>
                    )}
                    <p className="truncate text-xs text-muted-foreground">
                      {n.message} · {n.timestamp}
                    </p>
                  </li>
                ))}
            </ul>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
