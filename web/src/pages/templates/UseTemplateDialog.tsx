import { PlayIcon } from "lucide-react";
import { useState, type FormEvent, type ReactElement } from "react";
import { useNavigate } from "react-router";
import type { CreateNodeBody } from "@/api/client";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { Input, Textarea } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useNodeCreateMutation } from "@/data/nodes/node-mutations";
import { useTemplateApplyMutation } from "@/data/templates/template-apply-mutation";
import { makesNode, type Template, type TemplateVariable } from "@/data/templates/types";
import { showToast } from "@/lib/toast";

const shown = (v: unknown): string =>
  v === undefined || v === null ? "" : typeof v === "string" ? v : JSON.stringify(v);

/** A form value as the variable's type; array and object fields hold JSON. Empty means not given. */
function valueOf(v: TemplateVariable, text: string): unknown {
  if (text.trim() === "") return undefined;
  if (v.type === "array" || v.type === "object") {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function VariableField({
  v,
  value,
  onChange,
}: {
  v: TemplateVariable;
  value: string;
  onChange: (s: string) => void;
}): ReactElement {
  const id = `var-${v.name}`;
  const choices = v.type === "boolean" ? ["true", "false"] : (v.validation?.enum ?? []);
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>
        {v.name}
        {v.required && v.default === undefined ? " *" : ""}
      </Label>
      {choices.length > 0 ? (
        <Select value={value} onValueChange={onChange}>
          <SelectTrigger id={id} aria-label={v.name}>
            <SelectValue placeholder="Choose" />
          </SelectTrigger>
          <SelectContent>
            {choices.map((c) => (
              <SelectItem key={c} value={c}>
                {c}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      ) : v.type === "array" || v.type === "object" ? (
        <Textarea id={id} className="font-mono text-xs" value={value} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <Input
          id={id}
          type={v.type === "number" ? "number" : "text"}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {v.description && <p className="text-xs text-muted-foreground">{v.description}</p>}
    </div>
  );
}

/**
 * "Use template": a form of the template's variables, applied by the server (which checks each one
 * and names the one it refuses). A node template's result can then be created as a node at once.
 */
export function UseTemplateDialog({ template }: { template: Template }): ReactElement {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<Record<string, string>>({});
  const apply = useTemplateApplyMutation(template.id);
  const createNode = useNodeCreateMutation();
  const navigate = useNavigate();
  const reset = (): void => {
    setValues(Object.fromEntries(template.variables.map((v) => [v.name, shown(v.default)])));
    apply.reset();
  };
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const given: Record<string, unknown> = {};
    for (const v of template.variables) {
      const value = valueOf(v, values[v.name] ?? "");
      if (value !== undefined) given[v.name] = value;
    }
    apply.mutate(given);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (o) reset();
        setOpen(o);
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <PlayIcon /> Use template
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Use {template.name}</DialogTitle>
          <DialogDescription>Fill in the variables; the server checks each one.</DialogDescription>
        </DialogHeader>
        <form id="use-template" className="grid gap-3 sm:grid-cols-2" onSubmit={submit}>
          {template.variables.map((v) => (
            <VariableField
              key={v.name}
              v={v}
              value={values[v.name] ?? ""}
              onChange={(s) => setValues((x) => ({ ...x, [v.name]: s }))}
            />
          ))}
        </form>
        {apply.isError && <FieldError message={apply.error.message} />}
        {apply.data && (
          <div className="grid gap-1.5">
            <Label htmlFor="generated-config">Generated configuration</Label>
            <Textarea
              id="generated-config"
              readOnly
              className="min-h-40 font-mono text-xs"
              value={JSON.stringify(apply.data, null, 2)}
            />
          </div>
        )}
        <DialogFooter>
          <Button
            type="submit"
            form="use-template"
            variant={apply.data ? "outline" : "default"}
            disabled={apply.isPending}
          >
            Generate configuration
          </Button>
          {apply.data && makesNode(template) && (
            <Button
              disabled={createNode.isPending}
              onClick={() =>
                createNode.mutate(
                  { body: apply.data as CreateNodeBody },
                  {
                    onSuccess: (node) => {
                      showToast("success", "Node created", { description: node.name });
                      setOpen(false);
                      void navigate(`/nodes/${node.id}`);
                    },
                  },
                )
              }
            >
              Create node
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
