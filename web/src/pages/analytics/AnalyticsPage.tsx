import type { ReactElement } from "react";
import { PageHeader } from "@/components/states";
import { CertificatesCard } from "@/pages/analytics/CertificatesCard";
import { HeightsCard } from "@/pages/analytics/HeightsCard";
import { TransactionsCard } from "@/pages/analytics/TransactionsCard";
import { UptimeCard } from "@/pages/analytics/UptimeCard";

/**
 * Analytics across networks and nodes. Each card reads its own data and shows its own loading,
 * error and empty states, so one source failing (Prometheus absent, a channel not answering) leaves
 * the others readable.
 */
export function AnalyticsPage(): ReactElement {
  return (
    <div className="min-w-0">
      <PageHeader
        title="Analytics"
        description="Channel heights, transactions, node uptime and certificate expiry across the console's networks."
      />
      <div className="grid grid-cols-1 gap-6 2xl:grid-cols-2">
        <HeightsCard />
        <UptimeCard />
        <div className="min-w-0 2xl:col-span-2">
          <TransactionsCard />
        </div>
        <div className="min-w-0 2xl:col-span-2">
          <CertificatesCard />
        </div>
      </div>
    </div>
  );
}
