import {
  BellIcon,
  Building2Icon,
  KeyRoundIcon,
  KeySquareIcon,
  LinkIcon,
  NetworkIcon,
  ScrollTextIcon,
  ServerIcon,
  UsersIcon,
} from "lucide-react";
import type { ReactElement } from "react";
import { Link } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { ADMIN_VIEWER } from "@/app/roles";
import { RecentAuditCard } from "@/pages/dashboard/RecentAuditCard";
import { StatCard } from "@/pages/dashboard/StatCard";
import { UnreadCard } from "@/pages/dashboard/UnreadCard";
import { PageHeader } from "@/components/states";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useApiKeysQuery } from "@/data/api-keys/api-keys-query";
import { useAuditLogsQuery } from "@/data/audit/audit-logs-query";
import { useBesuNetworksQuery } from "@/data/besu-networks/besu-networks-query";
import { useFabricNetworksQuery } from "@/data/fabric-networks/fabric-network-queries";
import { useKeysQuery } from "@/data/keys/keys-query";
import { useNodeCountsQuery } from "@/data/nodes/nodes-query";
import { NodeCountsCard } from "@/pages/dashboard/NodeCountsCard";
import { useOrganizationsQuery } from "@/data/organizations/organizations-query";
import { useMeQuery } from "@/data/auth/me-query";
import { useUnreadCountQuery } from "@/data/notifications/notifications-query";
import { useUsersQuery } from "@/data/users/users-query";
import { isRoleAllowed } from "@/app/roles";

const CREATE_FLOWS = [
  {
    title: "Create a Fabric network",
    text: "Guided setup of organizations, nodes and a channel.",
    href: "/fabric-wizard",
    icon: NetworkIcon,
  },
  {
    title: "Create a Besu network",
    text: "Validators, genesis and nodes in one step.",
    href: "/networks/besu/bulk-create",
    icon: ServerIcon,
  },
  {
    title: "Join a Fabric network",
    text: "Bring your organization into an existing channel.",
    href: "/fabric-join",
    icon: LinkIcon,
  },
] as const;

/** A real summary that grows with the product: counts, recent audit events, unread notifications, create flows. */
export function DashboardPage(): ReactElement {
  const me = useMeQuery();
  const canAudit = isRoleAllowed(me.data?.role, { allowed: ADMIN_VIEWER });
  const users = useUsersQuery(canAudit);
  const keys = useApiKeysQuery();
  const unread = useUnreadCountQuery();
  const audit = useAuditLogsQuery({ page: 1, page_size: 6 }, canAudit);
  const orgs = useOrganizationsQuery(1);
  const besu = useBesuNetworksQuery(1);
  const fabric = useFabricNetworksQuery(1);
  const cryptoKeys = useKeysQuery({ page: 1, pageSize: 1 });
  const nodeCounts = useNodeCountsQuery();

  return (
    <div className="space-y-6">
      <PageHeader
        title={`Welcome back${me.data ? `, ${me.data.username}` : ""}`}
        description="An overview of your ChainLaunch installation."
      />
      <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <StatCard label="Nodes" icon={ServerIcon} query={nodeCounts} value={(d) => d.total} href="/nodes" />
        <StatCard
          label="Organizations"
          icon={Building2Icon}
          query={orgs}
          value={(d) => d.count}
          href="/fabric/organizations"
        />
        <StatCard
          label="Fabric networks"
          icon={NetworkIcon}
          query={fabric}
          value={(d) => d.total}
          href="/network/fabric"
        />
        <StatCard label="Besu networks" icon={ServerIcon} query={besu} value={(d) => d.total} href="/network/besu" />
        <StatCard
          label="Keys"
          icon={KeyRoundIcon}
          query={cryptoKeys}
          value={(d) => d.totalItems}
          href="/settings/keys"
        />
        {canAudit && <StatCard label="Users" icon={UsersIcon} query={users} value={(d) => d.length} href="/users" />}
        <StatCard
          label="API keys"
          icon={KeySquareIcon}
          query={keys}
          value={(d) => d.length}
          href="/settings/api-keys"
        />
        <StatCard label="Unread notifications" icon={BellIcon} query={unread} value={(d) => d} />
        {canAudit && (
          <StatCard
            label="Audit events"
            icon={ScrollTextIcon}
            query={audit}
            value={(d) => d.total_count}
            href="/settings/audit-logs"
          />
        )}
      </div>
      <RoleGate denied={["viewer"]}>
        <div className="grid gap-4 md:grid-cols-3">
          {CREATE_FLOWS.map((f) => (
            <Link key={f.href} to={f.href} className="group">
              <Card className="h-full transition-colors group-hover:border-primary/50">
                <CardHeader>
                  <span className="mb-2 flex size-9 items-center justify-center rounded-lg bg-primary/10 text-primary">
                    <f.icon className="size-5" />
                  </span>
                  <CardTitle className="text-base">{f.title}</CardTitle>
                  <CardDescription>{f.text}</CardDescription>
                </CardHeader>
              </Card>
            </Link>
          ))}
        </div>
      </RoleGate>
      <NodeCountsCard query={nodeCounts} />
      {/* Explicit columns (minmax(0, 1fr)): a truncated line must not widen the grid past a phone's screen. */}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        {canAudit && <RecentAuditCard query={audit} />}
        <UnreadCard />
      </div>
      {!canAudit && (
        <Card>
          <CardContent className="text-sm text-muted-foreground">
            Smart contracts will appear here as they are created.
          </CardContent>
        </Card>
      )}
    </div>
  );
}
