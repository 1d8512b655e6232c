import { Loader2Icon, TriangleAlertIcon } from "lucide-react";
import type { ReactElement } from "react";
import type { KeyInfo } from "@/api/client";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { useKeyDeleteMutation } from "@/data/keys/key-delete-mutation";
import { showToast } from "@/lib/toast";

/** Confirms deleting a key. A key still in use stays, and the server's 409 message says by whom. */
export function KeyDeleteDialog({
  keyInfo,
  open,
  onOpenChange,
  onDeleted,
}: {
  keyInfo: KeyInfo;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDeleted: () => void;
}): ReactElement {
  const del = useKeyDeleteMutation();
  return (
    <AlertDialog
      open={open}
      onOpenChange={(v) => {
        if (del.isPending) return;
        if (!v) del.reset();
        onOpenChange(v);
      }}
    >
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete {keyInfo.name}?</AlertDialogTitle>
          <AlertDialogDescription>
            The private key is destroyed. Anything signed with it can no longer be re-signed. This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        {del.isError && (
          <p
            role="alert"
            className="flex items-start gap-2 rounded-lg border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive"
          >
            <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" />
            {del.error.message || "The key could not be deleted."}
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={del.isPending}>Cancel</AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={del.isPending}
            onClick={() =>
              del.mutate(keyInfo.id, {
                onSuccess: () => {
                  showToast("success", "Key deleted", { description: `${keyInfo.name} was removed.` });
                  onDeleted();
                },
              })
            }
          >
            {del.isPending && <Loader2Icon className="animate-spin" />}
            Delete key
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
