import type { UseMutationResult } from "@tanstack/react-query";
import { Loader2Icon, Trash2Icon } from "lucide-react";
import { useState, type ReactElement, type ReactNode } from "react";
import { useNavigate } from "react-router";
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
import { showToast } from "@/lib/toast";

/**
 * A confirmation for a destructive action: Cancel and a confirm button that shows a spinner while
 * the action runs. The dialog cannot be dismissed while it is pending.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  pending,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  pending: boolean;
  onConfirm: () => void;
}): ReactElement {
  return (
    <AlertDialog open={open} onOpenChange={(v) => !pending && onOpenChange(v)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" disabled={pending} onClick={onConfirm}>
            {pending && <Loader2Icon className="animate-spin" />}
            {confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/**
 * The Delete button of a detail page: asks for confirmation, runs `mutation` on `id`, toasts and
 * navigates to `redirectTo`. A failure closes the dialog (the error toast comes from the mutation cache).
 */
export function DeleteResourceButton({
  mutation,
  id,
  name,
  description,
  confirmLabel,
  deletedTitle,
  redirectTo,
}: {
  mutation: UseMutationResult<void, Error, number>;
  id: number;
  name: string;
  description: string;
  confirmLabel: string;
  deletedTitle: string;
  redirectTo: string;
}): ReactElement {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  return (
    <>
      <Button variant="destructive" onClick={() => setOpen(true)}>
        <Trash2Icon /> Delete
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Delete ${name}?`}
        description={description}
        confirmLabel={confirmLabel}
        pending={mutation.isPending}
        onConfirm={() =>
          mutation.mutate(id, {
            onSuccess: () => {
              showToast("success", deletedTitle, { description: `${name} was removed.` });
              void navigate(redirectTo);
            },
            onError: () => setOpen(false),
          })
        }
      />
    </>
  );
}
