import type { ReactElement } from "react";
import { isRoleAllowed, OPERATORS } from "@/app/roles";
import { PageHeader } from "@/components/states";
import { Card } from "@/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useMeQuery } from "@/data/auth/me-query";
import { useSharedNetworksQuery } from "@/data/sharing/shared-networks-query";
import { ReceivedSharesTable } from "@/pages/shared-networks/ReceivedSharesTable";
import { SentSharesTable } from "@/pages/shared-networks/SentSharesTable";

/** Networks shared between this console and connected ones: received (accept or reject) and sent. */
export function SharedNetworksPage(): ReactElement {
  const me = useMeQuery();
  const canManage = isRoleAllowed(me.data?.role, { allowed: OPERATORS });
  const received = useSharedNetworksQuery("received");
  const pending = received.data?.filter((s) => s.status === "pending").length ?? 0;
  return (
    <div>
      <PageHeader
        title="Shared Networks"
        description="Fabric channels and Besu networks shared with this console by connected consoles, and the ones it shared."
      />
      <Tabs defaultValue="received">
        <TabsList>
          <TabsTrigger value="received">Received{pending > 0 ? ` (${pending} pending)` : ""}</TabsTrigger>
          <TabsTrigger value="sent">Sent</TabsTrigger>
        </TabsList>
        <TabsContent value="received">
          <Card className="gap-0 py-0">
            <ReceivedSharesTable canManage={canManage} />
          </Card>
        </TabsContent>
        <TabsContent value="sent">
          <Card className="gap-0 py-0">
            <SentSharesTable canManage={canManage} />
          </Card>
        </TabsContent>
      </Tabs>
    </div>
  );
}
