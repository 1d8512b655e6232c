import type { ReactElement, ReactNode } from "react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { usePluginSourcesQuery } from "@/data/plugins/plugin-sources-query";
import type { XSource } from "@/data/plugins/types";
import { stableJson, type ParamField, type RawValue } from "@/pages/plugins/parameter-form";

const SOURCE_NAMES: Record<XSource, string> = {
  "fabric-peer": "Fabric peers",
  "fabric-key": "Fabric identities",
  key: "keys",
  "fabric-org": "organizations",
  "fabric-network": "Fabric networks",
  "besu-node": "Besu nodes",
};

const selectClass = "h-9 w-full rounded-md border bg-transparent px-3 text-sm aria-invalid:border-destructive";

const idOf = (f: ParamField): string => `param-${f.name}`;

/** Ticks for several choices (array properties), as a group named by the field's label. */
function CheckList({
  f,
  options,
  value,
  onChange,
  describedBy,
}: {
  f: ParamField;
  options: { key: string; label: string; description?: string }[];
  value: string[];
  onChange: (v: string[]) => void;
  describedBy: string | undefined;
}): ReactElement {
  return (
    <div role="group" aria-labelledby={`${idOf(f)}-label`} aria-describedby={describedBy} className="grid gap-1.5">
      {options.map((o) => (
        <label key={o.key} className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-0.5"
            value={o.key}
            checked={value.includes(o.key)}
            onChange={(e) => onChange(e.target.checked ? [...value, o.key] : value.filter((k) => k !== o.key))}
          />
          <span>
            {o.label}
            {o.description && <span className="block text-xs text-muted-foreground">{o.description}</span>}
          </span>
        </label>
      ))}
    </div>
  );
}

/** A picker fed by GET /plugins/sources/{type}; options are keyed by their value's JSON. */
function SourcePicker({
  f,
  value,
  onChange,
  invalid,
  describedBy,
}: {
  f: ParamField;
  value: RawValue;
  onChange: (v: RawValue) => void;
  invalid: boolean;
  describedBy: string | undefined;
}): ReactElement {
  const type = f.source ?? "fabric-peer";
  const sources = usePluginSourcesQuery(type);
  if (sources.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        Could not list {SOURCE_NAMES[type]}: {sources.error.message}
      </p>
    );
  }
  const options = (sources.data?.options ?? []).map((o) => ({
    key: stableJson(o.value),
    label: o.label,
    ...(o.description ? { description: o.description } : {}),
  }));
  if (sources.data && options.length === 0) {
    return <p className="text-sm text-muted-foreground">There are no {SOURCE_NAMES[type]} to choose from yet.</p>;
  }
  if (f.multiple) {
    return (
      <CheckList
        f={f}
        options={options}
        value={Array.isArray(value) ? value : []}
        onChange={onChange}
        describedBy={describedBy}
      />
    );
  }
  return (
    <select
      id={idOf(f)}
      className={selectClass}
      value={typeof value === "string" ? value : ""}
      disabled={sources.isPending}
      aria-invalid={invalid}
      aria-required={f.required}
      aria-describedby={describedBy}
      onChange={(e) => onChange(e.target.value)}
    >
      <option value="">{sources.isPending ? "Loading…" : `Choose from ${SOURCE_NAMES[type]}`}</option>
      {options.map((o) => (
        <option key={o.key} value={o.key}>
          {o.description ? `${o.label} (${o.description})` : o.label}
        </option>
      ))}
    </select>
  );
}

/** The control of one generated field, by its kind. */
function Control({
  f,
  value,
  onChange,
  invalid,
  describedBy,
}: {
  f: ParamField;
  value: RawValue;
  onChange: (v: RawValue) => void;
  invalid: boolean;
  describedBy: string | undefined;
}): ReactNode {
  const common = {
    id: idOf(f),
    "aria-invalid": invalid,
    "aria-required": f.required,
    "aria-describedby": describedBy,
  };
  const text = typeof value === "string" ? value : "";
  switch (f.kind) {
    case "source":
      return <SourcePicker f={f} value={value} onChange={onChange} invalid={invalid} describedBy={describedBy} />;
    case "boolean":
      return null;
    case "select":
      return (
        <select {...common} className={selectClass} value={text} onChange={(e) => onChange(e.target.value)}>
          <option value="">—</option>
          {(f.options ?? []).map((o) => (
            <option key={o.key} value={o.key}>
              {o.label}
            </option>
          ))}
        </select>
      );
    case "multi-select":
      return (
        <CheckList
          f={f}
          options={f.options ?? []}
          value={Array.isArray(value) ? value : []}
          onChange={onChange}
          describedBy={describedBy}
        />
      );
    case "integer":
    case "number":
      return (
        <Input
          {...common}
          type="number"
          inputMode={f.kind === "integer" ? "numeric" : "decimal"}
          step={f.kind === "integer" ? 1 : "any"}
          min={f.minimum}
          max={f.maximum}
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case "string-list":
    case "json":
      return (
        <textarea
          {...common}
          className="min-h-20 rounded-md border bg-transparent px-3 py-2 font-mono text-xs aria-invalid:border-destructive"
          placeholder={f.kind === "string-list" ? "One value per line" : "JSON"}
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    default:
      return <Input {...common} value={text} onChange={(e) => onChange(e.target.value)} />;
  }
}

/**
 * One field of the generated deploy form: label (the property's title; required ones marked),
 * its control, the description as help, and the error (the form's own check or the server's).
 */
export function ParameterInput({
  field: f,
  value,
  error,
  onChange,
}: {
  field: ParamField;
  value: RawValue;
  error: string | undefined;
  onChange: (v: RawValue) => void;
}): ReactElement {
  const helpId = f.description ? `${idOf(f)}-help` : undefined;
  const errorId = error ? `${idOf(f)}-error` : undefined;
  const describedBy = [helpId, errorId].filter(Boolean).join(" ") || undefined;
  const required = f.required ? (
    <span className="text-destructive" title="Required">
      *
    </span>
  ) : null;
  return (
    <div className="grid gap-1.5" data-param={f.name}>
      {f.kind === "boolean" ? (
        <div className="flex items-center gap-2">
          <input
            id={idOf(f)}
            type="checkbox"
            checked={value === true}
            aria-describedby={describedBy}
            onChange={(e) => onChange(e.target.checked)}
          />
          <Label htmlFor={idOf(f)}>{f.label}</Label>
          {required}
        </div>
      ) : (
        <>
          <div className="flex items-center gap-1">
            <Label id={`${idOf(f)}-label`} htmlFor={idOf(f)}>
              {f.label}
            </Label>
            {required}
          </div>
          <Control f={f} value={value} onChange={onChange} invalid={Boolean(error)} describedBy={describedBy} />
        </>
      )}
      {f.description && (
        <p id={helpId} className="text-xs text-muted-foreground">
          {f.description}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-xs text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
