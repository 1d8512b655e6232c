import { useState, type ReactElement } from "react";
import { useNavigate, useParams } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { AlertCircleIcon } from "lucide-react";
import { EmptyState, PageHeader } from "@/components/states";
import { ConfirmButton } from "@/components/ConfirmDialog";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import {
  useCreateTargetMutation,
  useDeleteTargetMutation,
  useTargetQuery,
  useTestTargetMutation,
  useUpdateTargetMutation,
  type BackupTarget,
  type TargetBody,
} from "@/data/backups/backups";
import { showMutationError } from "@/data/error-toast";
import { showToast } from "@/lib/toast";
import { errorMessage } from "@/lib/utils";

const FIELDS = [
  "name",
  "endpoint",
  "region",
  "bucketName",
  "bucketPath",
  "accessKeyId",
  "secretKey",
  "resticPassword",
] as const;
type Field = (typeof FIELDS)[number];

/** The field a server message names ("endpoint: ... unreachable"), so the form shows it there. */
export function fieldOf(message: string): Field | undefined {
  const head = message.replace(/^body\./, "").split(":")[0] ?? "";
  return (FIELDS as readonly string[]).includes(head) ? (head as Field) : undefined;
}

function randomPassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes)).replace(/[+/=]/g, "x");
}

function TargetForm({ current }: { current?: BackupTarget }): ReactElement {
  const navigate = useNavigate();
  const [v, setV] = useState({
    name: current?.name ?? "",
    type: (current?.type ?? "S3") as "S3" | "LOCAL",
    endpoint: current?.endpoint ?? "",
    region: current?.region || "us-east-1",
    bucketName: current?.bucketName ?? "",
    bucketPath: current?.bucketPath ?? "chainlaunch",
    accessKeyId: current?.accessKeyId ?? "",
    secretKey: "",
    resticPassword: current ? "" : randomPassword(),
    forcePathStyle: current?.forcePathStyle ?? false,
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [tested, setTested] = useState<{ ok: boolean; text: string } | undefined>();
  const create = useCreateTargetMutation();
  const update = useUpdateTargetMutation(current?.id ?? 0);
  const test = useTestTargetMutation();
  const remove = useDeleteTargetMutation();
  const set = (k: keyof typeof v, value: string | boolean) => setV((p) => ({ ...p, [k]: value }));

  const body = (): TargetBody => ({
    name: v.name.trim(),
    type: v.type,
    bucketPath: v.bucketPath.trim(),
    ...(v.resticPassword ? { resticPassword: v.resticPassword } : {}),
    ...(v.type === "S3"
      ? {
          endpoint: v.endpoint.trim(),
          region: v.region.trim(),
          bucketName: v.bucketName.trim(),
          accessKeyId: v.accessKeyId.trim(),
          forcePathStyle: v.forcePathStyle,
          ...(v.secretKey ? { secretKey: v.secretKey } : {}),
        }
      : {}),
  });
  const onError = (e: unknown): void => {
    const f = fieldOf(errorMessage(e));
    if (f) setErrors({ [f]: errorMessage(e) });
    else showMutationError(e);
  };
  const save = (): void => {
    setErrors({});
    const done = (t: BackupTarget) => {
      showToast("success", current ? "Target saved" : "Target created", { description: t.name });
      void navigate("/settings/backups");
    };
    if (current) update.mutate(body(), { onSuccess: done, onError });
    else create.mutate(body(), { onSuccess: done, onError });
  };
  const field = (k: Field, label: string, extra: { type?: string; placeholder?: string } = {}) => (
    <div className="flex flex-col gap-1">
      <Label htmlFor={`target-${k}`}>{label}</Label>
      <Input
        id={`target-${k}`}
        value={v[k]}
        type={extra.type ?? "text"}
        placeholder={extra.placeholder}
        aria-invalid={Boolean(errors[k])}
        onChange={(e) => set(k, e.target.value)}
      />
      {errors[k] ? (
        <p role="alert" className="text-xs text-destructive">
          {errors[k]}
        </p>
      ) : null}
    </div>
  );
  const keep = current ? "Leave empty to keep the current value" : undefined;
  const pending = create.isPending || update.isPending;
  return (
    <Card className="flex flex-col gap-4 p-6">
      {field("name", "Name")}
      <div className="flex flex-col gap-1">
        <Label htmlFor="target-type">Type</Label>
        <select
          id="target-type"
          className="h-9 rounded-md border bg-transparent px-3 text-sm"
          value={v.type}
          onChange={(e) => set("type", e.target.value)}
        >
          <option value="S3">S3</option>
          <option value="LOCAL">Local directory</option>
        </select>
      </div>
      {v.type === "S3" ? (
        <>
          {field("endpoint", "Endpoint", { placeholder: "https://s3.example.com (empty for AWS)" })}
          {field("region", "Region")}
          {field("bucketName", "Bucket")}
          {field("bucketPath", "Path in the bucket")}
          {field("accessKeyId", "Access key id")}
          {field("secretKey", "Secret key", { type: "password", ...(keep ? { placeholder: keep } : {}) })}
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={v.forcePathStyle}
              onChange={(e) => set("forcePathStyle", e.target.checked)}
            />
            Path-style bucket URLs (MinIO and most self-hosted S3)
          </label>
        </>
      ) : (
        field("bucketPath", "Directory (absolute path)")
      )}
      {field("resticPassword", "Repository password", keep ? { placeholder: keep } : {})}
      {!current ? (
        <p className="text-xs text-muted-foreground">
          Save this password somewhere else: restoring on another machine needs it (
          <code>RESTIC_PASSWORD=… chainlaunch backup restore --target … --snapshot … --data-dir …</code>). The console
          never shows it again.
        </p>
      ) : null}
      {tested ? (
        <p
          role="status"
          className={tested.ok ? "text-sm text-green-700" : "text-sm text-destructive"}
          data-testid="test-result"
        >
          {tested.text}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button
          variant="outline"
          disabled={test.isPending}
          onClick={() =>
            test.mutate(
              { ...body(), ...(current ? { id: current.id } : {}) },
              {
                onSuccess: (r) => setTested({ ok: r.ok, text: r.message }),
                onError: (e) => setTested({ ok: false, text: errorMessage(e) }),
              },
            )
          }
        >
          {test.isPending ? "Testing…" : "Test connection"}
        </Button>
        <Button disabled={pending} onClick={save}>
          {pending ? "Checking the repository…" : current ? "Save" : "Create target"}
        </Button>
        {current ? (
          <ConfirmButton
            variant="destructive"
            title={`Delete target ${current.name}?`}
            description="Its backup records and schedules go; the repository's data stays where it is."
            confirmLabel="Delete"
            pending={remove.isPending}
            onConfirm={() =>
              remove.mutate(current.id, {
                onSuccess: () => void navigate("/settings/backups"),
                onError: showMutationError,
              })
            }
          >
            Delete
          </ConfirmButton>
        ) : null}
      </div>
    </Card>
  );
}

/** What a non-admin sees of a target: where backups go; changing it is an admin's (BACKUP_TARGETS). */
function TargetSummary({ target }: { target: BackupTarget }): ReactElement {
  const rows: Array<[string, string]> =
    target.type === "S3"
      ? [
          ["Type", "S3"],
          ["Endpoint", target.endpoint || "AWS"],
          ["Region", target.region],
          ["Bucket", target.bucketName],
          ["Path in the bucket", target.bucketPath],
        ]
      : [
          ["Type", "LOCAL"],
          ["Directory", target.bucketPath],
        ];
  return (
    <Card className="p-4" data-testid="target-summary">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-muted-foreground">{k}</dt>
            <dd className="font-mono text-xs break-all">{v}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-muted-foreground">Only an admin changes or deletes a backup target.</p>
    </Card>
  );
}

/** settings/backups/targets/create */
export function BackupTargetCreatePage(): ReactElement {
  return (
    <RoleGate
      allowed={["admin"]}
      fallback={
        <EmptyState
          icon={AlertCircleIcon}
          title="You don't have access to this page"
          description="Only admins add backup targets: a target decides where the console's data goes."
        />
      }
    >
      <div className="max-w-2xl">
        <PageHeader title="Create Backup Target" description="A restic repository on S3 or in a local directory." />
        <TargetForm />
      </div>
    </RoleGate>
  );
}

/** settings/backups/targets/{id} */
export function BackupTargetDetailPage(): ReactElement {
  const id = Number(useParams().id);
  const target = useTargetQuery(id);
  return (
    <div className="max-w-2xl">
      <PageHeader
        title={target.data?.name ?? "Backup Target"}
        description="Secrets are stored encrypted and never shown."
      />
      {target.data ? (
        <RoleGate allowed={["admin"]} fallback={<TargetSummary target={target.data} />}>
          <TargetForm current={target.data} />
        </RoleGate>
      ) : target.error ? (
        <p>{errorMessage(target.error)}</p>
      ) : null}
    </div>
  );
}
