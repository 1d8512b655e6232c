import { Trash2Icon } from "lucide-react";
import type { ReactElement, ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import type { ExternalOrganization } from "@/data/external-nodes/types";
import { OPERATION_LABEL, type OperationDraft } from "@/pages/governance/proposal-form";

const SELECT = "h-9 w-full min-w-0 rounded-md border bg-background px-3 text-sm";

function Field({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  children: ReactNode;
}): ReactElement {
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      <FieldError message={error} />
    </div>
  );
}

/** One operation's editor card; every change goes back through `onChange` as a whole draft. */
export function OperationEditor({
  index,
  draft,
  errors,
  channelOrgs,
  externalOrgs,
  onChange,
  onRemove,
}: {
  index: number;
  draft: OperationDraft;
  errors: Record<string, string>;
  channelOrgs: readonly string[];
  externalOrgs: readonly ExternalOrganization[];
  onChange: (d: OperationDraft) => void;
  onRemove: () => void;
}): ReactElement {
  const id = (f: string): string => `op-${index}-${f}`;
  const orgSelect = (value: string, set: (v: string) => void): ReactElement => (
    <select id={id("mspId")} className={SELECT} value={value} onChange={(e) => set(e.target.value)}>
      <option value="">Choose an organization</option>
      {channelOrgs.map((m) => (
        <option key={m} value={m}>
          {m}
        </option>
      ))}
    </select>
  );
  let body: ReactElement;
  switch (draft.kind) {
    case "add_org":
      body = (
        <Field id={id("externalOrgId")} label="Organization" error={errors.externalOrgId}>
          <select
            id={id("externalOrgId")}
            className={SELECT}
            value={draft.externalOrgId}
            onChange={(e) => onChange({ ...draft, externalOrgId: e.target.value })}
          >
            <option value="">Choose an external organization</option>
            {externalOrgs.map((o) => (
              <option key={o.id} value={String(o.id)}>
                {o.mspId} ({o.name})
              </option>
            ))}
          </select>
        </Field>
      );
      break;
    case "remove_org":
      body = (
        <Field id={id("mspId")} label="Organization" error={errors.mspId}>
          {orgSelect(draft.mspId, (v) => onChange({ ...draft, mspId: v }))}
        </Field>
      );
      break;
    case "anchor_peers":
      body = (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={id("mspId")} label="Organization" error={errors.mspId}>
            {orgSelect(draft.mspId, (v) => onChange({ ...draft, mspId: v }))}
          </Field>
          <Field
            id={id("peers")}
            label="Anchor peers (host:port, comma separated; empty removes them)"
            error={errors.peers}
          >
            <Input
              id={id("peers")}
              value={draft.peers}
              aria-invalid={Boolean(errors.peers)}
              onChange={(e) => onChange({ ...draft, peers: e.target.value })}
            />
          </Field>
        </div>
      );
      break;
    case "batch": {
      const text = (
        f: "batchTimeout" | "maxMessageCount" | "absoluteMaxBytes" | "preferredMaxBytes",
        label: string,
      ) => (
        <Field id={id(f)} label={label} error={errors[f]}>
          <Input
            id={id(f)}
            value={draft[f]}
            inputMode={f === "batchTimeout" ? undefined : "numeric"}
            aria-invalid={Boolean(errors[f])}
            onChange={(e) => {
              const next = { ...draft };
              next[f] = e.target.value;
              onChange(next);
            }}
          />
        </Field>
      );
      body = (
        <div className="grid gap-4 sm:grid-cols-2">
          {text("batchTimeout", "Batch timeout")}
          {text("maxMessageCount", "Max message count")}
          {text("absoluteMaxBytes", "Absolute max bytes")}
          {text("preferredMaxBytes", "Preferred max bytes")}
        </div>
      );
      break;
    }
    case "policy":
      body = (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={id("scope")} label="Group">
            <select
              id={id("scope")}
              className={SELECT}
              value={draft.scope}
              onChange={(e) => onChange({ ...draft, scope: e.target.value as typeof draft.scope })}
            >
              <option value="application">Application</option>
              <option value="orderer">Orderer</option>
              <option value="channel">Channel</option>
            </select>
          </Field>
          <Field id={id("policyName")} label="Policy name" error={errors.policyName}>
            <Input
              id={id("policyName")}
              value={draft.policyName}
              placeholder="Admins"
              aria-invalid={Boolean(errors.policyName)}
              onChange={(e) => onChange({ ...draft, policyName: e.target.value })}
            />
          </Field>
          <Field id={id("policyType")} label="Type">
            <select
              id={id("policyType")}
              className={SELECT}
              value={draft.policyType}
              onChange={(e) => onChange({ ...draft, policyType: e.target.value as typeof draft.policyType })}
            >
              <option value="ImplicitMeta">ImplicitMeta</option>
              <option value="Signature">Signature</option>
            </select>
          </Field>
          <Field id={id("rule")} label="Rule" error={errors.rule}>
            <Input
              id={id("rule")}
              value={draft.rule}
              placeholder={draft.policyType === "ImplicitMeta" ? "MAJORITY Admins" : "OR('Org1MSP.admin')"}
              aria-invalid={Boolean(errors.rule)}
              onChange={(e) => onChange({ ...draft, rule: e.target.value })}
            />
          </Field>
        </div>
      );
      break;
  }
  return (
    <Card data-testid={`operation-${index}`}>
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle className="text-sm">
          {index + 1}. {OPERATION_LABEL[draft.kind]}
        </CardTitle>
        <Button type="button" size="sm" variant="ghost" aria-label={`Remove operation ${index + 1}`} onClick={onRemove}>
          <Trash2Icon />
        </Button>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
