import { Loader2Icon } from "lucide-react";
import { useMemo, useState, type ReactElement } from "react";
import { useForm } from "react-hook-form";
import { RoleGate } from "@/app/RoleGate";
import { CopyButton } from "@/components/CopyButton";
import { Mono } from "@/components/DetailField";
import { QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useFabricUpdateConfigMutation } from "@/data/fabric-networks/fabric-network-mutations";
import { useFabricChannelConfigQuery } from "@/data/fabric-networks/fabric-network-queries";
import type { FabricNetwork } from "@/data/fabric-networks/types";
import { formErrorsFrom } from "@/lib/field-errors";
import { showToast } from "@/lib/toast";
import {
  batchDiff,
  batchOperations,
  batchSettingsOf,
  DURATION,
  type BatchFormValues,
  type SettingChange,
} from "@/pages/networks/fabric-network";
import { AddExternalOrgCard } from "@/pages/networks/AddExternalOrgCard";

function DiffTable({ rows }: { rows: SettingChange[] }): ReactElement {
  return (
    <Table data-testid="config-diff">
      <TableHeader>
        <TableRow>
          <TableHead>Setting</TableHead>
          <TableHead>Previous</TableHead>
          <TableHead>New</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((r) => (
          <TableRow key={r.label} data-changed={r.changed ? "true" : "false"}>
            <TableCell>{r.label}</TableCell>
            <TableCell className={r.changed ? "bg-destructive/10 line-through" : ""}>
              <Mono>{r.before}</Mono>
            </TableCell>
            <TableCell className={r.changed ? "bg-success/10 font-medium" : ""}>
              <Mono>{r.after}</Mono>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The batch size's three whole-number fields, in the form's order. */
const SIZE_FIELDS = [
  ["maxMessageCount", "Max message count"],
  ["absoluteMaxBytes", "Absolute max bytes"],
  ["preferredMaxBytes", "Preferred max bytes"],
] as const satisfies readonly (readonly [keyof BatchFormValues, string])[];

/** Batch settings (a signed config update), external orgs, and the current config as JSON. */
export function ChannelConfigTab({ n }: { n: FabricNetwork }): ReactElement {
  const current = useFabricChannelConfigQuery(n.id, "current");
  const update = useFabricUpdateConfigMutation(n.id);
  const [diff, setDiff] = useState<{ before: ReturnType<typeof batchSettingsOf> }>();
  const settings = useMemo(() => batchSettingsOf(current.data?.config), [current.data]);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<BatchFormValues>({
    values: {
      batchTimeout: settings.batchTimeout ?? "",
      maxMessageCount: settings.maxMessageCount?.toString() ?? "",
      absoluteMaxBytes: settings.absoluteMaxBytes?.toString() ?? "",
      preferredMaxBytes: settings.preferredMaxBytes?.toString() ?? "",
    },
  });
  const pretty = current.data ? JSON.stringify(current.data.config, null, 2) : "";
  const onSubmit = handleSubmit((v) => {
    const operations = batchOperations(settings, v);
    if (operations.length === 0) {
      setError("root", { message: "Nothing changed" });
      return;
    }
    const before = settings;
    update.mutate(
      { operations },
      {
        onSuccess: async () => {
          await current.refetch();
          setDiff({ before });
          showToast("success", "Channel config updated", { description: "The new config block is on the chain." });
        },
        onError: (e) => {
          const f = formErrorsFrom(e, {
            batchTimeout: "operations.0.payload.timeout",
            maxMessageCount: ["operations.0.payload.max_message_count", "operations.1.payload.max_message_count"],
          });
          for (const [k, m] of Object.entries(f)) setError(k as keyof BatchFormValues, { message: m as string });
        },
      },
    );
  });
  const whole = (x: string): true | string => !x.trim() || /^[1-9]\d*$/.test(x.trim()) || "A positive whole number";
  return (
    <div className="space-y-6">
      <RoleGate denied={["viewer"]}>
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Batch settings</CardTitle>
            <CardDescription>
              Signed by this console's org admins and submitted to an orderer as a config update.
            </CardDescription>
          </CardHeader>
          <form onSubmit={(e) => void onSubmit(e)} noValidate>
            <CardContent className="grid gap-4 sm:grid-cols-2">
              <div className="grid content-start gap-2">
                <Label htmlFor="cfg-batchTimeout">Batch timeout</Label>
                <Input
                  id="cfg-batchTimeout"
                  aria-invalid={Boolean(errors.batchTimeout)}
                  {...register("batchTimeout", {
                    validate: (x) => !x.trim() || DURATION.test(x.trim()) || "A duration such as 2s or 500ms",
                  })}
                />
                <FieldError message={errors.batchTimeout?.message} />
              </div>
              {SIZE_FIELDS.map(([name, label]) => (
                <div key={name} className="grid content-start gap-2">
                  <Label htmlFor={`cfg-${name}`}>{label}</Label>
                  <Input id={`cfg-${name}`} inputMode="numeric" {...register(name, { validate: whole })} />
                  <FieldError message={errors[name]?.message} />
                </div>
              ))}
              <div className="sm:col-span-2">
                <FieldError message={errors.root?.message} />
              </div>
            </CardContent>
            <CardFooter className="justify-end pt-4">
              <Button type="submit" disabled={update.isPending || !current.data}>
                {update.isPending && <Loader2Icon className="animate-spin" />}
                Update config
              </Button>
            </CardFooter>
          </form>
          {diff && (
            <div className="border-t">
              <p className="px-5 pt-4 text-sm font-medium">Previous vs new</p>
              <DiffTable rows={batchDiff(diff.before, settings)} />
            </div>
          )}
        </Card>
        <AddExternalOrgCard networkId={n.id} />
      </RoleGate>
      <Card className="gap-0 py-0">
        <div className="flex flex-wrap items-center justify-between gap-2 border-b px-5 py-3">
          <div>
            <p className="text-sm font-medium">Current channel config</p>
            <p className="text-xs text-muted-foreground">From the latest config block, as configtxlator JSON.</p>
          </div>
          {pretty && <CopyButton value={pretty} />}
        </div>
        <QueryState query={current}>
          {() => (
            <pre
              data-testid="channel-config-json"
              className="max-h-[32rem] overflow-auto p-5 font-mono text-xs leading-relaxed"
            >
              {pretty}
            </pre>
          )}
        </QueryState>
      </Card>
    </div>
  );
}
