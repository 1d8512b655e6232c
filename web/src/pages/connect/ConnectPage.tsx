import type { ReactElement } from "react";
import { RoleGate } from "@/app/RoleGate";
import { OPERATORS } from "@/app/roles";
import { PageHeader } from "@/components/states";
import { AcceptCard } from "@/pages/connect/AcceptCard";
import { ConnectedPeersTable } from "@/pages/connect/ConnectedPeersTable";
import { IdentityCard } from "@/pages/connect/IdentityCard";
import { InvitationCard } from "@/pages/connect/InvitationCard";

/**
 * Federation between consoles: this console's identity, invitations out and in (admins and managers),
 * and the connected instances with their live status (everyone).
 */
export function ConnectPage(): ReactElement {
  return (
    <div>
      <PageHeader
        title="Connect"
        description="Connect this console with other organizations' consoles to exchange nodes and certificates."
      />
      <div className="space-y-6">
        <IdentityCard />
        <RoleGate allowed={OPERATORS}>
          <div className="grid gap-6 xl:grid-cols-2">
            <InvitationCard />
            <AcceptCard />
          </div>
        </RoleGate>
        <ConnectedPeersTable />
      </div>
    </div>
  );
}
