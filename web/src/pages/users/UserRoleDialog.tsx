import { Loader2Icon } from "lucide-react";
import { useState, type ReactElement } from "react";
import type { Role, User } from "@/api/client";
import { RoleSelect } from "@/pages/users/RoleSelect";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { useUserUpdateMutation } from "@/data/users/user-update-mutation";
import { showToast } from "@/lib/toast";

/** Change a user's role. `lastAdmin` keeps the only admin from demoting themselves out of the product. */
export function UserRoleDialog({
  user,
  lastAdmin,
  onClose,
}: {
  user: User;
  lastAdmin: boolean;
  onClose: () => void;
}): ReactElement {
  const [role, setRole] = useState<Role>(user.role);
  const update = useUserUpdateMutation();
  const blocked = lastAdmin && role !== "admin";
  return (
    <Dialog open onOpenChange={(v) => !v && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit role</DialogTitle>
          <DialogDescription>Change what {user.username} can do.</DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor="edit-role">Role</Label>
          <RoleSelect id="edit-role" value={role} onChange={setRole} />
          {blocked && (
            <p className="text-xs text-destructive">This is the last admin. Promote another user to admin first.</p>
          )}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={blocked || role === user.role || update.isPending}
            onClick={() =>
              update.mutate(
                { id: user.id, role },
                {
                  onSuccess: () => {
                    showToast("success", "Role updated", { description: `${user.username} is now ${role}.` });
                    onClose();
                  },
                },
              )
            }
          >
            {update.isPending && <Loader2Icon className="animate-spin" />}
            Save
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
