import { Loader2Icon } from "lucide-react";
import type { ReactElement } from "react";
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
import { useLogoutMutation } from "@/data/auth/logout-mutation";

/** Log out confirmation with the spec's texts; the page reloads once the server signs the session out. */
export function LogoutDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (v: boolean) => void;
}): ReactElement {
  const logout = useLogoutMutation();
  return (
    <AlertDialog open={open} onOpenChange={(v) => !logout.isPending && onOpenChange(v)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Are you sure you want to log out?</AlertDialogTitle>
          <AlertDialogDescription>You will need to log in again to access your account.</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={logout.isPending}>Cancel</AlertDialogCancel>
          <AlertDialogAction disabled={logout.isPending} onClick={() => logout.mutate()}>
            {logout.isPending ? (
              <>
                <Loader2Icon className="animate-spin" /> Logging out...
              </>
            ) : (
              "Log out"
            )}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
