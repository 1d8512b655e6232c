import { useEffect, type ReactElement } from "react";
import { pageTitle, PRODUCT_NAME } from "@/app/constants";
import { LoginForm } from "@/pages/login/LoginForm";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

/** Shown instead of the app when nobody is signed in. */
export function LoginPage(): ReactElement {
  useEffect(() => {
    document.title = pageTitle("Login");
  }, []);
  return (
    <div className="relative flex min-h-svh items-center justify-center overflow-hidden bg-muted/40 p-4">
      <div className="pointer-events-none absolute -top-40 left-1/2 size-[36rem] -translate-x-1/2 rounded-full bg-primary/10 blur-3xl" />
      <div className="relative w-full max-w-sm">
        <div className="mb-6 flex items-center justify-center gap-2">
          <img src="/favicon.svg" alt="" className="size-9" />
          <span className="text-xl font-semibold tracking-tight">{PRODUCT_NAME}</span>
          <span className="rounded bg-gradient-to-r from-indigo-500 to-violet-500 px-1.5 py-px text-[10px] font-bold tracking-wider text-white">
            PRO
          </span>
        </div>
        <Card className="shadow-lg">
          <CardHeader className="text-center">
            <CardTitle className="text-xl">Sign in</CardTitle>
            <CardDescription>Enter your credentials to access your account</CardDescription>
          </CardHeader>
          <CardContent>
            <LoginForm />
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
