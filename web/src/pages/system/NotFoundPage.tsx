import { CompassIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";

export function NotFoundPage(): ReactElement {
  return (
    <div className="mx-auto mt-16 flex max-w-md flex-col items-center gap-3 text-center">
      <CompassIcon className="size-10 text-muted-foreground" />
      <p className="text-5xl font-bold tracking-tight">404</p>
      <h1 className="text-lg font-semibold">Page not found</h1>
      <p className="text-sm text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <Button asChild>
        <Link to="/dashboard">Go to dashboard</Link>
      </Button>
    </div>
  );
}
