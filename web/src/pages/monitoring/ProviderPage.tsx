import type { ReactElement } from "react";
import { useParams } from "react-router";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { isRoleAllowed, OPERATORS } from "@/app/roles";
import { PageHeader, QueryState } from "@/components/states";
import { useMeQuery } from "@/data/auth/me-query";
import { useProviderQuery } from "@/data/notification-providers/provider-query";
import { ProviderForm } from "@/pages/monitoring/ProviderForm";

/** monitoring/providers/new */
export function ProviderCreatePage(): ReactElement {
  return (
    <OperatorsOnly what="add notification providers">
      <div className="max-w-2xl">
        <PageHeader
          title="New Notification Provider"
          description="Email (SMTP) or a signed webhook that receives node, backup and alert events."
        />
        <ProviderForm />
      </div>
    </OperatorsOnly>
  );
}

/** monitoring/providers/{id}: edit, delete and Send test (viewers see the settings only). */
export function ProviderDetailPage(): ReactElement {
  const id = Number(useParams().id);
  const provider = useProviderQuery(id);
  const me = useMeQuery();
  const readOnly = !isRoleAllowed(me.data?.role, { allowed: OPERATORS });
  return (
    <div className="max-w-2xl">
      <PageHeader
        title={provider.data?.name ?? "Notification Provider"}
        description="Secrets are stored encrypted and never shown."
      />
      <QueryState query={provider}>
        {(p) => <ProviderForm key={`${p.id}-${p.updatedAt}`} current={p} readOnly={readOnly} />}
      </QueryState>
    </div>
  );
}
