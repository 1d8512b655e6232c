import { Loader2Icon, RocketIcon, TriangleAlertIcon } from "lucide-react";
import { useMemo, useState, type FormEvent, type ReactElement } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { FormSection } from "@/components/FormSection";
import { PageHeader, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { usePluginDeployMutation } from "@/data/plugins/plugin-deploy-mutation";
import { usePluginQuery } from "@/data/plugins/plugin-query";
import type { Plugin } from "@/data/plugins/types";
import { showToast } from "@/lib/toast";
import {
  deployErrorsFrom,
  fieldsOf,
  initialValues,
  valuesFrom,
  type DeployErrors,
  type RawValue,
  type RawValues,
} from "@/pages/plugins/parameter-form";
import { ParameterInput } from "@/pages/plugins/ParameterInput";
import { pluginStatusLabel } from "@/pages/plugins/plugin-status";

const NO_ERRORS: DeployErrors = { fields: {}, top: [] };

/** The form generated from the plugin's parameter schema; on success, the plugin's page. */
function DeployForm({ plugin }: { plugin: Plugin }): ReactElement {
  const name = plugin.metadata.name;
  const href = `/plugins/${encodeURIComponent(name)}`;
  const navigate = useNavigate();
  const fields = useMemo(() => fieldsOf(plugin.spec.parameters), [plugin.spec.parameters]);
  const [raw, setRaw] = useState<RawValues>(() => initialValues(plugin.spec.parameters));
  const [errors, setErrors] = useState<DeployErrors>(NO_ERRORS);
  const deploy = usePluginDeployMutation();
  const status = plugin.deploymentStatus?.status;
  const busy = status === "running" || status === "deploying" || status === "stopping";

  const set = (field: string, v: RawValue): void => {
    setRaw((r) => ({ ...r, [field]: v }));
    if (errors.fields[field]) {
      const { [field]: _gone, ...rest } = errors.fields;
      setErrors({ ...errors, fields: rest });
    }
  };

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const { values, errors: invalid } = valuesFrom(fields, raw);
    if (Object.keys(invalid).length > 0) {
      setErrors({ fields: invalid, top: [] });
      return;
    }
    setErrors(NO_ERRORS);
    deploy.mutate(
      { name, values },
      {
        onSuccess: (s) => {
          showToast("success", s.status === "running" ? `${name} is running` : `Deploying ${name}`);
          void navigate(href);
        },
        onError: (err) => setErrors(deployErrorsFrom(err, fields)),
      },
    );
  };

  return (
    <form className="space-y-4" onSubmit={submit} noValidate>
      <PageHeader
        title={`Deploy ${name}`}
        description={plugin.metadata.description}
        actions={
          <Button asChild variant="outline">
            <Link to={href}>Cancel</Link>
          </Button>
        }
      />
      {busy && (
        <p className="rounded-lg border bg-muted/40 px-3 py-2 text-sm">
          This plugin is {pluginStatusLabel(status).toLowerCase()}; stop it before deploying it again.
        </p>
      )}
      {errors.top.length > 0 || errors.log ? (
        <div
          role="alert"
          data-testid="deploy-error"
          className="grid gap-2 rounded-lg border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive"
        >
          {errors.top.map((m) => (
            <p key={m} className="flex items-start gap-2 break-words">
              <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" />
              {m}
            </p>
          ))}
          {errors.log && (
            <pre className="max-h-64 overflow-auto rounded border bg-background p-2 font-mono text-xs text-foreground">
              {errors.log}
            </pre>
          )}
        </div>
      ) : null}
      <FormSection title="Parameters" description="The values this plugin runs with; fields marked * are required.">
        {fields.length === 0 ? (
          <p className="text-sm text-muted-foreground">This plugin takes no parameters.</p>
        ) : (
          fields.map((f) => (
            <ParameterInput
              key={f.name}
              field={f}
              value={raw[f.name] ?? ""}
              error={errors.fields[f.name]}
              onChange={(v) => set(f.name, v)}
            />
          ))
        )}
      </FormSection>
      <div className="flex gap-2">
        <Button type="submit" disabled={deploy.isPending}>
          {deploy.isPending ? <Loader2Icon className="animate-spin" /> : <RocketIcon />}
          {deploy.isPending ? "Deploying…" : "Deploy"}
        </Button>
      </div>
    </form>
  );
}

function PluginDeployContent(): ReactElement {
  const name = useParams().name ?? "";
  const plugin = usePluginQuery(name);
  return <QueryState query={plugin}>{(p) => <DeployForm plugin={p} />}</QueryState>;
}

/** plugins/{name}/deploy: the deploy form generated from spec.parameters. Admins and managers only. */
export function PluginDeployPage(): ReactElement {
  return (
    <OperatorsOnly what="manage plugins">
      <PluginDeployContent />
    </OperatorsOnly>
  );
}
