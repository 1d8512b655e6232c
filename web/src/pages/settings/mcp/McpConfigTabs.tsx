import type { ReactElement } from "react";
import { CopyButton } from "@/components/CopyButton";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { mcpClientConfigs, type McpClient } from "@/pages/settings/mcp/mcp-config";

const CLIENTS: { id: McpClient; label: string }[] = [
  { id: "claude", label: "Claude" },
  { id: "cursor", label: "Cursor" },
  { id: "vscode", label: "VS Code" },
  { id: "curl", label: "curl" },
];

/** Ready-to-paste client configs; they carry the key just created, or a placeholder. */
export function McpConfigTabs({ url, secret }: { url: string; secret?: string | undefined }): ReactElement {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Client configuration</CardTitle>
        <CardDescription>
          {secret
            ? "These include the key you just created. Paste them now: the key is not shown again."
            : "Replace <YOUR_API_KEY> with an API key, or create one above to have it filled in."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Tabs defaultValue="claude">
          <TabsList aria-label="MCP client">
            {CLIENTS.map((c) => (
              <TabsTrigger key={c.id} value={c.id}>
                {c.label}
              </TabsTrigger>
            ))}
          </TabsList>
          {CLIENTS.map((c) => (
            <TabsContent key={c.id} value={c.id} className="mt-4 grid gap-4">
              {mcpClientConfigs(c.id, url, secret).map((s) => (
                <div key={s.title} className="grid gap-2">
                  <div className="flex items-center justify-between gap-2">
                    <span className="text-sm font-medium">{s.title}</span>
                    <CopyButton value={s.text} label={`Copy ${s.title}`} />
                  </div>
                  <pre className="overflow-x-auto rounded-md border bg-muted px-3 py-2 font-mono text-xs break-all whitespace-pre-wrap">
                    {s.text}
                  </pre>
                </div>
              ))}
            </TabsContent>
          ))}
        </Tabs>
      </CardContent>
    </Card>
  );
}
