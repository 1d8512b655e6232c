import type { UseMutationResult } from "@tanstack/react-query";
import { Loader2Icon, Trash2Icon, TriangleAlertIcon } from "lucide-react";
import { useState, type ComponentProps, type ReactElement, type ReactNode } from "react";
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
 * the action runs. The dialog cannot be dismissed while it is pending. `error`, when set, is shown
 * as an alert above the buttons (for refusals the operator should read before retrying or cancelling).
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  pending,
  onConfirm,
  error,
  variant = "destructive",
}: {
  /** The confirm button's look: destructive for deletes and stops, default for submits. */
  variant?: "destructive" | "default";
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  pending: boolean;
  onConfirm: () => void;
  error?: ReactNode;
}): ReactElement {
  return (
    <AlertDialog open={open} onOpenChange={(v) => !pending && onOpenChange(v)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {error && (
          <p
            role="alert"
            className="flex items-start gap-2 rounded-lg border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive"
          >
            <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" />
            {error}
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <Button variant={variant} disabled={pending} onClick={onConfirm}>
            {pending && <Loader2Icon className="animate-spin" />}
            {confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** What a delete (or revoke) confirmation says and does, shared by the dialog and the button. */
export interface DeleteResourceProps {
  mutation: UseMutationResult<void, Error, number>;
  id: number;
  name: string;
  /** Defaults to "Delete {name}?". */
  title?: string;
  description: string;
  confirmLabel: string;
  /** Success toast title; its description defaults to "{name} was removed.". */
  deletedTitle: string;
  deletedDescription?: string;
  /**
   * Keep the dialog open on failure and show the server's message in it, with this fallback when the
   * message is empty (for refusals such as "still in use"). Without it a failure closes the dialog and
   * the error toast comes from the mutation cache.
   */
  errorInDialog?: string;
}

/** The controlled delete confirmation: runs `mutation` on `id`, toasts, then calls `onDeleted`. */
export function DeleteResourceDialog({
  open,
  onOpenChange,
  onDeleted,
  mutation,
  id,
  name,
  title,
  description,
  confirmLabel,
  deletedTitle,
  deletedDescription,
  errorInDialog,
}: DeleteResourceProps & {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDeleted: () => void;
}): ReactElement {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(v) => {
        if (!v && errorInDialog !== undefined) mutation.reset();
        onOpenChange(v);
      }}
      title={title ?? `Delete ${name}?`}
      description={description}
      confirmLabel={confirmLabel}
      pending={mutation.isPending}
      error={errorInDialog !== undefined && mutation.isError ? mutation.error.message || errorInDialog : undefined}
      onConfirm={() =>
        mutation.mutate(id, {
          onSuccess: () => {
            showToast("success", deletedTitle, { description: deletedDescription ?? `${name} was removed.` });
            onDeleted();
          },
          onError: () => {
            if (errorInDialog === undefined) onOpenChange(false);
          },
        })
      }
    />
  );
}

/**
 * The Delete button of a detail page: asks for confirmation, runs `mutation` on `id`, toasts and
 * navigates to `redirectTo`.
 */
export function DeleteResourceButton({
  redirectTo,
  buttonLabel = "Delete",
  ...props
}: DeleteResourceProps & { redirectTo: string; buttonLabel?: string }): ReactElement {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  return (
    <>
      <Button variant="destructive" onClick={() => setOpen(true)}>
        <Trash2Icon /> {buttonLabel}
      </Button>
      <DeleteResourceDialog {...props} open={open} onOpenChange={setOpen} onDeleted={() => void navigate(redirectTo)} />
    </>
  );
}

/**
 * A button that asks first: its click opens a confirmation naming what happens, and `onConfirm`
 * runs only from the dialog's confirm button. The dialog closes when the action settles (`pending`
 * goes false after being true) or at once when the action is not tracked.
 */
export function ConfirmButton({
  children,
  title,
  description,
  confirmLabel,
  onConfirm,
  pending = false,
  disabled,
  variant = "outline",
  size,
  confirmVariant = "destructive",
  "aria-label": ariaLabel,
  className,
  buttonTitle,
}: {
  /** The button's tooltip (why it is disabled, say). */
  buttonTitle?: string;
  children: ReactNode;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  /** Runs the action; resolve or reject when it settles to close the dialog. */
  onConfirm: () => Promise<unknown> | void;
  pending?: boolean;
  disabled?: boolean;
  variant?: ComponentProps<typeof Button>["variant"];
  size?: ComponentProps<typeof Button>["size"];
  confirmVariant?: "destructive" | "default";
  "aria-label"?: string;
  className?: string;
}): ReactElement {
  const [open, setOpen] = useState(false);
  const [running, setRunning] = useState(false);
  return (
    <>
      <Button
        variant={variant}
        size={size}
        disabled={disabled}
        aria-label={ariaLabel}
        className={className}
        title={buttonTitle}
        onClick={(e) => {
          e.stopPropagation();
          setOpen(true);
        }}
      >
        {children}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={title}
        description={description}
        confirmLabel={confirmLabel}
        variant={confirmVariant}
        pending={pending || running}
        onConfirm={() => {
          const out = onConfirm();
          if (out && typeof (out as Promise<unknown>).then === "function") {
            setRunning(true);
            void (out as Promise<unknown>).finally(() => {
              setRunning(false);
              setOpen(false);
            });
          } else setOpen(false);
        }}
      />
    </>
  );
}
