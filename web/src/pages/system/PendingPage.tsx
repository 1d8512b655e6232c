import { ConstructionIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";

/** Placeholder for a screen that a later release delivers (not a not-found). */
export function PendingPage({ title }: { title: string }): ReactElement {
  return (
    <div>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">{title}</h1>
      <Card>
        <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-primary/10">
            <ConstructionIcon className="size-6 text-primary" />
          </span>
          <p className="text-lg font-medium">Coming soon</p>
          <p className="max-w-md text-sm text-muted-foreground">
            The {title} screen is part of an upcoming release of ChainLaunch. Its API and interface are on the way.
          </p>
          <Button asChild variant="outline" size="sm">
            <Link to="/dashboard">Back to dashboard</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
