import type { ReactElement } from "react";
import { Markdown } from "@/components/markdown/Markdown";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { PluginDocumentation as Docs } from "@/data/plugins/types";

/**
 * The plugin's own documentation. The readme is shown as written (Markdown source, preformatted):
 * the console has no Markdown renderer and a plugin's text should not bring HTML into the page.
 */
/** A documentation field as text (the schema leaves examples and troubleshooting entries open). */
function str(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}

export function PluginDocumentation({ docs }: { docs: Docs | undefined }): ReactElement {
  const readme = docs?.readme?.trim();
  const examples = (docs?.examples ?? []).map((e) => ({
    name: str(e.name),
    description: str(e.description),
    parameters: typeof e.parameters === "object" && e.parameters !== null ? e.parameters : undefined,
  }));
  const troubleshooting = (docs?.troubleshooting ?? []).map((t) => ({
    problem: str(t.problem),
    description: str(t.description),
    solution: str(t.solution),
  }));
  if (!readme && examples.length === 0 && troubleshooting.length === 0) {
    return <p className="p-4 text-sm text-muted-foreground">This plugin has no documentation.</p>;
  }
  return (
    <div className="space-y-4">
      {readme && (
        <Card>
          <CardContent>
            <Markdown source={readme} data-testid="plugin-readme" />
          </CardContent>
        </Card>
      )}
      {examples.length > 0 && (
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Examples</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            {examples.map((e, i) => (
              <div key={`${i}:${e.name ?? ""}`} className="grid gap-1">
                {e.name && <p className="font-medium">{e.name}</p>}
                {e.description && <p className="text-sm text-muted-foreground">{e.description}</p>}
                {e.parameters && (
                  <pre className="overflow-auto rounded-lg border bg-muted/40 p-3 font-mono text-xs">
                    {JSON.stringify(e.parameters, null, 2)}
                  </pre>
                )}
              </div>
            ))}
          </CardContent>
        </Card>
      )}
      {troubleshooting.length > 0 && (
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Troubleshooting</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            {troubleshooting.map((t, i) => (
              <div key={`${i}:${t.problem ?? ""}`} className="grid gap-1 text-sm">
                {t.problem && <p className="font-medium">{t.problem}</p>}
                {t.description && <p className="text-muted-foreground">{t.description}</p>}
                {t.solution && <p className="whitespace-pre-wrap">{t.solution}</p>}
              </div>
            ))}
          </CardContent>
        </Card>
      )}
    </div>
  );
}
