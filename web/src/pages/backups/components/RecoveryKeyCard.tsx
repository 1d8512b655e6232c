import { KeyRoundIcon, ShieldAlertIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { RoleGate } from "@/app/RoleGate";
import { SecretValue } from "@/components/SecretValue";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useCreateRecoveryKeyMutation, useRecoveryStatusQuery } from "@/data/backups/backups";
import { showMutationError } from "@/data/error-toast";
import { formatDateTime } from "@/lib/utils";

/** The key the server just returned: shown this once, never fetched again. */
function KeyOnce({ value, onDone }: { value: string; onDone: () => void }): ReactElement {
  return (
    <div className="flex flex-col gap-2 rounded-md border border-amber-500/40 p-3">
      <p className="flex items-center gap-2 text-sm font-medium">
        <ShieldAlertIcon className="size-4 text-amber-500" /> Copy the recovery key now
      </p>
      <p className="text-xs text-muted-foreground">
        This is the only time it is shown; the console keeps only its hash. A restore needs it (
        <code>CHAINLAUNCH_RECOVERY_KEY=… chainlaunch backup restore …</code>). Keep it apart from the repository
        password.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <SecretValue value={value} copyLabel="Copy recovery key" testId="recovery-key" />
      </div>
      <Button className="self-start" variant="outline" onClick={onDone}>
        I have saved it
      </Button>
    </div>
  );
}

/**
 * The backup recovery key: snapshots hold the master key only wrapped under it. Everyone sees
 * whether it exists and its fingerprint; only an admin makes or replaces it (the server enforces it).
 */
export function RecoveryKeyCard(): ReactElement {
  const status = useRecoveryStatusQuery();
  const create = useCreateRecoveryKeyMutation();
  const [shown, setShown] = useState<string | undefined>();
  const s = status.data;
  const make = (replace: boolean): void => {
    if (replace && !window.confirm("Replace the recovery key? Snapshots made before keep needing the old one.")) return;
    create.mutate(replace, { onSuccess: (r) => setShown(r.recoveryKey), onError: showMutationError });
  };
  return (
    <Card className="mb-4" data-testid="recovery-key-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <KeyRoundIcon className="size-4" /> Recovery key
        </CardTitle>
        <CardDescription>
          {!s
            ? "…"
            : s.configured
              ? `Fingerprint ${s.fingerprint ?? ""}, made ${formatDateTime(s.createdAt)}${s.createdBy ? ` by ${s.createdBy}` : ""}.${
                  s.matchesMasterKey ? "" : " It wraps another master key than the console's: make a new one."
                }`
              : "None yet: backups fail until an admin makes one. Snapshots hold the master key only wrapped under it."}
        </CardDescription>
      </CardHeader>
      <RoleGate allowed={["admin"]}>
        <CardContent className="flex flex-col gap-3">
          {shown ? <KeyOnce value={shown} onDone={() => setShown(undefined)} /> : null}
          {s && !shown ? (
            <Button
              className="self-start"
              variant={s.configured ? "outline" : "default"}
              disabled={create.isPending}
              onClick={() => make(s.configured)}
            >
              {s.configured ? "Replace recovery key" : "Create recovery key"}
            </Button>
          ) : null}
        </CardContent>
      </RoleGate>
    </Card>
  );
}
