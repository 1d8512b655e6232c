import { useState, type ReactElement, type ReactNode } from "react";
import { useNavigate } from "react-router";
import { OPERATORS } from "@/app/roles";
import { RoleGate } from "@/app/RoleGate";
import { DeleteResourceButton } from "@/components/ConfirmDialog";
import { FormSection } from "@/components/FormSection";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { showMutationError } from "@/data/error-toast";
import type { NotificationProvider } from "@/data/notification-providers/keys";
import { useProviderCreateMutation } from "@/data/notification-providers/provider-create-mutation";
import { useProviderDeleteMutation } from "@/data/notification-providers/provider-delete-mutation";
import { useProviderUpdateMutation } from "@/data/notification-providers/provider-update-mutation";
import { showToast } from "@/lib/toast";
import { errorMessage } from "@/lib/utils";
import { ProviderTestPanel } from "@/pages/monitoring/ProviderTestPanel";
import { bodyFrom, fieldOf, FLAGS, formFrom, type ProviderForm as Form } from "@/pages/monitoring/provider-form";

type TextKey = {
  [K in keyof Form]: Form[K] extends string ? K : never;
}[keyof Form];

/**
 * The create / edit form of a notification provider. On an existing provider, secret fields left
 * empty keep the stored values; `readOnly` (viewers) shows the settings without any action.
 */
export function ProviderForm({
  current,
  readOnly = false,
}: {
  current?: NotificationProvider;
  readOnly?: boolean;
}): ReactElement {
  const navigate = useNavigate();
  const [f, setF] = useState<Form>(() => formFrom(current));
  const [errors, setErrors] = useState<Partial<Record<keyof Form, string>>>({});
  const create = useProviderCreateMutation();
  const update = useProviderUpdateMutation(current?.id ?? 0);
  const remove = useProviderDeleteMutation();
  const set = <K extends keyof Form>(k: K, value: Form[K]) => setF((p) => ({ ...p, [k]: value }));
  // A stored secret never follows a new destination: the server asks for it again (docs/notifications.md).
  const keep = current ? "Leave empty to keep the stored value (same host and port only)" : undefined;

  const save = (): void => {
    setErrors({});
    const onError = (e: unknown): void => {
      const field = fieldOf(errorMessage(e));
      if (field) setErrors({ [field]: errorMessage(e) });
      else showMutationError(e);
    };
    const onSuccess = (p: NotificationProvider): void => {
      showToast("success", current ? "Provider saved" : "Provider created", { description: p.name });
      if (!current) void navigate(`/monitoring/providers/${p.id}`);
    };
    if (current) update.mutate(bodyFrom(f), { onSuccess, onError });
    else create.mutate(bodyFrom(f), { onSuccess, onError });
  };

  const field = (
    k: TextKey,
    label: string,
    extra: { type?: string; placeholder?: string | undefined; multiline?: boolean; hint?: ReactNode } = {},
  ): ReactElement => (
    <div className="flex flex-col gap-1">
      <Label htmlFor={`provider-${k}`}>{label}</Label>
      {extra.multiline ? (
        <textarea
          id={`provider-${k}`}
          className="min-h-20 rounded-md border bg-transparent px-3 py-2 font-mono text-xs"
          value={f[k]}
          placeholder={extra.placeholder}
          aria-invalid={Boolean(errors[k])}
          disabled={readOnly}
          onChange={(e) => set(k, e.target.value)}
        />
      ) : (
        <Input
          id={`provider-${k}`}
          value={f[k]}
          type={extra.type ?? "text"}
          placeholder={extra.placeholder}
          aria-invalid={Boolean(errors[k])}
          disabled={readOnly}
          onChange={(e) => set(k, e.target.value)}
        />
      )}
      {extra.hint ? <p className="text-xs text-muted-foreground">{extra.hint}</p> : null}
      {errors[k] ? (
        <p role="alert" className="text-xs text-destructive">
          {errors[k]}
        </p>
      ) : null}
    </div>
  );
  const check = (label: string, checked: boolean, onChange: (v: boolean) => void): ReactElement => (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" checked={checked} disabled={readOnly} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
  const pending = create.isPending || update.isPending;

  return (
    <div className="flex flex-col gap-4">
      <FormSection title="Provider" description="Where notifications go: email over SMTP, or a signed HTTPS webhook.">
        {field("name", "Name")}
        <div className="flex flex-col gap-1">
          <Label htmlFor="provider-type">Type</Label>
          <select
            id="provider-type"
            className="h-9 rounded-md border bg-transparent px-3 text-sm"
            value={f.type}
            disabled={readOnly}
            onChange={(e) => set("type", e.target.value === "WEBHOOK" ? "WEBHOOK" : "SMTP")}
          >
            <option value="SMTP">Email (SMTP)</option>
            <option value="WEBHOOK">Webhook</option>
          </select>
        </div>
        {f.type === "SMTP" ? (
          <>
            {field("host", "SMTP host", { placeholder: "smtp.example.com" })}
            {field("port", "Port", {
              type: "number",
              hint: "465: implicit TLS; other ports use STARTTLS when TLS is on",
            })}
            {field("username", "Username")}
            {field("password", "Password", { type: "password", placeholder: keep })}
            {field("fromEmail", "From address", { type: "email" })}
            {field("fromName", "From name")}
            {field("toEmail", "Recipients", { placeholder: "ops@example.com, oncall@example.com" })}
            {check("Use TLS", f.useTls, (v) => set("useTls", v))}
          </>
        ) : (
          <>
            {field("url", "Webhook URL", { placeholder: "https://hooks.example.com/chainlaunch" })}
            {field("secret", "Signing secret", {
              type: "password",
              placeholder: keep ?? "At least 16 characters",
              hint: "Each request carries X-ChainLaunch-Signature: sha256=HMAC(secret, timestamp + '.' + body)",
            })}
            {field("headers", "Extra headers", {
              multiline: true,
              placeholder: "Authorization: Bearer …",
              hint: "One 'Name: value' per line; stored values show as ******** and are kept",
            })}
            {field("caCert", "CA certificate (PEM)", { multiline: true, placeholder: "-----BEGIN CERTIFICATE-----" })}
          </>
        )}
        {check("Skip TLS certificate verification", f.skipTlsVerify, (v) => set("skipTlsVerify", v))}
        {check("Default provider", f.isDefault, (v) => set("isDefault", v))}
      </FormSection>
      <FormSection title="Events" description="Which events this provider receives.">
        {FLAGS.map(([k, label]) => (
          <div key={k}>{check(label, f.flags[k], (v) => set("flags", { ...f.flags, [k]: v }))}</div>
        ))}
      </FormSection>
      {readOnly ? null : (
        <RoleGate allowed={OPERATORS}>
          <div className="flex gap-2">
            <Button disabled={pending} onClick={save}>
              {pending ? "Saving…" : current ? "Save" : "Create provider"}
            </Button>
            {current ? (
              <DeleteResourceButton
                mutation={remove}
                id={current.id}
                name={current.name}
                description="Events stop going to this provider. This cannot be undone."
                confirmLabel="Delete provider"
                deletedTitle="Provider deleted"
                redirectTo="/monitoring"
              />
            ) : null}
          </div>
        </RoleGate>
      )}
      {current ? <ProviderTestPanel provider={current} canTest={!readOnly} /> : null}
    </div>
  );
}
