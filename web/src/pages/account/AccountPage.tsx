import type { ReactElement, ReactNode } from "react";
import { ChangePasswordForm } from "@/pages/account/ChangePasswordForm";
import { PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useMeQuery } from "@/data/auth/me-query";
import { formatDateTime, initials } from "@/lib/utils";

function Row({ label, children }: { label: string; children: ReactNode }): ReactElement {
  return (
    <div className="flex items-center justify-between gap-4 py-2.5 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right font-medium">{children}</dd>
    </div>
  );
}

/** Your profile and password. */
export function AccountPage(): ReactElement {
  const me = useMeQuery();
  return (
    <div>
      <PageHeader title="Account" description="Your profile and sign-in details." />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Profile</CardTitle>
          </CardHeader>
          <CardContent>
            <QueryState query={me}>
              {(u) =>
                u && (
                  <>
                    <div className="mb-4 flex items-center gap-3">
                      <span className="flex size-12 items-center justify-center rounded-xl bg-primary/15 text-lg font-semibold text-primary">
                        {initials(u.username)}
                      </span>
                      <div>
                        <p className="font-semibold">{u.username}</p>
                        <Badge variant="secondary" className="capitalize">
                          {u.role}
                        </Badge>
                      </div>
                    </div>
                    <dl className="divide-y">
                      <Row label="User ID">{u.id}</Row>
                      <Row label="Member since">{formatDateTime(u.created_at)}</Row>
                      <Row label="Last sign-in">{formatDateTime(u.last_login_at)}</Row>
                      <Row label="Demo mode">{u.demo_mode ? "Yes" : "No"}</Row>
                    </dl>
                  </>
                )
              }
            </QueryState>
          </CardContent>
        </Card>
        <ChangePasswordForm />
      </div>
    </div>
  );
}
