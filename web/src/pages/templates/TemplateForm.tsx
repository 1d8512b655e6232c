import { useState, type FormEvent, type ReactElement } from "react";
import { Button } from "@/components/ui/button";
import { FieldError, Label } from "@/components/ui/label";
import { Input, Textarea } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import {
  TEMPLATE_NODE_TYPES,
  TEMPLATE_PLATFORMS,
  type CreateTemplateBody,
  type Template,
  type TemplateNodeType,
  type TemplatePlatform,
} from "@/data/templates/types";

/** The form's text fields; config and variables are edited as JSON. */
interface Draft {
  name: string;
  description: string;
  platform: TemplatePlatform;
  node_type: TemplateNodeType;
  version: string;
  tags: string;
  config: string;
  variables: string;
}

const EXAMPLE_CONFIG = {
  name: "{{name}}",
  blockchainPlatform: "FABRIC",
  fabricPeer: { organizationId: "{{organization_id}}", mspId: "{{msp_id}}" },
};
const EXAMPLE_VARIABLES = [
  { name: "name", type: "string", required: true, validation: { pattern: "^[a-z0-9-]+$" } },
  { name: "organization_id", type: "number", required: true },
  { name: "msp_id", type: "string", required: true },
];

function draftOf(t: Template | undefined): Draft {
  return {
    name: t?.name ?? "",
    description: t?.description ?? "",
    platform: (t?.platform as TemplatePlatform | undefined) ?? "FABRIC",
    node_type: (t?.node_type as TemplateNodeType | undefined) ?? "peer",
    version: t?.version ?? "1.0.0",
    tags: (t?.tags ?? []).join(", "),
    config: JSON.stringify(t?.config ?? EXAMPLE_CONFIG, null, 2),
    variables: JSON.stringify(t?.variables ?? EXAMPLE_VARIABLES, null, 2),
  };
}

/** The server's field for a message ("config.fabricPeer.x: …" belongs to config). */
function fieldOf(message: string): keyof Draft | undefined {
  const head = message.split(/[.:[]/)[0] ?? "";
  return ["name", "description", "version", "tags", "config", "variables", "platform", "node_type"].includes(head)
    ? (head as keyof Draft)
    : undefined;
}

/**
 * Create or edit a template. Platform and node type are chosen once (an edit keeps them). The
 * server checks the config and variables and names the field it refuses, shown under it.
 */
export function TemplateForm({
  template,
  readOnly = false,
  submitLabel,
  pending,
  serverError,
  onSubmit,
}: {
  template?: Template;
  readOnly?: boolean;
  submitLabel: string;
  pending: boolean;
  serverError?: string | undefined;
  onSubmit: (body: CreateTemplateBody) => void;
}): ReactElement {
  const [d, setD] = useState<Draft>(() => draftOf(template));
  const [local, setLocal] = useState<Partial<Record<keyof Draft, string>>>({});
  const set = (k: keyof Draft) => (v: string) => setD((x) => ({ ...x, [k]: v }));
  const serverField = serverError ? fieldOf(serverError) : undefined;
  const errorFor = (k: keyof Draft): string | undefined => local[k] ?? (serverField === k ? serverError : undefined);

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const errors: Partial<Record<keyof Draft, string>> = {};
    let config: Record<string, unknown> = {};
    let variables: CreateTemplateBody["variables"] = [];
    try {
      config = JSON.parse(d.config) as Record<string, unknown>;
      if (!config || typeof config !== "object" || Array.isArray(config))
        errors.config = "config: must be a JSON object";
    } catch (err) {
      errors.config = `config: not JSON (${(err as Error).message})`;
    }
    try {
      variables = JSON.parse(d.variables || "[]") as CreateTemplateBody["variables"];
      if (!Array.isArray(variables)) errors.variables = "variables: must be a JSON array";
    } catch (err) {
      errors.variables = `variables: not JSON (${(err as Error).message})`;
    }
    setLocal(errors);
    if (Object.keys(errors).length > 0) return;
    onSubmit({
      name: d.name,
      description: d.description,
      platform: d.platform,
      node_type: d.node_type,
      version: d.version,
      config,
      variables,
      tags: d.tags
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    });
  };

  const text = (k: keyof Draft, label: string, props: { placeholder?: string } = {}) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`tpl-${k}`}>{label}</Label>
      <Input id={`tpl-${k}`} value={d[k]} disabled={readOnly} onChange={(e) => set(k)(e.target.value)} {...props} />
      <FieldError message={errorFor(k)} />
    </div>
  );
  /** A select of fixed values; platform and node type are chosen once, when the template is made. */
  const choice = (k: "platform" | "node_type", label: string, ariaLabel: string, options: readonly string[]) => (
    <div className="grid gap-1.5">
      <Label>{label}</Label>
      <Select value={d[k]} disabled={readOnly || Boolean(template)} onValueChange={set(k)}>
        <SelectTrigger aria-label={ariaLabel}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {options.map((p) => (
            <SelectItem key={p} value={p}>
              {p}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
  return (
    <form className="grid gap-4" onSubmit={submit} aria-label="Template">
      <div className="grid gap-4 sm:grid-cols-2">
        {text("name", "Name")}
        {text("version", "Version", { placeholder: "1.0.0" })}
      </div>
      {text("description", "Description")}
      <div className="grid gap-4 sm:grid-cols-3">
        {choice("platform", "Platform", "Template platform", TEMPLATE_PLATFORMS)}
        {choice("node_type", "Node type", "Template node type", TEMPLATE_NODE_TYPES)}
        {text("tags", "Tags", { placeholder: "comma, separated" })}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="tpl-config">Configuration (JSON, {"{{variable}}"} placeholders)</Label>
        <Textarea
          id="tpl-config"
          className="min-h-48 font-mono text-xs"
          value={d.config}
          disabled={readOnly}
          onChange={(e) => set("config")(e.target.value)}
        />
        <p className="text-xs text-muted-foreground">
          For a Fabric peer or orderer or a Besu node this is a node create body (POST /nodes).
        </p>
        <FieldError message={errorFor("config")} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="tpl-variables">Variables (JSON)</Label>
        <Textarea
          id="tpl-variables"
          className="min-h-40 font-mono text-xs"
          value={d.variables}
          disabled={readOnly}
          onChange={(e) => set("variables")(e.target.value)}
        />
        <p className="text-xs text-muted-foreground">
          Each: name, type (string, number, boolean, array, object), required, default, validation (enum, min, max,
          min_length, max_length, pattern in RE2 syntax).
        </p>
        <FieldError message={errorFor("variables")} />
      </div>
      {serverError && !serverField && <FieldError message={serverError} />}
      {!readOnly && (
        <div>
          <Button type="submit" disabled={pending}>
            {submitLabel}
          </Button>
        </div>
      )}
    </form>
  );
}
