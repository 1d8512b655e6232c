import { useQueryClient } from "@tanstack/react-query";
import {
  FilePlusIcon,
  FolderPlusIcon,
  Loader2Icon,
  PencilIcon,
  PlayIcon,
  SaveIcon,
  SquareIcon,
  TerminalIcon,
  Trash2Icon,
  DownloadIcon,
} from "lucide-react";
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactElement } from "react";
import { Link, useParams } from "react-router";
import { toast } from "sonner";
import { isApiError } from "@/api/errors";
import { CodeEditor } from "@/components/code-editor/CodeEditor";
import { OperationProgress } from "@/components/OperationProgress";
import { ErrorState, LoadingRows } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useMeQuery } from "@/data/auth/me-query";
import { useChaincodeMetadataQuery } from "@/data/chaincodes/chaincode-queries";
import { useOperationsQuery } from "@/data/operations/operations";
import { chaincodeKeys } from "@/data/chaincodes/keys";
import {
  createProjectDir,
  deleteProjectDir,
  deleteProjectFile,
  projectKeys,
  useProjectFileQuery,
  useProjectQuery,
  useProjectTreeQuery,
  useRunProjectMutation,
  writeProjectFile,
} from "@/data/projects/project-data";
import type { BuildDiagnostic } from "@/data/projects/types";
import { API_BASE } from "@/api/client";
import { errorMessage } from "@/lib/utils";
import { FunctionForm } from "@/pages/smart-contracts/ChaincodePlaygroundPage";
import { contractFunctions } from "@/pages/smart-contracts/contract-metadata";
import { ProjectStatusBadge } from "@/pages/smart-contracts/projects/CreateProjectDialog";
import { projectDownloadUrl, useShellConfigQuery } from "@/data/projects/shell-data";
import { NameDialog, Tree } from "@/pages/smart-contracts/projects/ProjectFileTree";
import { defaultFile, diagnosticsOf, joinPath } from "@/pages/smart-contracts/projects/project-tree";
import {
  editorColumns,
  HidePanelButton,
  PanelRail,
  useEditorPanels,
} from "@/pages/smart-contracts/projects/editor-panels";

/** xterm.js is loaded when a terminal is first opened. */
const ProjectTerminal = lazy(() =>
  import("@/pages/smart-contracts/projects/ProjectTerminal").then((m) => ({ default: m.ProjectTerminal })),
);

/** The project's run log, live: the last lines, then each new one (Server-Sent Events). */
function useLiveLog(projectId: number): string[] {
  const [lines, setLines] = useState<string[]>([]);
  useEffect(() => {
    const source = new EventSource(`${API_BASE}/chaincode-projects/${projectId}/logs/stream`, {
      withCredentials: true,
    });
    source.onmessage = (e: MessageEvent<string>) => setLines((l) => [...l.slice(-999), e.data]);
    return () => source.close();
  }, [projectId]);
  return lines;
}

/**
 * Why the last Run failed, and which sequence still answers (the server ends the error with
 * "(sequence N keeps answering)" when the previous version runs), so nobody takes the failed code for the live one.
 */
function LastRunFailed({ error }: { error: string }): ReactElement {
  const m = /\s*\(sequence (\d+) keeps answering\)$/.exec(error);
  const reason = m ? error.slice(0, m.index) : error;
  return (
    <div role="alert" className="rounded-md border border-destructive/40 px-3 py-2 text-sm text-destructive">
      <p className="font-medium">
        Last run failed{m ? `: nothing was committed, sequence ${m[1]} keeps answering` : ""}
      </p>
      <p className="line-clamp-3 break-words" title={reason}>
        {reason}
      </p>
    </div>
  );
}

/** sc/fabric/projects/chaincodes/{id}/editor: files, Monaco, run with live output, and calls to the running code. */
export function ProjectEditorPage(): ReactElement {
  const id = Number(useParams().id);
  const qc = useQueryClient();
  const project = useProjectQuery(id);
  const tree = useProjectTreeQuery(id);
  const me = useMeQuery();
  const canWrite = me.data?.role === "admin" || me.data?.role === "manager";
  const [openPath, setOpenPath] = useState<string>();
  const [selectedDir, setSelectedDir] = useState("");
  const file = useProjectFileQuery(id, openPath);
  const [buffer, setBuffer] = useState("");
  const [saved, setSaved] = useState("");
  const [saving, setSaving] = useState(false);
  const [diagnostics, setDiagnostics] = useState<BuildDiagnostic[]>([]);
  const [reveal, setReveal] = useState<{ line: number; column: number; at: number }>();
  const [dialog, setDialog] = useState<"file" | "folder" | "rename">();
  const [chosenFn, setChosenFn] = useState<string>();
  /** Bumped by each successful run, so call forms start empty against the new code. */
  const [generation, setGeneration] = useState(0);
  const run = useRunProjectMutation(id);
  /** The running start's phase: the Run's operation, the one the Output card's stepper shows (one read). */
  const runs = useOperationsQuery({ resource: `chaincode_project:${id}` });
  const phase = runs.data?.operations.find((o) => o.status === "running")?.phase ?? undefined;
  const log = useLiveLog(id);
  const logEnd = useRef<HTMLDivElement>(null);
  const chaincodeId = project.data?.chaincodeId ?? undefined;
  const meta = useChaincodeMetadataQuery(chaincodeId ?? Number.NaN);
  const fns = useMemo(() => contractFunctions(meta.data), [meta.data]);
  const markers = useMemo(() => diagnostics.filter((d) => d.file === openPath), [diagnostics, openPath]);
  const [terminalOpen, setTerminalOpen] = useState(false);
  const [panels, togglePanel] = useEditorPanels();
  const shell = useShellConfigQuery(id, canWrite);
  /** The shell may have changed files: the tree is read again once its output pauses. */
  const treeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const onShellOutput = (): void => {
    if (treeTimer.current) clearTimeout(treeTimer.current);
    treeTimer.current = setTimeout(() => void qc.invalidateQueries({ queryKey: projectKeys.tree(id) }), 700);
  };

  useEffect(() => {
    if (!openPath && tree.data) setOpenPath(defaultFile(tree.data));
  }, [tree.data, openPath]);
  useEffect(() => {
    if (file.data !== undefined) {
      setBuffer(file.data);
      setSaved(file.data);
    }
  }, [file.data, openPath]);
  useEffect(() => {
    // A block body: scrollIntoView returns a promise in newer Chromium, and an effect may return only a cleanup.
    void logEnd.current?.scrollIntoView({ block: "nearest" });
  }, [log.length]);

  const dirty = buffer !== saved;
  const save = async (): Promise<boolean> => {
    if (!openPath || !canWrite) return false;
    setSaving(true);
    try {
      await writeProjectFile(id, openPath, buffer);
      setSaved(buffer);
      qc.setQueryData(projectKeys.file(id, openPath), buffer);
      toast.success(`Saved ${openPath}`);
      return true;
    } catch (err) {
      toast.error(errorMessage(err));
      return false;
    } finally {
      setSaving(false);
    }
  };
  const start = async (): Promise<void> => {
    if (dirty && !(await save())) return;
    setDiagnostics([]);
    run.mutate("start", {
      onSuccess: (r) => {
        const seq = (r as { sequence?: number }).sequence;
        toast.success(`Running: sequence ${seq} committed`);
        setGeneration((g) => g + 1);
        if (chaincodeId) void qc.invalidateQueries({ queryKey: chaincodeKeys.metadata(chaincodeId) });
        void qc.invalidateQueries({ queryKey: chaincodeKeys.all });
      },
      onError: (err) => {
        const d = isApiError(err) ? diagnosticsOf(err.body) : [];
        setDiagnostics(d);
        // The whole reason (with the server's log tail) stays under "Last run failed"; the toast is its start.
        const message = errorMessage(err);
        toast.error(
          d.length
            ? `Build failed: ${d.length} error(s)`
            : message.length > 220
              ? `${message.slice(0, 200)}… (see Last run failed)`
              : message,
        );
      },
    });
  };
  const openAt = (d: BuildDiagnostic): void => {
    setOpenPath(d.file);
    setReveal({ line: d.line, column: d.column, at: Date.now() });
  };
  const refreshTree = (): Promise<void> => qc.invalidateQueries({ queryKey: projectKeys.tree(id) });

  if (project.isPending || tree.isPending) return <LoadingRows />;
  if (project.isError) return <ErrorState error={project.error} what="Chaincode project" />;
  if (tree.isError) return <ErrorState error={tree.error} what="Project files" />;
  const p = project.data;
  const fn = fns.find((f) => f.call === chosenFn) ?? fns[0];
  const building = run.isPending || p.status === "building";

  return (
    <div className="grid grid-cols-1 gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <h1 className="truncate text-xl font-semibold">
            <Link className="hover:underline" to={`/sc/fabric/projects/chaincodes/${id}`}>
              {p.name}
            </Link>{" "}
            <span className="text-sm font-normal text-muted-foreground">editor</span>
          </h1>
          <p className="text-sm text-muted-foreground">
            {p.boilerplate} on {p.networkName} · <ProjectStatusBadge status={p.status} phase={phase} />
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" asChild>
            <a href={projectDownloadUrl(id)} download>
              <DownloadIcon /> Download
            </a>
          </Button>
          {canWrite && (
            <Button
              variant={terminalOpen ? "secondary" : "outline"}
              aria-pressed={terminalOpen}
              onClick={() => setTerminalOpen((o) => !o)}
            >
              <TerminalIcon /> Terminal
            </Button>
          )}
          <Button variant="outline" onClick={() => void save()} disabled={!dirty || saving || !canWrite}>
            {saving ? <Loader2Icon className="animate-spin" /> : <SaveIcon />} Save{dirty ? " *" : ""}
          </Button>
          {canWrite && (
            <Button onClick={() => void start()} disabled={building}>
              {building ? <Loader2Icon className="animate-spin" /> : <PlayIcon />} {building ? "Running…" : "Run"}
            </Button>
          )}
          {canWrite && p.status === "running" && (
            <Button variant="outline" onClick={() => run.mutate("stop")} disabled={building}>
              <SquareIcon /> Stop
            </Button>
          )}
        </div>
      </div>
      {p.lastError && p.status !== "building" && <LastRunFailed error={p.lastError} />}
      <div className={`grid grid-cols-1 gap-3 ${editorColumns(panels)}`}>
        {!panels.files ? (
          <PanelRail panel="files" onToggle={togglePanel} />
        ) : (
          <Card className="min-w-0">
            <CardHeader className="flex flex-row items-center justify-between gap-1 py-2">
              <CardTitle className="text-sm">Files</CardTitle>
              <div className="flex gap-0.5">
                {canWrite && (
                  <>
                    <Button size="icon-sm" variant="ghost" aria-label="New file" onClick={() => setDialog("file")}>
                      <FilePlusIcon />
                    </Button>
                    <Button size="icon-sm" variant="ghost" aria-label="New folder" onClick={() => setDialog("folder")}>
                      <FolderPlusIcon />
                    </Button>
                    <Button
                      size="icon-sm"
                      variant="ghost"
                      aria-label="Rename file"
                      disabled={!openPath}
                      onClick={() => setDialog("rename")}
                    >
                      <PencilIcon />
                    </Button>
                    <Button
                      size="icon-sm"
                      variant="ghost"
                      aria-label={selectedDir ? `Delete folder ${selectedDir}` : "Delete file"}
                      disabled={!openPath && !selectedDir}
                      onClick={() => {
                        const target = selectedDir || openPath;
                        if (!target || !window.confirm(`Delete ${target}?`)) return;
                        void (selectedDir ? deleteProjectDir(id, selectedDir) : deleteProjectFile(id, target))
                          .then(() => {
                            if (!selectedDir) setOpenPath(undefined);
                            setSelectedDir("");
                            return refreshTree();
                          })
                          .catch((err: unknown) => toast.error(errorMessage(err)));
                      }}
                    >
                      <Trash2Icon />
                    </Button>
                  </>
                )}
                <HidePanelButton panel="files" onToggle={togglePanel} />
              </div>
            </CardHeader>
            <CardContent className="max-h-[70vh] overflow-auto px-2 pb-2">
              <Tree
                node={tree.data}
                open={openPath}
                selected={openPath}
                selectedDir={selectedDir}
                onOpen={(path) => {
                  setSelectedDir("");
                  if (dirty && !window.confirm(`Discard unsaved changes to ${openPath}?`)) return;
                  setOpenPath(path);
                }}
                onSelectDir={setSelectedDir}
              />
            </CardContent>
          </Card>
        )}
        {/* One minmax(0,1fr) column: Monaco's fixed pixel width must not widen the pane past the screen. */}
        <div className="grid min-w-0 grid-cols-1 grid-rows-[auto_minmax(0,1fr)] gap-3">
          <Card className="min-w-0 overflow-hidden">
            <div className="flex items-center justify-between border-b px-3 py-1.5 text-sm">
              <span className="truncate font-mono" data-testid="open-file">
                {openPath ?? "No file open"}
                {dirty ? " •" : ""}
              </span>
            </div>
            <div className="h-[55vh]" data-testid="code-editor">
              {openPath && file.data !== undefined ? (
                <CodeEditor
                  path={openPath}
                  value={buffer}
                  onChange={setBuffer}
                  onSave={() => void save()}
                  markers={markers}
                  {...(reveal ? { reveal } : {})}
                  readOnly={!canWrite}
                />
              ) : (
                <div className="grid h-full place-items-center text-sm text-muted-foreground">
                  {file.isFetching ? <Loader2Icon className="animate-spin" /> : "Choose a file"}
                </div>
              )}
            </div>
          </Card>
          <Card className="min-w-0">
            <CardHeader className="py-2">
              <CardTitle className="text-sm">Output</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-2 pb-3">
              {/* The run's phases and elapsed time, from the server (also after a reload). */}
              <OperationProgress resource={`chaincode_project:${id}`} className="rounded-md border px-3 py-2" />
              {diagnostics.length > 0 && (
                <ul className="grid gap-1" aria-label="Build errors">
                  {diagnostics.map((d, i) => (
                    <li key={i}>
                      <button
                        type="button"
                        className="text-left font-mono text-xs text-destructive hover:underline"
                        onClick={() => openAt(d)}
                      >
                        {d.file}:{d.line}:{d.column}: {d.message}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
              {p.lastError && diagnostics.length === 0 && (
                <p className="text-sm text-destructive" role="alert">
                  {p.lastError}
                </p>
              )}
              <pre
                className="h-48 overflow-auto rounded-md bg-muted/50 p-2 font-mono text-xs whitespace-pre-wrap"
                data-testid="run-output"
              >
                {log.length ? log.join("\n") : "No output yet. Run builds the code and commits it on the channel."}
                <div ref={logEnd} />
              </pre>
            </CardContent>
          </Card>
        </div>
        {!panels.calls ? (
          <PanelRail panel="calls" onToggle={togglePanel} />
        ) : (
          <Card className="min-w-0">
            <CardHeader className="flex flex-row items-center justify-between gap-1 py-2">
              <CardTitle className="text-sm">Call the running code</CardTitle>
              <HidePanelButton panel="calls" onToggle={togglePanel} />
            </CardHeader>
            <CardContent className="grid gap-3 pb-3">
              {!chaincodeId || p.status === "stopped" ? (
                <p className="text-sm text-muted-foreground">Run the project to call its functions here.</p>
              ) : meta.isPending ? (
                <Loader2Icon className="animate-spin" aria-label="Loading metadata" />
              ) : meta.isError ? (
                <p className="text-sm text-muted-foreground">No contract metadata ({errorMessage(meta.error)}).</p>
              ) : (
                <>
                  <select
                    aria-label="Function"
                    className="h-9 rounded-md border bg-background px-2 text-sm"
                    value={fn?.call ?? ""}
                    onChange={(e) => setChosenFn(e.target.value)}
                  >
                    {fns.map((f) => (
                      <option key={f.call} value={f.call}>
                        {f.call}
                        {f.kind === "unknown" ? "" : ` (${f.kind})`}
                      </option>
                    ))}
                  </select>
                  {fn && (
                    <FunctionForm
                      key={`${chaincodeId}-${fn.call}-${generation}`}
                      chaincodeId={chaincodeId}
                      fn={fn}
                      canInvoke={canWrite}
                      onCall={() => undefined}
                    />
                  )}
                </>
              )}
            </CardContent>
          </Card>
        )}
      </div>
      {canWrite && terminalOpen && (
        <Card className="min-w-0">
          <CardHeader className="py-2">
            <CardTitle className="text-sm">Terminal</CardTitle>
          </CardHeader>
          <CardContent className="pb-3">
            {shell.isPending ? (
              <Loader2Icon className="animate-spin" aria-label="Loading the terminal" />
            ) : shell.isError ? (
              <p className="text-sm text-destructive" role="alert">
                {errorMessage(shell.error)}
              </p>
            ) : !shell.data.available ? (
              <p className="text-sm text-muted-foreground" role="alert">
                No terminal here: {shell.data.reason}
              </p>
            ) : (
              <Suspense fallback={<Loader2Icon className="animate-spin" aria-label="Loading the terminal" />}>
                <ProjectTerminal projectId={id} onOutput={onShellOutput} />
              </Suspense>
            )}
          </CardContent>
        </Card>
      )}
      {dialog && (
        <NameDialog
          title={dialog === "file" ? "New file" : dialog === "folder" ? "New folder" : `Rename ${openPath ?? ""}`}
          initial={dialog === "rename" ? (openPath ?? "") : selectedDir ? `${selectedDir}/` : ""}
          onClose={() => setDialog(undefined)}
          onSubmit={async (name) => {
            const target = joinPath("", name);
            if (typeof target !== "string") throw new Error(target.error);
            if (dialog === "folder") await createProjectDir(id, target);
            else if (dialog === "file") {
              await writeProjectFile(id, target, "");
              setOpenPath(target);
            } else if (openPath) {
              await writeProjectFile(id, target, buffer);
              await deleteProjectFile(id, openPath);
              qc.removeQueries({ queryKey: projectKeys.file(id, openPath) });
              setOpenPath(target);
            }
            await refreshTree();
          }}
        />
      )}
    </div>
  );
}
