import type { ReactElement } from "react";
import { ActiveAlerts } from "@/pages/settings/ActiveAlerts";
import { ALERT_FIELDS } from "@/pages/settings/alert-fields";
import { SettingsForm, type FieldDef } from "@/pages/settings/SettingsForm";
import { PluginRegistriesCard } from "@/pages/settings/PluginRegistriesCard";
import { SettingsNav } from "@/pages/settings/SettingsNav";
import { LoadingRows, PageHeader, QueryState } from "@/components/states";
import { useSettingsQuery } from "@/data/settings/settings-query";

const duration = {
  required: "Required",
  pattern: { value: /^\d+(ms|s|m|h)$/, message: "Use a duration such as 30s, 5m or 1h" },
} as const;
const positive = { required: "Required", min: { value: 1, message: "Must be at least 1" } } as const;

const FIELDS: FieldDef[] = [
  {
    name: "healthCheckInterval",
    label: "Health check interval",
    kind: "text",
    help: "How often each node is checked, e.g. 30s or 1m.",
    rules: duration,
  },
  {
    name: "healthCheckTimeout",
    label: "Health check timeout",
    kind: "text",
    help: "How long one check may take, e.g. 5s.",
    rules: duration,
  },
  {
    name: "healthCheckRetention",
    label: "Health history retention",
    kind: "number",
    help: "How many check results to keep per node.",
    rules: positive,
  },
  { name: "demoMode", label: "Demo mode (visitors browse read-only without signing in)", kind: "checkbox" },
  { name: "peerTemplateCMD", label: "Peer start command template", kind: "textarea" },
  { name: "ordererTemplateCMD", label: "Orderer start command template", kind: "textarea" },
  { name: "besuTemplateCMD", label: "Besu start command template", kind: "textarea" },
];

/** Global settings: health checks, demo mode, node command templates, the alert thresholds and plugin registries. */
export function GeneralSettingsPage(): ReactElement {
  const settings = useSettingsQuery();
  return (
    <div>
      <PageHeader title="Settings" description="Configure your ChainLaunch installation." />
      <SettingsNav />
      <QueryState query={settings} loading={<LoadingRows rows={6} />}>
        {(s) => (
          <SettingsForm
            title="General"
            description="How ChainLaunch checks node health and starts node processes."
            fields={FIELDS}
            config={s.config}
            updatedAt={s.updated_at}
          />
        )}
      </QueryState>
      <div className="h-6" />
      <QueryState query={settings} loading={<LoadingRows rows={6} />}>
        {(s) => (
          <SettingsForm
            title="Alerts"
            description="When the console raises certificate, peer lag and Raft alerts. Changes apply at the next evaluation."
            fields={ALERT_FIELDS}
            config={s.config}
            updatedAt={s.updated_at}
          />
        )}
      </QueryState>
      <div className="h-6" />
      <ActiveAlerts />
      <div className="h-6" />
      <QueryState query={settings} loading={<LoadingRows rows={3} />}>
        {(s) => <PluginRegistriesCard config={s.config} />}
      </QueryState>
    </div>
  );
}
