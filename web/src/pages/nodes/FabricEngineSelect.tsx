import type { ReactElement } from "react";
import { Controller, type UseFormReturn } from "react-hook-form";
import { Link } from "react-router";
import { FieldError, Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { DockerEngine } from "@/data/docker-engines/types";
import { engineLabel, type FabricFormValues } from "@/pages/nodes/fabric-form";

/**
 * The Engine select of a container node: the engines GET /docker/engines lists. `engines` is
 * undefined while they load. Fixed once the node exists, like the runtime.
 */
export function FabricEngineSelect({
  form,
  mode,
  engines,
  enginesFailed,
}: {
  form: UseFormReturn<FabricFormValues>;
  mode: "create" | "edit";
  engines: readonly DockerEngine[] | undefined;
  enginesFailed?: boolean;
}): ReactElement {
  const {
    control,
    formState: { errors },
  } = form;
  const value = form.watch("dockerEngine");
  const list = engines ?? [];
  // An edited node's engine is listed even when the engines were not (or could not be) fetched.
  const options = value && !list.some((e) => e.name === value) ? [{ name: value, label: value }] : [];
  const items = [...list.map((e) => ({ name: e.name, label: engineLabel(e) })), ...options];
  const placeholder = enginesFailed
    ? "The engines could not be listed"
    : engines === undefined
      ? "Loading engines…"
      : "No Docker engine";

  return (
    <div className="grid gap-2">
      <Label htmlFor="fabric-dockerEngine">Engine</Label>
      <Controller
        control={control}
        name="dockerEngine"
        // The field stays registered when the runtime goes back to Process, so the rule asks for it then only.
        rules={{ validate: (v, all) => all.runtime !== "docker" || Boolean(v) || "Choose a Docker engine" }}
        render={({ field: f }) => (
          <Select value={f.value} onValueChange={f.onChange} disabled={mode === "edit"}>
            <SelectTrigger id="fabric-dockerEngine" aria-label="Engine" aria-invalid={Boolean(errors.dockerEngine)}>
              <SelectValue placeholder={placeholder} />
            </SelectTrigger>
            <SelectContent>
              {items.map((e) => (
                <SelectItem key={e.name} value={e.name}>
                  {e.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
      />
      <p className="text-xs text-muted-foreground">
        {mode === "edit" ? (
          "Set when the node is created."
        ) : (
          <>
            The Docker engine the container runs on. Admins register engines in{" "}
            <Link to="/settings/docker-engines" className="underline underline-offset-2">
              Settings → Docker engines
            </Link>
            .
          </>
        )}
      </p>
      <FieldError message={errors.dockerEngine?.message} />
    </div>
  );
}
