import { useEffect, type ReactElement } from "react";
import { useLocation } from "react-router";
import { ActiveAlerts } from "@/pages/settings/ActiveAlerts";
import { ALERT_FIELDS } from "@/pages/settings/alert-fields";
import { SettingsForm, type FieldDef } from "@/pages/settings/SettingsForm";
import { PluginRegistriesCard } from "@/pages/settings/PluginRegistriesCard";
import { SettingsNav } from "@/pages/settings/SettingsNav";
import { FEDERATION_ENDPOINT_PATTERN } from "@/pages/settings/federation-endpoint";
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

const FEDERATION_FIELDS: FieldDef[] = [
  {
    name: "federationEndpoint",
    label: "Federation endpoint",
    kind: "text",
    help: "The URL other consoles reach this one at, e.g. https://console.example.com. Invitations carry it. Empty: the CHAINLAUNCH_PUBLIC_URL the server was started with, if any.",
    rules: {
      pattern: {
        value: FEDERATION_ENDPOINT_PATTERN,
        message: "Use an http(s) URL such as https://console.example.com",
      },
    },
  },
];

const TROUBLESHOOTING_FIELDS: FieldDef[] = [
  {
    name: "troubleshootingRequireAuth",
    label: "Troubleshooting tools need sign-in",
    kind: "checkbox",
    help: "Off: anyone who reaches the console may run the tools (rate-limited, reachability only). On: a signed-in user or API key is required.",
  },
  {
    name: "publicIpLookupUrl",
    label: "Public IP lookup service",
    kind: "text",
    help: "Optional: a URL that answers with the caller's IP address, asked by the Public IP tool when no external address is set. Empty: no outside service is assumed.",
    rules: {
      // The server's rule for this setting: empty, or http(s):// and no spaces.
      pattern: {
        value: /^$|^https?:\/\/\S+$/,
        message: "Use an http(s) URL such as https://ip.example.com, or leave empty",
      },
    },
  },
];

/** Scrolls to the card named by the URL's hash (the Connect screen links to #federation) once it renders. */
function useScrollToHash(ready: boolean): void {
  const { hash } = useLocation();
  useEffect(() => {
    if (ready && hash) document.getElementById(hash.slice(1))?.scrollIntoView({ block: "start" });
  }, [ready, hash]);
}

/** Global settings: health checks, demo mode, node command templates, the alert thresholds, plugin registries, the federation endpoint and the troubleshooting tools. */
export function GeneralSettingsPage(): ReactElement {
  const settings = useSettingsQuery();
  useScrollToHash(settings.isSuccess);
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
      <div className="h-6" />
      <div id="federation" className="scroll-mt-20">
        <QueryState query={settings} loading={<LoadingRows rows={2} />}>
          {(s) => (
            <SettingsForm
              title="Federation"
              description="How other consoles reach this one when you connect them on the Connect screen."
              fields={FEDERATION_FIELDS}
              config={s.config}
              updatedAt={s.updated_at}
            />
          )}
        </QueryState>
      </div>
      <div className="h-6" />
      <div id="troubleshooting" className="scroll-mt-20">
        <QueryState query={settings} loading={<LoadingRows rows={2} />}>
          {(s) => (
            <SettingsForm
              title="Troubleshooting"
              description="Who may use the troubleshooting tools, and where the Public IP tool may ask for this console's address."
              fields={TROUBLESHOOTING_FIELDS}
              config={s.config}
              updatedAt={s.updated_at}
            />
          )}
        </QueryState>
      </div>
    </div>
  );
}
