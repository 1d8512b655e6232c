import { Loader2Icon } from "lucide-react";
import { useEffect, type ReactElement } from "react";
import { useForm, type RegisterOptions } from "react-hook-form";
import type { SettingConfig } from "@/api/client";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, Textarea } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { useSettingsUpdateMutation } from "@/data/settings/settings-update-mutation";
import { showToast } from "@/lib/toast";
import { formatDateTime } from "@/lib/utils";

export interface FieldDef {
  name: keyof SettingConfig;
  label: string;
  help?: string;
  kind: "text" | "number" | "textarea" | "checkbox";
  rules?: RegisterOptions<SettingConfig>;
  /** A number that may be left empty: empty removes it from the document (the server's fallback applies). */
  optional?: boolean;
}

/**
 * Edits a subset of the settings. The server stores the whole config, so the other fields are
 * sent back unchanged.
 */
export function SettingsForm({
  title,
  description,
  fields,
  config,
  updatedAt,
  validate,
}: {
  title: string;
  description: string;
  fields: FieldDef[];
  config: SettingConfig;
  updatedAt?: string;
  validate?: (v: SettingConfig) => { field: keyof SettingConfig; message: string } | null;
}): ReactElement {
  const save = useSettingsUpdateMutation();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty },
  } = useForm<SettingConfig>({ defaultValues: config });
  useEffect(() => reset(config), [config, reset]);

  const onSubmit = handleSubmit((values) => {
    const merged: SettingConfig = { ...config, ...values };
    for (const f of fields) {
      if (f.kind !== "number") continue;
      const raw = values[f.name] as unknown;
      if (f.optional && (raw === "" || raw === undefined || raw === null)) delete merged[f.name];
      else (merged[f.name] as number) = Number(raw);
    }
    const problem = validate?.(merged);
    if (problem) {
      setError(problem.field, { message: problem.message });
      return;
    }
    save.mutate(merged, { onSuccess: () => showToast("success", "Settings saved") });
  });

  return (
    <Card>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
        <CardHeader>
          <CardTitle>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5 md:grid-cols-2">
          {fields.map((f) => (
            <div key={f.name} className={f.kind === "textarea" ? "grid gap-2 md:col-span-2" : "grid gap-2"}>
              {f.kind === "checkbox" ? (
                <label className="flex items-center gap-2 text-sm font-medium">
                  <input type="checkbox" className="size-4 accent-[var(--primary)]" {...register(f.name)} />
                  {f.label}
                </label>
              ) : (
                <Label htmlFor={f.name}>{f.label}</Label>
              )}
              {f.kind === "textarea" && <Textarea id={f.name} rows={3} {...register(f.name, f.rules)} />}
              {(f.kind === "text" || f.kind === "number") && (
                <Input
                  id={f.name}
                  type={f.kind}
                  aria-invalid={errors[f.name] ? true : undefined}
                  {...register(f.name, f.rules)}
                />
              )}
              {f.help && <p className="text-xs text-muted-foreground">{f.help}</p>}
              <FieldError message={errors[f.name]?.message} />
            </div>
          ))}
        </CardContent>
        <CardFooter className="justify-between border-t pt-5">
          <span className="text-xs text-muted-foreground">
            {updatedAt ? `Last updated ${formatDateTime(updatedAt)}` : ""}
          </span>
          <div className="flex gap-2">
            <Button type="button" variant="outline" disabled={!isDirty || save.isPending} onClick={() => reset(config)}>
              Reset
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending && <Loader2Icon className="animate-spin" />}
              Save changes
            </Button>
          </div>
        </CardFooter>
      </form>
    </Card>
  );
}
