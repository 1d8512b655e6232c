import { CheckCircle2Icon, Loader2Icon, SaveIcon, TriangleAlertIcon } from "lucide-react";
import { useEffect, useMemo, useState, type ReactElement } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { CodeEditor } from "@/components/code-editor/CodeEditor";
import { PageHeader, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { useMeQuery } from "@/data/auth/me-query";
import { usePluginCreateMutation } from "@/data/plugins/plugin-create-mutation";
import { usePluginQuery } from "@/data/plugins/plugin-query";
import { usePluginUpdateMutation } from "@/data/plugins/plugin-update-mutation";
import { usePluginValidateQuery } from "@/data/plugins/plugin-validate-query";
import type { Plugin, PluginProblem } from "@/data/plugins/types";
import { showToast } from "@/lib/toast";
import { describeProblem, markersOf, NEW_PLUGIN_TEMPLATE, problemsFromError } from "@/pages/plugins/plugin-yaml";

/** How long typing must pause before the server checks the text. */
const VALIDATE_DELAY_MS = 400;

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/**
 * The YAML of a plugin in Monaco: checked by the server as the user types (markers in the text and
 * a list under it), saved with the button or Ctrl/Cmd+S. A rejected save shows the server's message
 * and its problems the same way.
 */
function PluginYamlEditor({ initial, name }: { initial: string; name?: string }): ReactElement {
  const navigate = useNavigate();
  const [text, setText] = useState(initial);
  const [saved, setSaved] = useState(initial);
  const [saveError, setSaveError] = useState<{ text: string; message: string; problems: PluginProblem[] }>();
  const [reveal, setReveal] = useState<{ line: number; column: number; at: number }>();
  const debounced = useDebounced(text, VALIDATE_DELAY_MS);
  const validation = usePluginValidateQuery(debounced);
  const create = usePluginCreateMutation();
  const update = usePluginUpdateMutation(name ?? "");
  const pending = create.isPending || update.isPending;
  const me = useMeQuery();
  const adminOnly = me.data ? me.data.role !== "admin" : false;

  // The save's problems stand until the text changes; then the live check speaks again.
  const saveStands = saveError !== undefined && saveError.text === text;
  const problems = useMemo(
    () => (saveStands ? saveError.problems : (validation.data?.errors ?? [])),
    [saveStands, saveError, validation.data],
  );
  const markers = useMemo(() => markersOf(problems), [problems]);
  const checking = text !== debounced || validation.isFetching;

  const save = (): void => {
    if (pending) return;
    const body = text;
    const onError = (e: Error): void =>
      setSaveError({
        text: body,
        message: e.message || "The plugin could not be saved",
        problems: problemsFromError(e),
      });
    const onSuccess = (p: Plugin): void => {
      setSaveError(undefined);
      setSaved(body);
      showToast("success", name ? "Plugin saved" : "Plugin created", { description: p.metadata.name });
      if (!name) void navigate(`/plugins/${encodeURIComponent(p.metadata.name)}`);
    };
    if (name) update.mutate(body, { onSuccess, onError });
    else create.mutate(body, { onSuccess, onError });
  };

  return (
    <div className="space-y-4">
      <PageHeader
        title={name ? `Edit ${name}` : "New Plugin"}
        description="A plugin document: metadata, the parameters its deploy form asks for, and the processes it runs."
        actions={
          <>
            {name && (
              <Button asChild variant="outline">
                <Link to={`/plugins/${encodeURIComponent(name)}`}>Cancel</Link>
              </Button>
            )}
            <Button onClick={save} disabled={pending}>
              {pending ? <Loader2Icon className="animate-spin" /> : <SaveIcon />}
              {name ? "Save" : "Create plugin"}
            </Button>
          </>
        }
      />
      {adminOnly && (
        <p className="rounded-lg border px-3 py-2 text-sm text-muted-foreground" data-testid="host-command-note">
          Processes and compose files run commands on this host, so only an admin may save ones that are not a built-in
          catalogue plugin&apos;s as published. You can change the metadata and documentation, and deploy.
        </p>
      )}
      {saveStands && (
        <p
          role="alert"
          className="flex items-start gap-2 rounded-lg border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive"
        >
          <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" />
          <span className="break-words">{saveError.message}</span>
        </p>
      )}
      <Card className="gap-0 overflow-hidden py-0">
        <div className="flex items-center justify-between border-b px-3 py-1.5 text-sm">
          <span className="font-mono">
            {name ? `${name}.yaml` : "plugin.yaml"}
            {text !== saved ? " •" : ""}
          </span>
          <span className="flex items-center gap-1.5 text-xs text-muted-foreground" data-testid="validation-state">
            {checking ? (
              <>
                <Loader2Icon className="size-3.5 animate-spin" /> Checking…
              </>
            ) : problems.length === 0 && validation.data?.valid ? (
              <>
                <CheckCircle2Icon className="size-3.5 text-success" /> Valid
              </>
            ) : problems.length > 0 ? (
              `${problems.length} problem${problems.length === 1 ? "" : "s"}`
            ) : validation.isError ? (
              "Could not check the text"
            ) : null}
          </span>
        </div>
        <div className="h-[60vh]" data-testid="code-editor">
          <CodeEditor
            path={name ? `plugins/${name}.yaml` : "plugins/new-plugin.yaml"}
            value={text}
            onChange={setText}
            onSave={save}
            markers={markers}
            {...(reveal ? { reveal } : {})}
          />
        </div>
      </Card>
      {problems.length > 0 && (
        <Card className="gap-0 py-0">
          <ul aria-label="Problems" className="divide-y">
            {problems.map((p, i) => (
              <li key={`${i}:${describeProblem(p)}`}>
                <button
                  type="button"
                  className="flex w-full items-start gap-2 px-3 py-2 text-left font-mono text-xs hover:bg-muted/50 disabled:cursor-default"
                  disabled={!p.line}
                  onClick={() => p.line && setReveal({ line: p.line, column: p.column ?? 1, at: Date.now() })}
                >
                  <TriangleAlertIcon className="mt-0.5 size-3.5 shrink-0 text-destructive" />
                  <span className="break-words">{describeProblem(p)}</span>
                </button>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}

/** The YAML a plugin was saved with; JSON (which is YAML too) when the server kept none. */
function sourceOf(p: Plugin): string {
  if (p.yaml) return p.yaml;
  const { deploymentStatus: _status, yaml: _yaml, ...doc } = p;
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function PluginEditContent(): ReactElement {
  const name = useParams().name ?? "";
  const plugin = usePluginQuery(name);
  return <QueryState query={plugin}>{(p) => <PluginYamlEditor initial={sourceOf(p)} name={name} />}</QueryState>;
}

/** plugins/new: a new plugin from a template. Admins and managers only. */
export function PluginCreatePage(): ReactElement {
  return (
    <OperatorsOnly what="manage plugins">
      <PluginYamlEditor initial={NEW_PLUGIN_TEMPLATE} />
    </OperatorsOnly>
  );
}

/** plugins/{name}/edit: the plugin's YAML as saved. Admins and managers only. */
export function PluginEditPage(): ReactElement {
  return (
    <OperatorsOnly what="manage plugins">
      <PluginEditContent />
    </OperatorsOnly>
  );
}
