import type { RegisterOptions } from "react-hook-form";
import type { SettingConfig } from "@/api/client";
import type { FieldDef } from "@/pages/settings/SettingsForm";

/** A whole number in a range, with messages that name the field (the server's limits, docs/alerts.md). */
export function whole(label: string, min: number, max: number, unit: string): RegisterOptions<SettingConfig> {
  const range = `${label} must be a whole number of ${unit} from ${min} to ${max}`;
  return {
    required: `${label} is required`,
    min: { value: min, message: range },
    max: { value: max, message: range },
    validate: (v: unknown) => Number.isInteger(Number(v)) || range,
  };
}

/** Like {@link whole}, but an empty value is allowed (the field is then left out). */
export function optionalWhole(label: string, min: number, max: number, unit: string): RegisterOptions<SettingConfig> {
  const rules = whole(label, min, max, unit);
  const range = `${label} must be a whole number of ${unit} from ${min} to ${max}`;
  return {
    validate: (v: unknown) => v === "" || v === undefined || v === null || Number.isInteger(Number(v)) || range,
    min: rules.min,
    max: rules.max,
  } as RegisterOptions<SettingConfig>;
}

/** The alert thresholds of the settings document, as the General settings screen edits them. */
export const ALERT_FIELDS: FieldDef[] = [
  {
    name: "alertEvaluationInterval",
    label: "Alert evaluation interval",
    kind: "text",
    help: "How often the alert rules run, e.g. 30s or 1m.",
    rules: {
      required: "Alert evaluation interval is required",
      pattern: {
        value: /^\d{1,6}(ms|s|m|h)$/,
        message: "Alert evaluation interval must be a duration such as 30s, 5m or 1h",
      },
    },
  },
  {
    name: "alertCooldownMinutes",
    label: "Alert cool-down (minutes)",
    kind: "number",
    help: "An alert that comes back within this time after it was sent is not sent again.",
    rules: whole("Alert cool-down", 0, 10080, "minutes"),
  },
  {
    name: "alertCertExpiryDays",
    label: "Certificate expiry warning (days)",
    kind: "number",
    help: "Warn when a node, CA or identity certificate expires within this many days.",
    rules: whole("Certificate expiry warning", 1, 3650, "days"),
  },
  {
    name: "alertPeerLagBlocks",
    label: "Peer lag threshold (blocks)",
    kind: "number",
    help: "Warn when a peer is more than this many blocks behind its channel's orderers.",
    rules: whole("Peer lag threshold", 1, 1000000, "blocks"),
  },
  {
    name: "alertPeerLagMinutes",
    label: "Peer lag duration (minutes)",
    kind: "number",
    help: "How long a peer must stay behind before the warning.",
    rules: whole("Peer lag duration", 0, 1440, "minutes"),
  },
  {
    name: "alertRaftMinutes",
    label: "Raft problem duration (minutes)",
    kind: "number",
    help: "Alert when a Raft channel has no leader or a consenter unreachable for this long.",
    rules: whole("Raft problem duration", 0, 1440, "minutes"),
  },
  {
    name: "nodeDowntimeGraceSeconds",
    label: "Node downtime grace (seconds)",
    kind: "number",
    optional: true,
    help: "How long a node must stay down before it is reported. Empty: the server's CHAINLAUNCH_DOWNTIME_GRACE_SECONDS (30 by default).",
    rules: optionalWhole("Node downtime grace", 0, 3600, "seconds"),
  },
];
