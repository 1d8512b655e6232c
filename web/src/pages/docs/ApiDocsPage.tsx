import { useEffect, useRef, useState, type ReactElement } from "react";
import { PageHeader, ErrorState } from "@/components/states";
import { Card } from "@/components/ui/card";
import "swagger-ui-dist/swagger-ui.css";
import "@/pages/docs/swagger-overrides.css";

interface SwaggerBundle {
  (opts: { domNode: HTMLElement; url: string; deepLinking?: boolean; withCredentials?: boolean }): unknown;
}

/** The server's OpenAPI document rendered by Swagger UI, bundled locally (no CDN). */
export function ApiDocsPage(): ReactElement {
  const ref = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<Error | null>(null);

  useEffect(() => {
    let cancelled = false;
    import("swagger-ui-dist/swagger-ui-bundle.js")
      .then((mod: { default?: unknown }) => {
        if (cancelled || !ref.current) return;
        const bundle = (mod.default ?? mod) as SwaggerBundle;
        bundle({ domNode: ref.current, url: "/api/v1/openapi.json", deepLinking: false, withCredentials: true });
      })
      .catch((e: unknown) => setError(e instanceof Error ? e : new Error(String(e))));
    return () => {
      cancelled = true;
    };
  }, []);

  return (
    <div>
      <PageHeader
        title="API Documentation"
        description={
          <>
            Every endpoint of the REST API under <code className="font-mono">/api/v1</code>. Calls from this page use
            your session.
          </>
        }
      />
      <Card className="overflow-hidden bg-white py-0 text-slate-900 dark:bg-card dark:text-card-foreground">
        {error ? <ErrorState error={error} /> : <div ref={ref} className="swagger-host min-h-64" />}
      </Card>
    </div>
  );
}
