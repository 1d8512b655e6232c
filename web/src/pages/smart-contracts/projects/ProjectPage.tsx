import { CodeIcon, HistoryIcon, Loader2Icon, PlayIcon, RotateCcwIcon, SquareIcon, Trash2Icon } from "lucide-react";
import { useEffect, useState, type ReactElement } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { toast } from "sonner";
import { RoleGate } from "@/app/RoleGate";
import { OPERATORS } from "@/app/roles";
import { DetailField, Mono } from "@/components/DetailField";
import { ErrorState, LoadingRows, PageHeader } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import {
  fetchProjectDiff,
  fetchProjectLog,
  useDeleteProjectMutation,
  useProjectCommitsQuery,
  useProjectQuery,
  useRestoreCommitMutation,
  useRunProjectMutation,
  useUpdatePolicyMutation,
} from "@/data/projects/project-data";
import type { ProjectCommit } from "@/data/projects/types";
import { errorMessage, formatDateTime } from "@/lib/utils";
import { ProjectStatusBadge } from "@/pages/smart-contracts/projects/CreateProjectDialog";

/** One commit: what it changed, each file's diff on demand, and restore. */
function CommitRow({ projectId, c }: { projectId: number; c: ProjectCommit }): ReactElement {
  const [open, setOpen] = useState(false);
  const [diffs, setDiffs] = useState<Record<string, string>>({});
  const restore = useRestoreCommitMutation(projectId);
  const files = [
    ...c.added.map((f) => ["A", f]),
    ...c.modified.map((f) => ["M", f]),
    ...c.removed.map((f) => ["D", f]),
  ];
  useEffect(() => {
    if (!open || !c.parent) return;
    for (const [, f] of files) {
      if (diffs[f!] !== undefined) continue;
      void fetchProjectDiff(projectId, f!, c.parent, c.hash)
        .then((d) => setDiffs((x) => ({ ...x, [f!]: d })))
        .catch((err: unknown) => setDiffs((x) => ({ ...x, [f!]: errorMessage(err) })));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
  return (
    <li className="grid gap-2 border-b py-2 last:border-0" data-testid="project-commit">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <button type="button" className="min-w-0 text-left" onClick={() => setOpen(!open)}>
          <span className="font-medium" title={c.message}>
            {c.message.split("\n")[0]}
          </span>{" "}
          <span className="text-xs text-muted-foreground">
            <Mono>{c.hash.slice(0, 7)}</Mono> · {c.author} · {formatDateTime(c.timestamp)} · {files.length} file(s)
          </span>
        </button>
        <RoleGate allowed={OPERATORS}>
          <Button
            size="sm"
            variant="outline"
            disabled={restore.isPending}
            onClick={() => {
              if (!window.confirm(`Put the files back as they were at ${c.hash.slice(0, 7)}?`)) return;
              restore.mutate(c.hash, {
                onSuccess: () => toast.success(`Restored ${c.hash.slice(0, 7)}; run the project to use it`),
                onError: (err) => toast.error(errorMessage(err)),
              });
            }}
          >
            <RotateCcwIcon /> Restore
          </Button>
        </RoleGate>
      </div>
      {open && (
        <div className="grid gap-2">
          {files.map(([kind, f]) => (
            <div key={f} className="grid gap-1">
              <p className="font-mono text-xs">
                {kind} {f}
              </p>
              {c.parent && (
                <pre className="max-h-72 overflow-auto rounded-md bg-muted/50 p-2 font-mono text-xs whitespace-pre">
                  {diffs[f!] ?? "…"}
                </pre>
              )}
            </div>
          ))}
        </div>
      )}
    </li>
  );
}

/** sc/fabric/projects/chaincodes/{id}: status, network, policy, history and the run log. */
export function ProjectPage(): ReactElement {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const project = useProjectQuery(id);
  const commits = useProjectCommitsQuery(id);
  const run = useRunProjectMutation(id);
  const remove = useDeleteProjectMutation();
  const policy = useUpdatePolicyMutation(id);
  const [policyText, setPolicyText] = useState<string>();
  const [log, setLog] = useState<string>();
  const loadLog = (): void => {
    void fetchProjectLog(id, 200)
      .then(setLog)
      .catch((err: unknown) => setLog(errorMessage(err)));
  };
  useEffect(loadLog, [id, project.data?.status]);
  if (project.isPending) return <LoadingRows />;
  if (project.isError) return <ErrorState error={project.error} what="Chaincode project" />;
  const p = project.data;
  const busy = run.isPending || p.status === "building";
  return (
    <div className="grid grid-cols-1 gap-4">
      <PageHeader
        title={p.name}
        description={p.description || `A ${p.boilerplate} project on channel ${p.networkName}`}
        actions={
          <>
            <Button asChild variant="outline">
              <Link to={`/sc/fabric/projects/chaincodes/${id}/editor`}>
                <CodeIcon /> Open editor
              </Link>
            </Button>
            <RoleGate allowed={OPERATORS}>
              <Button
                disabled={busy}
                onClick={() =>
                  run.mutate("start", {
                    onSuccess: () => toast.success("Running"),
                    onError: (err) => toast.error(errorMessage(err)),
                  })
                }
              >
                {busy ? <Loader2Icon className="animate-spin" /> : <PlayIcon />} Start
              </Button>
              {p.status === "running" && (
                <Button variant="outline" disabled={busy} onClick={() => run.mutate("stop")}>
                  <SquareIcon /> Stop
                </Button>
              )}
              <Button
                variant="outline"
                disabled={busy || remove.isPending}
                onClick={() => {
                  if (!window.confirm(`Delete project ${p.name} and its files? Its chaincode stays on the channel.`))
                    return;
                  remove.mutate(id, {
                    onSuccess: () => navigate("/smart-contracts/fabric"),
                    onError: (err) => toast.error(errorMessage(err)),
                  });
                }}
              >
                <Trash2Icon /> Delete
              </Button>
            </RoleGate>
          </>
        }
      />
      <Card>
        <CardContent className="grid gap-4 pt-6 sm:grid-cols-2 lg:grid-cols-3">
          <DetailField label="Status">
            <ProjectStatusBadge status={p.status} />
          </DetailField>
          <DetailField label="Network">
            <Link className="hover:underline" to={`/networks/${p.networkId}/fabric`}>
              {p.networkName}
            </Link>
          </DetailField>
          <DetailField label="Chaincode">
            {p.chaincodeId ? (
              <Link className="hover:underline" to={`/sc/fabric/chaincodes/${p.chaincodeId}`}>
                {p.slug}
              </Link>
            ) : (
              <span className="text-muted-foreground">Not started yet</span>
            )}
          </DetailField>
          <DetailField label="Boilerplate">{p.boilerplate}</DetailField>
          <DetailField label="Last started">{p.lastStartedAt ? formatDateTime(p.lastStartedAt) : "Never"}</DetailField>
          <DetailField label="Server port">{p.containerPort ?? "—"}</DetailField>
          {p.lastError && (
            <div className="sm:col-span-2 lg:col-span-3">
              <p className="text-sm text-destructive" role="alert">
                Last run failed: {p.lastError}
              </p>
            </div>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Endorsement policy</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-wrap items-end gap-2">
          <Input
            aria-label="Endorsement policy"
            className="max-w-xl font-mono"
            value={policyText ?? p.endorsementPolicy}
            placeholder="Channel default (/Channel/Application/Endorsement)"
            onChange={(e) => setPolicyText(e.target.value)}
          />
          <RoleGate allowed={OPERATORS}>
            <Button
              variant="outline"
              disabled={policy.isPending || policyText === undefined || policyText === p.endorsementPolicy}
              onClick={() =>
                policy.mutate(policyText ?? "", {
                  onSuccess: () => {
                    setPolicyText(undefined);
                    toast.success("Policy saved; the next start uses it");
                  },
                  onError: (err) => toast.error(errorMessage(err)),
                })
              }
            >
              Save policy
            </Button>
          </RoleGate>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-base">
            <HistoryIcon className="size-4" /> History
          </CardTitle>
        </CardHeader>
        <CardContent>
          {commits.isPending ? (
            <Loader2Icon className="animate-spin" />
          ) : commits.isError ? (
            <p className="text-sm text-destructive">{errorMessage(commits.error)}</p>
          ) : (
            <ul aria-label="Project history">
              {commits.data.map((c) => (
                <CommitRow key={c.hash} projectId={id} c={c} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader className="flex flex-row items-center justify-between">
          <CardTitle className="text-base">Run log</CardTitle>
          <Button size="sm" variant="outline" onClick={loadLog}>
            Refresh
          </Button>
        </CardHeader>
        <CardContent>
          <pre className="max-h-96 overflow-auto rounded-md bg-muted/50 p-2 font-mono text-xs whitespace-pre-wrap">
            {log || "Nothing yet."}
          </pre>
        </CardContent>
      </Card>
    </div>
  );
}
