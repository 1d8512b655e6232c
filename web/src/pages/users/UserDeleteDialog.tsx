import type { ReactElement } from "react";
import type { User } from "@/api/client";
import { DeleteResourceDialog } from "@/components/ConfirmDialog";
import { useUserDeleteMutation } from "@/data/users/user-delete-mutation";

/** Confirms deleting a user from the Users list; closes once the delete succeeds or fails. */
export function UserDeleteDialog({ user, onClose }: { user: User; onClose: () => void }): ReactElement {
  return (
    <DeleteResourceDialog
      open
      onOpenChange={(v) => !v && onClose()}
      onDeleted={onClose}
      mutation={useUserDeleteMutation()}
      id={user.id}
      name={user.username}
      description="They are signed out at once and can no longer sign in. Their API keys stop working. This cannot be undone."
      confirmLabel="Delete user"
      deletedTitle="User deleted"
    />
  );
}
