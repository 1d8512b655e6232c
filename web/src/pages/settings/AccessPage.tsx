import { CheckIcon, MinusIcon } from "lucide-react";
import type { ReactElement } from "react";
import { ChangePasswordForm } from "@/pages/account/ChangePasswordForm";
import { SettingsNav } from "@/pages/settings/SettingsNav";
import { PageHeader, QueryState } from "@/components/states";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { RoleInfo } from "@/api/client";
import { useRolesQuery } from "@/data/roles/roles-query";

function Matrix({ roles }: { roles: RoleInfo[] }): ReactElement {
  const perms = new Map<string, { name: string; category: string }>();
  for (const r of roles) for (const p of r.permissions) perms.set(p.code, { name: p.name, category: p.category });
  const rows = [...perms.entries()].sort((a, b) => a[1].category.localeCompare(b[1].category));
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Permission</TableHead>
          <TableHead>Category</TableHead>
          {roles.map((r) => (
            <TableHead key={r.role} className="text-center">
              {r.name}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map(([code, p]) => (
          <TableRow key={code}>
            <TableCell className="font-medium">{p.name}</TableCell>
            <TableCell className="text-muted-foreground">{p.category}</TableCell>
            {roles.map((r) => (
              <TableCell key={r.role} className="text-center">
                {r.permissions.some((x) => x.code === code) ? (
                  <CheckIcon className="mx-auto size-4 text-success" aria-label="granted" />
                ) : (
                  <MinusIcon className="mx-auto size-4 text-muted-foreground/50" aria-label="not granted" />
                )}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Access control: what each role may do, and your password. */
export function AccessPage(): ReactElement {
  const roles = useRolesQuery();
  return (
    <div>
      <PageHeader title="Settings" description="Configure your ChainLaunch installation." />
      <SettingsNav />
      {/* One column that never grows past the screen: the matrix scrolls inside its card on a phone. */}
      <div className="grid grid-cols-1 gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Roles and permissions</CardTitle>
            <CardDescription>Each user has one role. The server enforces these rules on every call.</CardDescription>
          </CardHeader>
          <CardContent className="px-0">
            <QueryState query={roles} isEmpty={(d) => d.length === 0}>
              {(d) => (
                <>
                  <div className="grid gap-3 px-5 pb-4 sm:grid-cols-3">
                    {d.map((r) => (
                      <div key={r.role} className="rounded-lg border p-3">
                        <p className="font-medium">{r.name}</p>
                        <p className="text-xs text-muted-foreground">{r.description}</p>
                      </div>
                    ))}
                  </div>
                  <Matrix roles={d} />
                </>
              )}
            </QueryState>
          </CardContent>
        </Card>
        <div className="max-w-xl">
          <ChangePasswordForm />
        </div>
      </div>
    </div>
  );
}
