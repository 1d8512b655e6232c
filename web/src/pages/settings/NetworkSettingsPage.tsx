import type { ReactElement } from "react";
import type { SettingConfig } from "@/api/client";
import { SettingsForm, type FieldDef } from "@/pages/settings/SettingsForm";
import { SettingsNav } from "@/pages/settings/SettingsNav";
import { LoadingRows, PageHeader, QueryState } from "@/components/states";
import { useSettingsQuery } from "@/data/settings/settings-query";

const port = {
  required: "Required",
  min: { value: 1024, message: "Use a port from 1024 to 65535" },
  max: { value: 65535, message: "Use a port from 1024 to 65535" },
} as const;

const FIELDS: FieldDef[] = [
  {
    name: "defaultNodeExposeIP",
    label: "External host or IP",
    kind: "text",
    help: "The address other machines use to reach new nodes, e.g. 192.168.1.20 or node.example.com.",
    rules: { required: "External host or IP is required" },
  },
  {
    name: "portRangeStart",
    label: "Port range start",
    kind: "number",
    rules: port,
    help: "First port given to new nodes.",
  },
  { name: "portRangeEnd", label: "Port range end", kind: "number", rules: port, help: "Last port given to new nodes." },
];

function validate(v: SettingConfig): { field: keyof SettingConfig; message: string } | null {
  if (v.portRangeEnd <= v.portRangeStart) return { field: "portRangeEnd", message: "Must be greater than the start" };
  return null;
}

/** The defaults new nodes use: the address they are exposed on and the ports they may take. */
export function NetworkSettingsPage(): ReactElement {
  const settings = useSettingsQuery();
  return (
    <div>
      <PageHeader title="Settings" description="Configure your ChainLaunch installation." />
      <SettingsNav />
      <QueryState query={settings} loading={<LoadingRows rows={3} />}>
        {(s) => (
          <SettingsForm
            title="Network defaults"
            description="Applied to every node you create from now on. Existing nodes keep their addresses."
            fields={FIELDS}
            config={s.config}
            updatedAt={s.updated_at}
            validate={validate}
          />
        )}
      </QueryState>
    </div>
  );
}
