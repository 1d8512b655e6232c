import { MoreHorizontalIcon, PencilIcon, Trash2Icon, UsersIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import type { User } from "@/api/client";
import { RoleGate } from "@/app/RoleGate";
import { UserCreateDialog } from "@/pages/users/UserCreateDialog";
import { UserDeleteDialog } from "@/pages/users/UserDeleteDialog";
import { UserRoleDialog } from "@/pages/users/UserRoleDialog";
import { ROLE_LABELS } from "@/pages/users/RoleSelect";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useMeQuery } from "@/data/auth/me-query";
import { useUsersQuery } from "@/data/users/users-query";
import { formatDateTime, initials } from "@/lib/utils";

const ROLE_VARIANT = { admin: "default", manager: "secondary", viewer: "outline" } as const;

/** Users: list, add, change role, delete. Only admins see the actions; the server enforces the rest. */
export function UsersPage(): ReactElement {
  const me = useMeQuery();
  const users = useUsersQuery();
  const [editing, setEditing] = useState<User | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const adminCount = users.data?.filter((u) => u.role === "admin").length ?? 0;

  return (
    <div>
      <PageHeader
        title="Users"
        description="People who can sign in to this ChainLaunch installation."
        actions={
          <RoleGate allowed={["admin"]}>
            <UserCreateDialog />
          </RoleGate>
        }
      />
      <Card className="py-0">
        <QueryState
          query={users}
          isEmpty={(d) => d.length === 0}
          empty={<EmptyState icon={UsersIcon} title="No users yet" />}
        >
          {(list) => (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>User</TableHead>
                  <TableHead>Role</TableHead>
                  <TableHead>Created</TableHead>
                  <TableHead>Last sign-in</TableHead>
                  <TableHead className="w-12">
                    <span className="sr-only">Actions</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.map((u) => {
                  const self = u.id === me.data?.id;
                  const lastAdmin = u.role === "admin" && adminCount <= 1;
                  return (
                    <TableRow key={u.id}>
                      <TableCell>
                        <span className="flex items-center gap-2.5">
                          <span className="flex size-8 items-center justify-center rounded-full bg-muted text-xs font-semibold">
                            {initials(u.username)}
                          </span>
                          <span className="font-medium">{u.username}</span>
                          {self && <Badge variant="outline">You</Badge>}
                        </span>
                      </TableCell>
                      <TableCell>
                        <Badge variant={ROLE_VARIANT[u.role]}>{ROLE_LABELS[u.role]}</Badge>
                      </TableCell>
                      <TableCell className="text-muted-foreground">{formatDateTime(u.created_at)}</TableCell>
                      <TableCell className="text-muted-foreground">{formatDateTime(u.last_login_at)}</TableCell>
                      <TableCell>
                        <RoleGate allowed={["admin"]}>
                          <DropdownMenu>
                            <DropdownMenuTrigger asChild>
                              <Button variant="ghost" size="icon-sm" aria-label={`Actions for ${u.username}`}>
                                <MoreHorizontalIcon />
                              </Button>
                            </DropdownMenuTrigger>
                            <DropdownMenuContent align="end">
                              <DropdownMenuItem onSelect={() => setEditing(u)}>
                                <PencilIcon /> Edit role
                              </DropdownMenuItem>
                              <DropdownMenuItem
                                disabled={self || lastAdmin}
                                className="text-destructive"
                                onSelect={() => setDeleting(u)}
                              >
                                <Trash2Icon /> {self ? "Can't delete yourself" : lastAdmin ? "Last admin" : "Delete"}
                              </DropdownMenuItem>
                            </DropdownMenuContent>
                          </DropdownMenu>
                        </RoleGate>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          )}
        </QueryState>
      </Card>
      {editing && (
        <UserRoleDialog
          user={editing}
          lastAdmin={editing.role === "admin" && adminCount <= 1}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && <UserDeleteDialog user={deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}
