import { Loader2Icon } from "lucide-react";
import type { ReactElement } from "react";
import type { User } from "@/api/client";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { useUserDeleteMutation } from "@/data/users/user-delete-mutation";
import { showToast } from "@/lib/toast";

export function UserDeleteDialog({ user, onClose }: { user: User; onClose: () => void }): ReactElement {
  const del = useUserDeleteMutation();
  return (
    <AlertDialog open onOpenChange={(v) => !v && !del.isPending && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete {user.username}?</AlertDialogTitle>
          <AlertDialogDescription>
            They are signed out at once and can no longer sign in. Their API keys stop working. This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={del.isPending}>Cancel</AlertDialogCancel>
          <AlertDialogAction
            variant="destructive"
            disabled={del.isPending}
            onClick={() =>
              del.mutate(user.id, {
                onSuccess: () => {
                  showToast("success", "User deleted", { description: `${user.username} was removed.` });
                  onClose();
                },
                onError: onClose,
              })
            }
          >
            {del.isPending && <Loader2Icon className="animate-spin" />}
            Delete user
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
