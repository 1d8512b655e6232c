import { useState, type ReactElement } from "react";
import { RouterProvider } from "react-router";
import { createAppRouter } from "@/app/router";
import { useMeQuery } from "@/data/auth/me-query";
import { LoginPage } from "@/pages/login/LoginPage";
import { Button } from "@/components/ui/button";

/** Auth states (spec §1): 'Loading...' while the user loads, the login form without one, the app with one. */
export function App(): ReactElement {
  const me = useMeQuery();
  const [router] = useState(createAppRouter);
  if (me.isPending) {
    return (
      <div className="flex h-svh items-center justify-center text-sm text-muted-foreground" role="status">
        Loading...
      </div>
    );
  }
  if (me.isError) {
    return (
      <div role="alert" className="flex h-svh flex-col items-center justify-center gap-3 text-sm">
        <p className="font-medium">Could not reach the ChainLaunch server.</p>
        <p className="text-muted-foreground">{me.error.message || "An unknown error occurred"}</p>
        <Button variant="outline" onClick={() => void me.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  if (!me.data) return <LoginPage />;
  return <RouterProvider router={router} />;
}
